"""Count the corpus decisions that are the model's gos in a message where no rule found a go.

    python scripts/model_gos_without_cue.py [--list]

A go the model (taskproto/classify/languages/model.py) makes where no clause of the message
matched a go rule (a table's or English's) rests on the model's words alone: the deeper risk
behind a go read where the user held (docs/interruptions.md, "Twenty-third round: gos read where
the user held"). Prints, for the labelled corpus (the held-out batch 26 left out), how many such
decisions there are and how many of them are right, by language; --list prints each one.
"""

from __future__ import annotations

import argparse
import collections
from pathlib import Path

from taskproto.classify import interruptions, languages
from taskproto.classify.interruption_rules import DEFAULT_RULES

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


def _corpus() -> list[tuple[str, str, str]]:
    files = [DATA / "interruptions.tsv", *sorted((DATA / "interruptions_i18n").glob("*.tsv"))]
    out: list[tuple[str, str, str]] = []
    for path in files:
        if path.name.endswith(".heldout26.tsv"):
            continue  # the held-out batch is not read
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#") and "\t" in line:
                label, text = line.split("\t", 1)
                out.append((path.name.split(".")[0], label, text))
    return out


def _go_cue(text: str) -> bool:
    """Whether a clause of ``text`` matches a go rule of its languages' tables or English's."""
    codes, lead, normal = languages.detect(interruptions._normalise(text))
    rules = languages.with_rules(DEFAULT_RULES, codes) if codes else DEFAULT_RULES
    if codes:
        normal = languages.courteous(codes, normal)
    clauses = interruptions._clauses_of(normal, codes[:lead]) or [normal]
    hits = (interruptions._match(c, rules, bool(codes)) for c in clauses)
    return any(hit is not None and hit.type == "RESUMPTION" for hit in hits)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="print each such decision")
    args = parser.parse_args()
    counts: collections.Counter[tuple[str, bool]] = collections.Counter()
    for lang, label, text in _corpus():
        found = interruptions.classify(text)
        if found.type != "RESUMPTION" or not found.rule.endswith("-model") or _go_cue(text):
            continue
        counts[lang, label == "RESUMPTION"] += 1
        if args.list:
            print(f"{'right' if label == 'RESUMPTION' else 'WRONG'}\t{label}\t{lang}\t{text}")
    for lang in sorted({lang for lang, _ in counts}):
        right, wrong = counts[lang, True], counts[lang, False]
        print(f"{lang}: {right + wrong} model gos with no go cue, {right} right, {wrong} wrong")
    total_right = sum(n for (_, ok), n in counts.items() if ok)
    total = sum(counts.values())
    print(
        f"all: {total} model gos with no go cue, {total_right} right, {total - total_right} wrong"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Record every corpus message's decision (type and rule) as the classifier makes it now.

    python scripts/snapshot_interruptions.py [--check]

Writes tests/data/interruption_decisions.json, which tests/test_classifier_gates.py compares the
classifier against: a change that only makes the decision cheaper (docs/interruptions.md, "How a
rule is reached") must leave every decision as it was. The file is compact: the (type, rule)
pairs are numbered once, and each corpus file's decisions are two characters a message. It also
records the hash of each corpus file and of what the decisions are made from besides the code
that reaches the rules (the rule tables, the model and its weights): when one of those changes,
the decisions may change with it, and the test skips saying so until this script is run again.
With ``--check``, writes nothing and exits 1 (naming the first message) if a decision differs.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import string
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOT = ROOT / "tests" / "data" / "interruption_decisions.json"
_DIGITS = string.digits + string.ascii_letters  # two digits: 3,844 (type, rule) pairs at most
# What a decision is made from besides the code whose cost changes (interruptions.py,
# languages/__init__.py and the gates): a change to one of these may change a decision.
_INPUTS = (
    "taskproto/classify/interruption_rules.py",
    "taskproto/classify/slips.py",
    "taskproto/classify/languages/model.bin",
    # every module of languages/ (tables, rules by kind, firm.py, the model's code): a list by hand
    # missed the modules new rounds added
    *sorted(
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "taskproto" / "classify" / "languages").glob("*.py")
        if path.name != "__init__.py"
    ),
)


def corpora(root: Path = ROOT) -> list[Path]:
    """Every corpus file: English's, then each language's splits, by name."""
    data = root / "tests" / "data"
    return [data / "interruptions.tsv", *sorted((data / "interruptions_i18n").glob("*.tsv"))]


def messages(path: Path) -> list[str]:
    """The messages of corpus file ``path`` (``LABEL<TAB>message`` lines; ``#`` comments)."""
    rows = path.read_text(encoding="utf-8").splitlines()
    return [
        row.split("\t", 1)[1] for row in rows if row and not row.startswith("#") and "\t" in row
    ]


def inputs_hash(root: Path = ROOT) -> str:
    """The hash of the rule tables, the model and its weights."""
    digest = hashlib.sha256()
    for name in _INPUTS:
        digest.update(name.encode() + b"\0" + (root / name).read_bytes())
    return digest.hexdigest()[:16]


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def decisions(path: Path) -> list[str]:
    """``type<TAB>rule`` of each message of corpus file ``path``, classified in this process."""
    from taskproto.classify.interruptions import classify

    out = []
    for message in messages(path):
        found = classify(message)
        out.append(f"{found.type}\t{found.rule}")
    return out


@functools.cache
def _recorded() -> dict[str, Any] | None:
    try:
        data = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("inputs") == inputs_hash() else None


def decided(path: Path) -> list[str]:
    """``type<TAB>rule`` of each message of corpus file ``path``: the snapshot's, when it was made
    from these rule tables and weights and from this very file, else classified in this process.
    The tests that score the corpora read it: tests/test_classifier_gates.py compares the snapshot
    with the code, message by message, in the same suite, so the corpora are classified once."""
    data = _recorded()
    entry = data["files"].get(path.name) if data else None
    if data and entry and entry["sha"] == file_hash(path):
        return decode(entry["decisions"], data["vocab"])
    return decisions(path)


def encode(found: list[str], vocab: dict[str, int]) -> str:
    out = []
    for pair in found:
        number = vocab.setdefault(pair, len(vocab))
        out.append(_DIGITS[number // len(_DIGITS)] + _DIGITS[number % len(_DIGITS)])
    return "".join(out)


def decode(text: str, vocab: list[str]) -> list[str]:
    base = len(_DIGITS)
    numbers = [
        _DIGITS.index(text[i]) * base + _DIGITS.index(text[i + 1]) for i in range(0, len(text), 2)
    ]
    return [vocab[n] for n in numbers]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args(argv)
    if args.check:
        recorded = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
        for path in corpora():
            entry = recorded["files"][path.name]
            for message, was, now in zip(
                messages(path),
                decode(entry["decisions"], recorded["vocab"]),
                decisions(path),
                strict=True,
            ):
                if was != now:
                    print(f"{path.name}: {message!r} was {was!r}, is {now!r}")
                    return 1
        print("every decision is as recorded")
        return 0
    vocab: dict[str, int] = {}
    files = {}
    for path in corpora():
        files[path.name] = {"sha": file_hash(path), "decisions": encode(decisions(path), vocab)}
    snapshot = {"inputs": inputs_hash(), "vocab": list(vocab), "files": files}
    SNAPSHOT.write_text(json.dumps(snapshot, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{SNAPSHOT.relative_to(ROOT)}: {sum(len(f['decisions']) // 2 for f in files.values())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

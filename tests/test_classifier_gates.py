"""How a rule is reached (docs/interruptions.md): a language table's pattern is compiled only once
a clause holds the words every match of it holds (taskproto/classify/gates.py, the words derived
by needles.py). It must change no decision, and it must make a message compile few patterns."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from taskproto.classify import gates, interruptions, languages, needles

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import snapshot_interruptions as snapshot  # noqa: E402

FILES = snapshot.corpora()


@pytest.mark.long  # every corpus message classified, one pass: started first
def test_every_corpus_decision_is_as_the_code_before_made_it() -> None:
    """Type and rule of every message of every corpus file, in one pass (as
    ``scripts/snapshot_interruptions.py --check``), against the snapshot the code before the gates
    made; a difference names each message that changed. Skipped, saying why, when the rules or
    the model changed since the snapshot; a file written or changed since is named in a skip
    after every other file was compared (the gates are still checked below)."""
    recorded = json.loads(snapshot.SNAPSHOT.read_text(encoding="utf-8"))
    if recorded["inputs"] != snapshot.inputs_hash():
        pytest.skip("the rules or the model changed since the snapshot: run the script again")
    changed: list[tuple[str, str, str, str]] = []
    stale: list[str] = []
    for path in FILES:
        entry = recorded["files"].get(path.name)
        if entry is None or entry["sha"] != snapshot.file_hash(path):
            stale.append(path.name)
            continue
        was = snapshot.decode(entry["decisions"], recorded["vocab"])
        now = snapshot.decisions(path)
        messages = snapshot.messages(path)
        changed.extend(
            (path.name, m, w, n) for m, w, n in zip(messages, was, now, strict=True) if w != n
        )
    assert changed == [], f"{len(changed)} decisions changed:\n" + "\n".join(
        f"{name}: {m!r} was {w!r}, is {n!r}" for name, m, w, n in changed
    )
    if stale:
        pytest.skip(f"written or changed since the snapshot (the other files compared): {stale}")


def test_the_gate_words_are_derived_from_the_patterns_as_they_are() -> None:
    words, starts = needles.table()
    table = gates._table(0)
    assert {k: gates._split(v) for k, v in table.items()} == words, (
        "taskproto/classify/gate_words.py is out of date: run scripts/make_gate_words.py"
    )
    assert {k: (gates._split(v) or ((),))[0] for k, v in gates._table(1).items()} == starts


def _patterns(codes: tuple[str, ...]) -> list[str]:
    found = [rule.pattern for rule in languages.with_rules(interruptions.DEFAULT_RULES, codes)]
    for code in codes:
        table = languages.language(code)
        found.extend(p for p in (getattr(table, f) for f in gates.SEARCHED) if p)
    return found


def test_every_corpus_file_but_englishs_is_of_a_language() -> None:
    """So that the test below, one a language, reads every file."""
    assert {path.name.split(".")[0] for path in FILES[1:]} == set(languages.CODES)


@pytest.mark.parametrize("code", languages.CODES)
def test_no_gate_closes_on_a_clause_its_pattern_matches(code: str) -> None:
    """Every eighth message of each corpus file of the language: each clause (and the whole
    text), against every pattern of its tables, the English rules and the searched fields, and
    the filler pattern: where the words are missing, the pattern does not match either. (They are
    derived so that it cannot; this holds on a changed table as well as on the recorded one.) A
    failure names every message, clause and pattern where a closed gate's pattern matched."""
    files = [path for path in FILES[1:] if path.name.split(".")[0] == code]
    assert files, code
    matched: list[tuple[str, str, str, str]] = []
    never_closed: list[str] = []
    for path in files:
        closed = 0
        for message in snapshot.messages(path)[::8]:
            codes, lead, normal = languages.detect(interruptions._normalise(message))
            if not codes:
                continue
            split, fillers = languages.clause_patterns(
                codes[:lead], interruptions._SPLIT, interruptions._FILLER_WORDS
            )
            texts = [normal, *interruptions._clauses_of(normal, codes[:lead])]
            for part in (
                p for s in interruptions._SENTENCE_SPLIT.split(normal) for p in split.split(s)
            ):
                clause = interruptions._EDGE_PUNCT.sub("", part)
                if not fillers.may_match(clause) and fillers.compiled().search(clause):
                    matched.append((path.name, message, clause, "(fillers)"))
            for pattern in _patterns(codes):
                gate = gates.cached(pattern)
                flags = interruptions._compile(pattern).flags
                for text in texts:
                    if not gate.may_match(text):
                        closed += 1
                        if re.search(pattern, text, flags):
                            matched.append((path.name, message, text, pattern[:60]))
        if closed == 0:
            never_closed.append(path.name)
    assert matched == [], "a closed gate's pattern matched:\n" + "\n".join(map(repr, matched))
    assert never_closed == [], f"no gate closed on these files: {never_closed}"  # the gates do


def test_words_hold_on_the_forms_that_could_fool_them() -> None:
    cases = {
        r"colou?r": ["color", "colour"],
        r"^(?:ok |bitte )?(?:weiter|fortfahren)\b": ["weiter", "ok fortfahren", "bitte weiter so"],
        r"\b(?:nicht|nie) (?:[\w'-]+ ){0,2}?weiter": ["nie mehr weiter", "nicht weiter"],
        r"(?<!x)ab(?=c)|d{2,}e": ["abc", "dde", "ddde"],
        r"Status\W": ["ſtatus!", "status!"],  # a capital: case-insensitive, "ſ" matches "s"
        r"^(?:a|b)c|xyz": ["ac", "bc", "-xyz"],
    }
    for pattern, texts in cases.items():
        flags = interruptions._compile(pattern).flags
        gate = gates.Gated(pattern, flags, needles.gate(pattern))
        for text in texts:
            assert re.search(pattern, text, flags), (pattern, text)
            assert gate.search(text), (pattern, text)
        assert not gate.may_match("nothing here") or not re.search(pattern, "nothing here")
    assert needles.gate(r"\w+") is None and needles.gate(r"(?:go)?") is None
    assert needles.gate(r"^(?:wart|moment)\b") == (("moment", "wart"), ())
    # "S" and "s" are not words of a case-insensitive pattern: "ſ" matches them too
    assert needles.gate(r"Status\W") == ((), ("tatu",))


COUNT = (
    "import re, sys; sys.path.insert(0, sys.argv[1]); seen = []; compile = re.compile\n"
    "def counting(pattern, flags=0):\n"
    "    seen.append(pattern); return compile(pattern, flags)\n"
    "re.compile = counting\n"
    "from taskproto.classify.interruptions import classify\n"
    "before = len(seen); found = classify(sys.argv[2])\n"
    "print(found.type, found.rule, len(seen) - before)"
)


@pytest.mark.parametrize(
    ("message", "rule", "most"),
    [
        ("weiter machen bitte", "de-resumption", 8),
        ("vas-y, continue", "fr-resumption", 8),
        ("sigue con el parser", "es-resumption", 8),
        ("pode continuar", "pt-resumption", 8),
        ("Schon alles grün bei den Checks?", "de-model", 10),
        ("继续", "zh-resumption", 8),
    ],
)
def test_a_first_message_compiles_few_patterns(message: str, rule: str, most: int) -> None:
    """A fresh process, as a hook: the first message compiles the patterns whose words it holds,
    not every rule before the one that reads it (26 to 53 before the gates)."""
    out = subprocess.run(
        [sys.executable, "-I", "-c", COUNT, str(ROOT), message],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert out[:2] == ["RESUMPTION" if "model" not in rule else "STATUS_REQUEST", rule]
    assert int(out[2]) <= most, out


def test_a_users_own_rule_is_never_skipped_by_the_words_of_a_default() -> None:
    """A user's rule, or a default replaced by one (same name, another pattern), has no words in
    the table (it is keyed by the pattern's text): it is compiled and run whenever it is reached,
    in a German message too."""
    rules = interruptions.merge_rules(
        interruptions.DEFAULT_RULES,
        [
            {"name": "question-mark", "pattern": r"^zzq\b"},
            {"name": "schiff-go", "type": "AUDIT", "pattern": r"^schiff (?:es|das) bitte\b"},
        ],
    )
    assert gates.words(r"^zzq\b") is None
    assert interruptions.classify("schiff es bitte, danke", rules).rule == "schiff-go"
    assert interruptions.classify("zzq, aber bitte nicht heute", rules).rule == "question-mark"

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

# One test a corpus file: each takes a fraction of a second (the 130 files hold ~27,000 messages).
FILES = [path.name for path in snapshot.corpora()]


def _path(name: str) -> Path:
    return next(path for path in snapshot.corpora() if path.name == name)


@pytest.mark.parametrize("name", FILES)
def test_every_corpus_decision_is_as_the_code_before_made_it(name: str) -> None:
    """Type and rule of every message of the corpus file, against the snapshot the code before
    the gates made (scripts/snapshot_interruptions.py). Skipped, saying why, once the rules, the
    model or the file have changed since (the gates are still checked below)."""
    recorded = json.loads(snapshot.SNAPSHOT.read_text(encoding="utf-8"))
    if recorded["inputs"] != snapshot.inputs_hash():
        pytest.skip("the rules or the model changed since the snapshot: run the script again")
    path = _path(name)
    entry = recorded["files"].get(name)
    if entry is None or entry["sha"] != snapshot.file_hash(path):
        pytest.skip(f"{name} was written or changed since the snapshot")
    was = snapshot.decode(entry["decisions"], recorded["vocab"])
    now = snapshot.decisions(path)
    messages = snapshot.messages(path)
    changed = [(m, w, n) for m, w, n in zip(messages, was, now, strict=True) if w != n]
    assert changed == []


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


@pytest.mark.parametrize("name", FILES[1:])
def test_no_gate_closes_on_a_clause_its_pattern_matches(name: str) -> None:
    """Every eighth message of the corpus file: each clause (and the whole text), against every
    pattern of its tables, the English rules and the searched fields, and the filler pattern:
    where the words are missing, the pattern does not match either. (They are derived so that
    it cannot; this holds on a changed table as well as on the recorded one.)"""
    closed = 0
    for message in snapshot.messages(_path(name))[::8]:
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
            if not fillers.may_match(clause):
                assert not fillers.compiled().search(clause), (message, clause)
        for pattern in _patterns(codes):
            gate = gates.cached(pattern)
            for text in texts:
                if not gate.may_match(text):
                    closed += 1
                    assert not re.search(pattern, text, interruptions._compile(pattern).flags), (
                        message,
                        text,
                        pattern[:60],
                    )
    assert closed > 0  # the gates do close


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

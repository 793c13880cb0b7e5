from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taskproto.classify.interruptions import (
    DEFAULT_RULES,
    INTERRUPTION_TYPES,
    Classification,
    Rule,
    classify,
    is_approval_like,
    merge_rules,
    seed_classify,
)

CORPUS = Path(__file__).parent / "data" / "interruptions.tsv"
MIN_ACCURACY = 0.95


def load_corpus() -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    for number, line in enumerate(CORPUS.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        label, sep, message = line.partition("\t")
        assert sep and label in INTERRUPTION_TYPES, f"{CORPUS.name}:{number}: bad row {line!r}"
        rows.append((label, message))
    return rows


# --- the seed protocol's examples and the hard cases


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # seed: "Multi-Interruption Scenarios"
        ("What architecture pattern are you using?", "QUESTION"),
        ("/audit-session", "AUDIT"),
        ("Can you explain why you chose that pattern?", "QUESTION"),
        ("Continue working", "RESUMPTION"),
        ("Where are we in the process?", "STATUS_REQUEST"),
        ("Run audit to verify everything is correct", "AUDIT"),
        ("Proceed with review", "RESUMPTION"),
        # seed: "Resumption Triggers"
        ("continue", "RESUMPTION"),
        ("resume work", "RESUMPTION"),
        ("proceed", "RESUMPTION"),
        ("keep going", "RESUMPTION"),
        ("continue with the task", "RESUMPTION"),
        # the hard cases
        ("Why did you stop? Keep going.", "RESUMPTION"),
        ("Don't continue yet — how does the rollback work?", "QUESTION"),
        ("Please don't continue yet.", "OTHER"),
        ("Continue.", "RESUMPTION"),
        ("Continue, but first: how does X work?", "QUESTION"),
        ("do not proceed", "OTHER"),
        ("not yet", "OTHER"),
        ("Wait before you proceed.", "OTHER"),
        ("hold on", "OTHER"),
        ("Keep going. Actually no, stop.", "OTHER"),
        ("Don't stop, keep going.", "RESUMPTION"),
        ("go ahead", "RESUMPTION"),
        ("carry on", "RESUMPTION"),
        ("lgtm, proceed", "RESUMPTION"),
        ("ok back to work", "RESUMPTION"),
        ("go on", "RESUMPTION"),
        ("yes continue", "RESUMPTION"),
        ("next", "RESUMPTION"),
        ("let's keep going", "RESUMPTION"),
        ("you can continue now", "RESUMPTION"),
        ("ship it", "RESUMPTION"),
        ("/audit", "AUDIT"),
        ("/status", "STATUS_REQUEST"),
        ("/continue", "RESUMPTION"),
        ("/resume", "RESUMPTION"),
        ("contine", "RESUMPTION"),
        ("continoue", "RESUMPTION"),
        ("procede", "RESUMPTION"),
        ("proceeed", "RESUMPTION"),
        ("resme", "RESUMPTION"),
        ("keep goign", "RESUMPTION"),
        ("stauts?", "STATUS_REQUEST"),
        ("what's the status", "STATUS_REQUEST"),
        ("progress?", "STATUS_REQUEST"),
        ("how far along are you?", "STATUS_REQUEST"),
        ("eta?", "STATUS_REQUEST"),
        ("what have you done so far", "STATUS_REQUEST"),
        ("run an audit", "AUDIT"),
        ("audit the session", "AUDIT"),
        ("verify everything is correct", "AUDIT"),
        ("check the lock state", "AUDIT"),
        ("the tests look flaky", "OTHER"),
        ("I prefer tabs", "OTHER"),
        ("nice work", "OTHER"),
        ("the status bar is broken", "OTHER"),
        ("How does the audit work?", "QUESTION"),
        ("What does /audit-session check?", "QUESTION"),
        ("Why don't you continue?", "RESUMPTION"),
        ("The `continue` in the loop is a bug, remove it.", "OTHER"),
    ],
)
def test_classify_examples(message: str, expected: str) -> None:
    assert classify(message).type == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("continue working", "RESUMPTION"),
        ("Continue.", "OTHER"),  # case-sensitive: the seed misses a capital C
        ("Please don't continue yet.", "RESUMPTION"),  # no negation handling
        ("How does the audit work?", "AUDIT"),  # first match wins
        ("Where are we?", "OTHER"),  # "Where" is capitalised
        ("where are we", "STATUS_REQUEST"),
        ("the status bar is broken", "STATUS_REQUEST"),
        ("keep\ngoing", "RESUMPTION"),  # POSIX `.` matches a newline
    ],
)
def test_seed_classify_is_the_bash_baseline(message: str, expected: str) -> None:
    assert seed_classify(message) == expected


def test_classification_to_dict() -> None:
    result = classify("continue")
    assert result == Classification("RESUMPTION", "resume-verb", 0.9)
    assert result.to_dict() == {"type": "RESUMPTION", "rule": "resume-verb", "confidence": 0.9}


def test_confidence_is_lower_for_fallback_and_mixed_messages() -> None:
    clean = classify("keep going")
    mixed = classify("Why did you stop? Keep going.")
    fallback = classify("I prefer tabs")
    assert fallback.rule == "fallback"
    assert fallback.confidence < mixed.confidence < clean.confidence <= 1.0


def test_default_rules_are_well_formed() -> None:
    names = [rule.name for rule in DEFAULT_RULES]
    assert len(names) == len(set(names))
    for rule in DEFAULT_RULES:
        assert rule.type in INTERRUPTION_TYPES
        assert 0.0 < rule.confidence <= 1.0
        re.compile(rule.pattern)


# --- the corpus


def accuracy_by_class(
    rows: list[tuple[str, str]], predict: object
) -> tuple[dict[str, float], float]:
    assert callable(predict)
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for label, message in rows:
        total[label] += 1
        right[label] += predict(message) == label
    per_class = {label: right[label] / total[label] for label in INTERRUPTION_TYPES}
    return per_class, sum(right.values()) / len(rows)


def test_corpus_accuracy(capsys: pytest.CaptureFixture[str]) -> None:
    rows = load_corpus()
    assert len(rows) >= 220
    counts = Counter(label for label, _ in rows)
    ours, ours_all = accuracy_by_class(rows, lambda m: classify(m).type)
    seed, seed_all = accuracy_by_class(rows, seed_classify)
    misses = [(label, classify(m).type, m) for label, m in rows if classify(m).type != label]
    with capsys.disabled():
        print(f"\n\ninterruption corpus: {len(rows)} messages ({CORPUS.name})")
        print(f"| {'class':<15} | {'n':>4} | {'ours':>7} | {'seed':>7} |")
        print(f"|{'-' * 17}|{'-' * 6}|{'-' * 9}|{'-' * 9}|")
        for label in INTERRUPTION_TYPES:
            print(
                f"| {label:<15} | {counts[label]:>4} | {ours[label]:>7.1%} | {seed[label]:>7.1%} |"
            )
        print(f"| {'overall':<15} | {len(rows):>4} | {ours_all:>7.1%} | {seed_all:>7.1%} |")
        for label, got, message in misses:
            print(f"  miss: expected {label}, got {got}: {message!r}")
    assert ours_all >= MIN_ACCURACY
    assert ours_all > seed_all


# --- merge_rules


def test_merge_rules_overrides_in_place_adds_first_and_disables() -> None:
    merged = merge_rules(
        DEFAULT_RULES,
        [
            {"name": "resume-verb", "confidence": 0.5},
            {"name": "deploy-go", "type": "RESUMPTION", "pattern": r"^deploy it$"},
            {"name": "hold", "disabled": True},
        ],
    )
    names = [rule.name for rule in merged]
    assert names[0] == "deploy-go"
    assert "hold" not in names
    default_names = [r.name for r in DEFAULT_RULES if r.name != "hold"]
    assert names[1:] == default_names
    resume = next(rule for rule in merged if rule.name == "resume-verb")
    original = next(rule for rule in DEFAULT_RULES if rule.name == "resume-verb")
    assert resume == Rule("resume-verb", "RESUMPTION", original.pattern, 0.5)
    assert classify("Deploy it", merged) == Classification("RESUMPTION", "deploy-go", 0.8)
    assert classify("Deploy it").type == "OTHER"
    assert classify("continue", merged).confidence == 0.5


def test_user_rule_beats_defaults() -> None:
    # This team uses "continue?" to ask whether the agent *should* go on.
    merged = merge_rules(
        DEFAULT_RULES,
        [{"name": "ask-continue", "type": "QUESTION", "pattern": r"^continue\?$", "confidence": 1}],
    )
    assert classify("continue?").type == "RESUMPTION"
    assert classify("continue?", merged) == Classification("QUESTION", "ask-continue", 1.0)


def test_merge_rules_does_not_touch_defaults() -> None:
    before = DEFAULT_RULES
    merge_rules(DEFAULT_RULES, [{"name": "hold", "disabled": True}])
    assert DEFAULT_RULES == before
    assert classify("hold on").rule == "hold"


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"type": "AUDIT", "pattern": "x"}, r"interrupt rule #1: missing or empty key 'name'"),
        ({"name": "x", "pattern": "x"}, r"interrupt rule 'x': missing key 'type'"),
        ({"name": "x", "type": "AUDIT"}, r"interrupt rule 'x': missing key 'pattern'"),
        (
            {"name": "x", "type": "NAP", "pattern": "x"},
            r"interrupt rule 'x': unknown type 'NAP'",
        ),
        ({"name": "x", "type": "AUDIT", "pattern": "(unclosed"}, r"interrupt rule 'x': bad regex"),
        ({"name": "x", "type": "AUDIT", "pattern": ""}, r"'pattern' must be a non-empty string"),
        (
            {"name": "x", "type": "AUDIT", "pattern": "x", "confidence": 2},
            r"interrupt rule 'x': 'confidence' must be between 0 and 1",
        ),
        (
            {"name": "x", "type": "AUDIT", "pattern": "x", "confidence": "high"},
            r"'confidence' must be a number",
        ),
        (
            {"name": "x", "type": "AUDIT", "patern": "x"},
            r"interrupt rule 'x': unknown key\(s\) patern",
        ),
        ({"name": "nope", "disabled": True}, r"interrupt rule 'nope': cannot disable"),
        ({"name": "hold", "disabled": "yes"}, r"'disabled' must be true or false"),
        ({"name": "hold", "pattern": "(?<=a+)b"}, r"interrupt rule 'hold': bad regex"),
    ],
)
def test_merge_rules_rejects_bad_rules(entry: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message) as caught:
        merge_rules(DEFAULT_RULES, [entry])
    assert "\n" not in str(caught.value)


# --- robustness


@settings(deadline=None)  # the first text in a language loads its table: timing is benchmarked
@given(st.text())
def test_any_text_gets_one_of_the_five_types(text: str) -> None:
    result = classify(text)
    assert result.type in INTERRUPTION_TYPES
    assert 0.0 <= result.confidence <= 1.0
    assert isinstance(is_approval_like(text), bool)


@given(
    st.lists(
        st.sampled_from(
            [
                "continue",
                "don't",
                "why",
                "?",
                ",",
                " - ",
                "status",
                "audit",
                "\n",
                "keep",
                "going",
                "wait",
                "before",
                "lgtm",
                ".",
            ]
        ),
        max_size=60,
    )
)
def test_keyword_soup_never_raises(words: list[str]) -> None:
    assert classify(" ".join(words)).type in INTERRUPTION_TYPES


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   \t\n  ",
        "\udcff",
        "continue \udcff",
        "\x00\x01\x02\x1b[31mcontinue\x7f",
        "a" * 1_000_000,
        "continue " * 120_000,
        "don't " * 200_000 + "continue",
        "where are we " * 80_000,
        "?" * 500_000,
        ", " * 500_000,
        "-" * 500_000,
        "\n" * 500_000,
    ],
)
def test_malformed_and_huge_inputs_are_answered(text: str) -> None:
    assert classify(text).type in INTERRUPTION_TYPES
    assert isinstance(is_approval_like(text), bool)


def test_huge_message_is_decided_by_its_end() -> None:
    assert classify("blah " * 200_000 + "\nkeep going").type == "RESUMPTION"


# --- checkpoint approvals


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("looks good, proceed with implementation", True),
        ("approved", True),
        ("Approved.", True),
        ("lgtm", True),
        ("LGTM!", True),
        ("ship it", True),
        ("yes, approve the plan", True),
        ("Looks good to me.", True),
        ("plan looks good, go ahead", True),
        ("not approved yet", False),
        ("don't approve", False),
        ("Don't ship it yet.", False),
        ("approved?", False),
        ("should I approve the plan?", False),
        ("looks good", False),
        ("continue", False),
        ("lgtm, but wait for CI before you continue", False),
        ("", False),
    ],
)
def test_is_approval_like(message: str, expected: bool) -> None:
    assert is_approval_like(message) is expected


# --- the hook budget


def test_import_pulls_in_nothing_heavy() -> None:
    code = (
        "import sys; import taskproto.classify.interruptions as c; c.classify('continue'); "
        "print(sorted(m for m in sys.modules if m.startswith(('pydantic', 'taskproto'))))"
    )
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    assert (
        out.stdout.strip()
        == "['taskproto', 'taskproto.classify', 'taskproto.classify.interruption_rules', "
        "'taskproto.classify.interruptions', 'taskproto.classify.languages']"
    )

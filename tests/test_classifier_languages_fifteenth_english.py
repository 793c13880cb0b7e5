"""Issue #45's fifteenth round, English (docs/interruptions.md, "Fifteenth round: English holds
a go by when, on what, or taken back"): an English go that names a later time, waits for an
event or someone else, or is taken back is a hold, by form, through the same fields and code as
the other languages' tables (``languages/en.py``: ``later``, ``conditions``, ``retractions``).
New messages, none a corpus row; the variants that must stay what they are (a go on the agent's
own step, a deadline, a later time of something else, a question, a negated go) beside each."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from taskproto.classify.interruptions import DEFAULT_RULES, classify, merge_rules
from tests.classify_reads import reads as _check


# 1. A go after waiting for an event or for someone: "wait until X" is one clause now, and it
# holds the go beside it.
@pytest.mark.parametrize(
    "message",
    [
        "Wait until the deploy finishes, then carry on.",
        "wait till Priya merges her branch, then go ahead",
        "Hold on until the staging run is done and then proceed.",
        "hang on for the security review, then keep going",
        "wait for QA to sign off and then resume",
        "Wait until I've pushed the fix, then continue with the migration.",
        "hold off until the freeze lifts, then move on",
        "sit tight until the nightly build is back, then carry on",
        "ok so wait for me then continue",
        "WAIT UNTIL THE BENCHMARKS ARE IN, THEN PROCEED",
    ],
)
def test_a_go_after_waiting_for_an_event_is_held(message: str) -> None:
    _check(message, "OTHER", "en-later")


# ... but a pause taken back by the go, or a bare "wait" before it, is still a go
@pytest.mark.parametrize(
    "message",
    [
        "wait a sec, then continue",
        "hold on a moment, then go ahead",
        "Wait, no, it's fine. Keep going.",
        "hang on, ok, carry on",
        "wait — keep going, I misread the diff",
    ],
)
def test_a_pause_before_the_go_is_still_a_go(message: str) -> None:
    assert classify(message).type == "RESUMPTION"


# ... and a wait that is itself held or negated stays what it was
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Wait until the review is done before you carry on.", "negated-resumption"),
        ("don't proceed until Marta has approved it", "negated-resumption"),
        ("wait until the CI is green", "hold"),
        ("hold on until I've looked at the logs", "hold"),
    ],
)
def test_a_wait_with_no_go_after_it_is_unchanged(message: str, rule: str) -> None:
    _check(message, "OTHER", rule)


# 2. A go on a condition on an event or on someone else's act.
@pytest.mark.parametrize(
    "message",
    [
        "continue when the staging deploy is green",
        "proceed once Marco approves the schema",
        "keep going as soon as the lock is released",
        "go ahead after I've had a look",
        "once the PR is merged, carry on with the docs",
        "When the build is green, resume.",
        "After the standup, go ahead with the refactor.",
        "continue only if the reviewers agree",
        "Resume the import whenever the vendor sends the new file.",
        "carry on, once legal has signed off",
        "you can continue after we've talked",
    ],
)
def test_a_go_on_someone_elses_condition_is_held(message: str) -> None:
    _check(message, "OTHER", "en-later")


# ... but a condition that is the agent's own, or leaves the timing to the agent, is a go
@pytest.mark.parametrize(
    "message",
    [
        "once you've fixed the flaky test, continue with the docs",
        "when you're done with the parser, move on to the lexer",
        "After you regenerate the fixtures, keep going.",
        "continue as soon as possible",
        "carry on whenever you're ready",
        "carry on, and let me know when the build passes",
        "carry on and ping me once it's merged",
        "after that, continue with the tests",
        "continue at once",
        "resume from when the tests broke",
        "go ahead, after all it's your call",
        "continue when it makes sense",
    ],
)
def test_a_go_on_the_agents_own_condition_is_still_a_go(message: str) -> None:
    assert classify(message).type == "RESUMPTION"


# 3. A go at a later time: a later word, any weekday, a clock time, a span.
@pytest.mark.parametrize(
    "message",
    [
        "pick up where you left off tomorrow morning",
        "continue on Thursday",
        "let's resume next week",
        "keep going in an hour",
        "carry on at 3pm",
        "go ahead this afternoon",
        "we can continue later",
        "resume tonight",
        "Tomorrow, continue with the export.",
        "proceed in 20 minutes",
        "Continue at noon.",
    ],
)
def test_a_go_at_a_later_time_is_held(message: str) -> None:
    _check(message, "OTHER", "en-later")


# ... but a deadline, a later time of something else, or a time word inside a noun is a go
@pytest.mark.parametrize(
    "message",
    [
        "keep going until Friday",
        "keep working through the weekend",
        "continue, I'll review it tomorrow",
        "carry on with tomorrow's tickets",
        "continue with the later steps",
        "continue now, the demo is on Monday",
        "resume the migration now",
        "keep going, we ship at 5",
        "continue from step 3 at 10x speed",
        "continue what you were doing last Friday",
    ],
)
def test_a_deadline_or_someone_elses_time_is_still_a_go(message: str) -> None:
    assert classify(message).type == "RESUMPTION"


# 4. A go taken back after it.
@pytest.mark.parametrize(
    "message",
    [
        "continue. actually, no.",
        "go ahead... never mind.",
        "keep going. scratch that.",
        "proceed — on second thought, don't.",
        "resume. forget it.",
        "ok carry on. i take that back.",
        "Continue! Hmm, better not.",
        "go on. nvm",
    ],
)
def test_a_go_taken_back_is_held(message: str) -> None:
    _check(message, "OTHER", "en-later")


# ... but "never mind" or "cancel that" said of a thing, or a go after the retraction, is a go
@pytest.mark.parametrize(
    "message",
    [
        "never mind the lint warnings, continue",
        "continue, and never mind the flaky test",
        "Actually, no need to ask, keep going",
        "continue. cancel that job in CI though",
        "scratch that, go ahead",
        "continue. actually no. yes, continue.",
    ],
)
def test_a_retraction_of_something_else_is_still_a_go(message: str) -> None:
    assert classify(message).type == "RESUMPTION"


# 5. Questions and negated gos with the same words stay what they were.
@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("should I continue after the migration?", "QUESTION"),
        ("when will you continue?", "QUESTION"),
        ("don't continue until tomorrow", "OTHER"),
        ("never resume after lunch without asking", "OTHER"),
        ("what's left once the parser is done?", "STATUS_REQUEST"),
    ],
)
def test_questions_and_negated_gos_with_a_time_are_unchanged(message: str, kind: str) -> None:
    assert classify(message).type == kind


# The issue's own examples (issue #45, fifteenth round's brief): holds, and gos that stay gos.
@pytest.mark.parametrize(
    "message",
    [
        "wait until the CI is green, then continue",
        "wait until I merge the PR, then continue",
        "hold on until tomorrow and then carry on",
        "continue after I review it",
        "continue when the build passes",
        "wait for my review then proceed",
        "go ahead after the migration lands",
        "once CI is green, continue",
        "after lunch, go ahead",
        "carry on tomorrow",
        "resume on Monday",
        "continue once Anna signs off",
        "continue — actually no, hold on",
        "go on... scratch that, wait",
    ],
)
def test_the_issues_holds(message: str) -> None:
    assert classify(message).type == "OTHER"


@pytest.mark.parametrize(
    "message",
    [
        "continue, the CI is green now",
        "CI is green, go ahead",
        "wait, actually — continue.",
        "after you fix the lint, continue with the tests",
        "go ahead and continue when you're ready",
        "continue until the tests pass",
        "keep going until it's done",
        "resume the migration now",
        "Don't stop until the suite is green",
    ],
)
def test_the_issues_gos(message: str) -> None:
    assert classify(message).type == "RESUMPTION"


def test_a_users_own_go_rule_is_never_held() -> None:
    rules = merge_rules(
        DEFAULT_RULES, [{"name": "go-tomorrow", "type": "RESUMPTION", "pattern": r"^ship it"}]
    )
    found = classify("ship it tomorrow", rules)
    assert (found.type, found.rule) == ("RESUMPTION", "go-tomorrow")


def _modules_after(message: str) -> set[str]:
    code = (
        "import sys; import taskproto.classify.interruptions as c; c.classify(sys.argv[1]); "
        "print(' '.join(m for m in sys.modules if m.startswith('taskproto')))"
    )
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run(
        [sys.executable, "-c", code, message], cwd=root, capture_output=True, text=True, check=True
    )
    return set(out.stdout.split())


def test_only_an_english_go_with_words_beside_it_imports_englishs_table() -> None:
    """The hot path: a bare go or a message that is no go imports no table (nothing can hold
    it); a go with words beside it imports English's, its fields and their gates."""
    for message in ("continue", "ok, keep going.", "nice work", "what's the status?"):
        assert not {m for m in _modules_after(message) if ".languages." in m}, message
    found = _modules_after("carry on tomorrow")
    assert "taskproto.classify.languages.en" in found
    assert not {"taskproto.classify.languages.de", "taskproto.classify.languages.model"} & found

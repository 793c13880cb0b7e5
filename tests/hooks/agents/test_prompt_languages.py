"""A paused task is resumed by "go on" in the user's own language, through the installed hook
script (hook.sh, then Python), and a hold in that language keeps it paused (issue #45)."""

from __future__ import annotations

import json

import pytest

from .conftest import move_to
from .fastpath import NOBODY, OWNER, Fast


def prompt(fast: Fast, text: str, ascii_json: bool) -> str:
    """Send `text` as the owner's UserPromptSubmit; the context the agent is given."""
    worktree = fast.engine.config.task_worktree("t1")
    data = {
        "session_id": OWNER,
        "transcript_path": str(fast.base / "transcript.jsonl"),
        "cwd": str(worktree),
        "hook_event_name": "UserPromptSubmit",
        "prompt": text,
    }
    # Claude Code writes UTF-8 as it is; a client may escape it (\u7d9a): both must arrive.
    raw = json.dumps(data, ensure_ascii=ascii_json).encode()
    run = fast.run("claude", "UserPromptSubmit", raw)
    code, out, err = run.answer
    assert code == 0, err
    assert run.started and run.stdin == raw, "an owner's prompt goes to Python as it came"
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert isinstance(context, str)
    return context


@pytest.mark.parametrize(
    ("question", "hold", "go"),
    [
        ("Wie funktioniert der Rollback?", "warte noch", "weiter machen bitte"),
        ("ロールバックはどう動くの？", "待って", "続けて"),
    ],
    ids=["de", "ja"],
)
def test_a_paused_task_resumes_on_go_on_in_the_users_language_and_not_on_a_hold(
    fast: Fast, question: str, hold: str, go: str
) -> None:
    move_to(fast.engine, "t1", "IMPLEMENTATION")

    context = prompt(fast, question, ascii_json=False)
    assert "interruption (QUESTION)" in context and "stays IMPLEMENTATION" in context
    paused = fast.engine.load("t1").paused_by()
    assert paused is not None and paused.type == "QUESTION"

    context = prompt(fast, hold, ascii_json=True)
    assert "interruption (OTHER)" in context and "RESUMING" not in context
    task = fast.engine.load("t1")
    assert task.paused_by() is not None, "a hold does not resume"
    assert (task.interruptions[-1].type, task.interruptions[-1].text) == ("OTHER", hold)

    context = prompt(fast, go, ascii_json=False)
    assert "RESUMING TASK: t1 (state IMPLEMENTATION" in context
    task = fast.engine.load("t1")
    assert task.paused_by() is None and task.state == "IMPLEMENTATION"
    assert (task.interruptions[-1].type, task.interruptions[-1].text) == ("RESUMPTION", go)
    assert task.interruptions[-1].rule.startswith(("de-", "ja-"))


@pytest.mark.parametrize("text", ["weiter machen bitte", "続けて", "继续", "¿cómo vamos?"])
@pytest.mark.parametrize("ascii_json", [False, True], ids=["utf-8", "escaped"])
def test_a_prompt_of_a_session_that_owns_nothing_stays_in_sh_in_any_language(
    fast: Fast, text: str, ascii_json: bool
) -> None:
    data = {
        "session_id": NOBODY,
        "transcript_path": str(fast.base / "transcript.jsonl"),
        "cwd": str(fast.engine.config.repo),
        "hook_event_name": "UserPromptSubmit",
        "prompt": text,
    }
    raw = json.dumps(data, ensure_ascii=ascii_json).encode()
    fast.run("claude", "UserPromptSubmit", raw)  # the first turn may go to Python (its stamp)
    run = fast.both("claude", "UserPromptSubmit", raw, NOBODY)
    assert run.answer == (0, "", "") and not run.started

"""A tool call taskproto's own hook denied never runs, so it is no tool call still running when
the user's next prompt comes: the user who presses Esc after their paused agent's edit was
denied, then says to go on, resumes the task. Found walking a user's day (a German "Mach
weiter." after a denied Write was dropped as "a tool call (Write) is still running"). A tool
call the hook let through still counts as running until it ends (test_pause_forgery.py)."""

from __future__ import annotations

from taskproto.engine import Engine
from tests.enforcement.test_pause_forgery import SESSION, paused_task, prompt
from tests.hooks.agents.conftest import Hook, payload


def test_a_go_after_a_denied_edit_resumes(engine: Engine, hook: Hook) -> None:
    wt = paused_task(engine)
    write = payload(
        "claude",
        "PreToolUse",
        session_id=SESSION,
        cwd=str(wt),
        tool_name="Write",
        tool_input={"file_path": str(wt / "login.py"), "content": "x"},
    )
    code, _, err = hook("claude", "PreToolUse", write)
    assert code == 2 and "waits for the user" in err, err  # denied: the Write never runs
    # no Stop: the user pressed Esc, and Claude Code runs no Stop hook after it
    code, _, err = hook("claude", "UserPromptSubmit", prompt("Ok, verstanden. Mach weiter.", wt))
    assert code == 0 and "not taken" not in err, err
    assert engine.load("t1").paused_by() is None


def test_a_go_while_an_allowed_tool_call_runs_is_still_dropped(engine: Engine, hook: Hook) -> None:
    wt = paused_task(engine)
    read = payload("claude", "PreToolUse", variant="Bash", session_id=SESSION, cwd=str(wt),
                   tool_input={"command": "git status"})  # fmt: skip
    code, _, err = hook("claude", "PreToolUse", read)
    assert code == 0, err  # allowed while paused: it runs
    code, _, err = hook("claude", "UserPromptSubmit", prompt("Mach weiter.", wt))
    assert "is not taken as the user's" in err, err
    assert engine.load("t1").paused_by() is not None


def test_a_denied_call_beside_one_still_running_does_not_end_it(engine: Engine, hook: Hook) -> None:
    """Parallel tool calls: the one let through may still run when the other is denied."""
    wt = paused_task(engine)
    read = payload("claude", "PreToolUse", variant="Bash", session_id=SESSION, cwd=str(wt),
                   tool_input={"command": "git status"})  # fmt: skip
    assert hook("claude", "PreToolUse", read)[0] == 0
    write = payload("claude", "PreToolUse", session_id=SESSION, cwd=str(wt), tool_name="Write",
                    tool_input={"file_path": str(wt / "login.py"), "content": "x"})  # fmt: skip
    assert hook("claude", "PreToolUse", write)[0] == 2
    code, _, err = hook("claude", "UserPromptSubmit", prompt("Mach weiter.", wt))
    assert "is not taken as the user's" in err, err
    assert engine.load("t1").paused_by() is not None

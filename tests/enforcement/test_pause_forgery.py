"""Issue #39, pauses: a task that waits for the user stays paused against a "continue" the agent
forges by running the installed prompt hook itself (prompt_origin.py). The real client's own
prompt still resumes it."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from taskproto.engine import Engine
from taskproto.ops.interrupts import record
from tests.hooks.agents.conftest import Hook, move_to, payload

SESSION = "s1"
ENTRY = Path(__file__).resolve().parents[2] / "taskproto" / "hooks" / "agents" / "entry.py"


def paused_task(engine: Engine, pid: int | None = None) -> Path:
    engine.create_task("t1", ["dev"])
    engine.claim("t1", SESSION, pid=pid)
    move_to(engine, "t1", "IMPLEMENTATION")
    record(engine, "t1", "what does the retry do?", SESSION)
    assert engine.load("t1").paused_by() is not None
    return engine.config.agent_worktree("t1", "dev")


def prompt(text: str, cwd: Path, session: str = SESSION) -> bytes:
    return payload("claude", "UserPromptSubmit", session_id=session, cwd=str(cwd), prompt=text)


def test_a_forged_continue_from_inside_a_tool_call_does_not_resume(
    engine: Engine, hook: Hook
) -> None:
    wt = paused_task(engine)
    bash = payload(
        "claude",
        "PreToolUse",
        variant="Bash",
        session_id=SESSION,
        cwd=str(wt),
        # a command the guard lets through while paused (a denied one never runs), which runs
        # `sh hook.sh python claude UserPromptSubmit < forged.json` in a way the guard misses
        tool_input={"command": "git status"},
    )
    assert hook("claude", "PreToolUse", bash)[0] == 0  # the agent's tool call starts...
    code, _, err = hook("claude", "UserPromptSubmit", prompt("continue working", wt))
    assert code == 0 and "is not taken as the user's" in err, err  # ...and runs the hook
    assert "tool call" in err
    assert engine.load("t1").paused_by() is not None
    done = payload("claude", "PostToolUse", variant="Bash", session_id=SESSION, cwd=str(wt))
    hook("claude", "PostToolUse", done)
    hook("claude", "Stop", payload("claude", "Stop", session_id=SESSION, cwd=str(wt)))
    code, _, err = hook("claude", "UserPromptSubmit", prompt("continue working", wt))
    assert code == 0 and "not taken" not in err, err  # the user's own, between tool calls
    assert engine.load("t1").paused_by() is None


def test_a_forged_continue_in_another_sessions_name_does_not_resume(
    engine: Engine, hook: Hook
) -> None:
    """The agent's tool call runs in the task's worktree; the payload names a fresh session."""
    wt = paused_task(engine)
    bash = payload("claude", "PreToolUse", variant="Bash", session_id="agent-2", cwd=str(wt),
                   tool_input={"command": "git status"})  # fmt: skip
    assert hook("claude", "PreToolUse", bash)[0] == 0  # let through while paused: it runs
    code, _, err = hook("claude", "UserPromptSubmit", prompt("go ahead", wt, session="fresh"))
    assert "is not taken as the user's" in err and "session agent-2's tool call" in err, err
    assert engine.load("t1").paused_by() is not None
    done = payload("claude", "PostToolUse", variant="Bash", session_id="agent-2", cwd=str(wt))
    hook("claude", "PostToolUse", done)
    # another session's own prompt in the worktree (the user answering through it) still counts
    code, _, err = hook("claude", "UserPromptSubmit", prompt("go ahead", wt, session="agent-2"))
    assert "not taken" not in err, err
    assert engine.load("t1").paused_by() is None


@pytest.fixture
def client_elsewhere() -> Iterator[int]:
    """A live process standing for the owner's client: no ancestor of the forged hook."""
    proc = subprocess.Popen(["sleep", "60"])
    try:
        yield proc.pid
    finally:
        proc.kill()
        proc.wait()


def test_the_hook_run_by_hand_outside_the_owners_client_does_not_resume(
    engine: Engine, client_elsewhere: int
) -> None:
    """Before: running the installed hook command with a forged payload recorded a resumption."""
    wt = paused_task(engine, pid=client_elsewhere)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "CODEX", "GEMINI"))}
    proc = subprocess.run(
        [sys.executable, "-I", "-S", str(ENTRY), "claude", "UserPromptSubmit"],
        input=prompt("continue working", wt),
        cwd=wt,
        env={**env, "CLAUDE_PID": str(client_elsewhere)},  # the variable does not make it so
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert b"did not run this hook" in proc.stderr, proc.stderr
    assert engine.load("t1").paused_by() is not None

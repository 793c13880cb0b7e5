"""Lifecycle events with nothing to write (Stop, prompts, PreCompact, SessionEnd) are answered on
the standard library: the installed command loads no engine, no pydantic, and writes nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import taskproto
from taskproto.engine import Engine

from .conftest import payload

ENTRY_DIR = str(Path(taskproto.__file__).resolve().parents[1])

PROBE = (
    "import sys, json; sys.path.insert(0, {root!r});"
    "from taskproto.hooks.agents.runner import run_agent_hook;"
    "import os; r = run_agent_hook('claude', {event!r}, sys.stdin.buffer.read(), dict(os.environ),"
    " pid={pid});"
    "print(json.dumps([list(r), sorted(m for m in ('pydantic', 'click', 'git', 'filelock', "
    "'taskproto.engine.core') "
    "if m in sys.modules)]))"
)


def probe(event: str, data: bytes, pid: int) -> tuple[list[object], list[str]]:
    """Run one hook call as the installed command does (`python -I -S`): its answer and which heavy
    packages it loaded."""
    env = {k: os.environ[k] for k in ("PATH", "HOME", "XDG_STATE_HOME") if k in os.environ}
    proc = subprocess.run(
        [
            sys.executable,
            "-I",
            "-S",
            "-c",
            PROBE.format(root=str(ENTRY_DIR), event=event, pid=pid),
        ],
        input=data,
        capture_output=True,
        env=env,
        check=True,
    )
    answer, loaded = json.loads(proc.stdout)
    return answer, loaded


@pytest.mark.parametrize("event", ["Stop", "UserPromptSubmit", "PreCompact", "SessionEnd"])
def test_a_session_that_owns_no_task_loads_no_engine(engine: Engine, task: str, event: str) -> None:
    engine.claim(task, "someone-else", os.getpid())
    before = engine.config.task_file(task).read_bytes()
    name = event if event != "PreCompact" else "Stop"  # same payload shape
    data = payload("claude", name, session_id="nobody", cwd=str(engine.config.repo))
    assert probe(event, data, os.getpid()) == ([0, "", ""], [])
    assert engine.config.task_file(task).read_bytes() == before


def test_stop_of_the_owner_writes_only_when_the_heartbeat_is_due(engine: Engine, task: str) -> None:
    cwd = str(engine.config.task_worktree(task))
    engine.claim(task, "me")  # no client pid recorded yet: the first Stop records it
    data = payload("claude", "Stop", session_id="me", cwd=cwd)
    answer, loaded = probe("Stop", data, os.getpid())
    assert answer == [0, "", ""] and "taskproto.engine.core" in loaded
    after = engine.load(task)
    assert after.owner is not None and after.owner.pid == os.getpid()
    # now the heartbeat is fresh and the pid known: the next Stop is answered without the engine
    revision = after.revision
    assert probe("Stop", data, os.getpid()) == ([0, "", ""], [])
    assert engine.load(task).revision == revision


def test_a_prompt_to_the_owner_is_still_recorded(engine: Engine, task: str) -> None:
    engine.claim(task, "me", os.getpid())
    cwd = str(engine.config.task_worktree(task))
    data = payload("claude", "UserPromptSubmit", session_id="me", cwd=cwd, prompt="why this way?")
    answer, loaded = probe("UserPromptSubmit", data, os.getpid())
    assert "taskproto.engine.core" in loaded and answer[1]  # the context message for the model
    assert engine.load(task).interruptions, "the interruption was recorded"
    # an empty prompt has nothing to record
    empty = payload("claude", "UserPromptSubmit", session_id="me", cwd=cwd, prompt="  ")
    assert probe("UserPromptSubmit", empty, os.getpid()) == ([0, "", ""], [])

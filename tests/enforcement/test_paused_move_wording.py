"""An agent's move of a task its user paused is refused in one line that reads as a sentence:
`task 't1': transition refused in INIT: the user interrupted ...`, not `move it refused` (seen
through the MCP server's transition while walking a user's day)."""

from __future__ import annotations

from pathlib import Path

from taskproto.engine import Engine
from taskproto.ops.interrupts import record
from tests.conftest import run_taskproto

OWN = "agent-own"
AGENT = {"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": OWN, "TASKPROTO_SESSION": OWN}


def test_an_agents_move_of_a_paused_task_says_transition(engine: Engine, repo: Path) -> None:
    engine.create_task("t1")
    engine.claim("t1", OWN)
    record(engine, "t1", "ちょっと待って、なぜテストを消したの？", OWN)
    result = run_taskproto("transition", "t1", "CLASSIFIED", cwd=repo, env=AGENT)
    assert result.code == 1
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    assert lines[0].startswith(
        "taskproto: task 't1': transition refused in INIT: the user interrupted with a QUESTION ("
    ), lines[0]
    assert engine.load("t1").state == "INIT"

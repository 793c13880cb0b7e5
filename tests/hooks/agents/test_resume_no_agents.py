"""The text an agent client gets at session start or resume for the task its session owns. A task
with no agents got the states' words about agents ("Check which agents are still incomplete and
resume their implementation rounds") where there are none to check; now a state says what a session
working alone does there (`resume_alone`), and a task with agents keeps the agents' words and the
line of those still incomplete. Each client's captured SessionStart payload, the real hook entry
point."""

from __future__ import annotations

from pathlib import Path

import pytest

from taskproto.engine import Engine
from tests.hooks.agents.conftest import Hook, move_to, payload

STATES = ["INIT", "CLASSIFIED", "REQUIREMENTS", "SYNTHESIS", "IMPLEMENTATION", "VALIDATION"]
STATES += ["REVIEW", "AWAITING_USER_APPROVAL"]


def _started(hook: Hook, client: str, cwd: Path) -> str:
    data = payload(client, "SessionStart", session_id="s1", source="resume", cwd=str(cwd))
    code, out, err = hook(client, "SessionStart", data)
    assert code == 0, err
    return out


@pytest.mark.parametrize("client", ["claude", "codex", "gemini"])
def test_a_task_with_no_agents_gets_no_line_about_agents(
    engine: Engine, hook: Hook, client: str
) -> None:
    engine.create_task("solo", description="fix the typo")
    engine.claim("solo", "s1")
    wt = engine.config.task_worktree("solo")
    for state in STATES:
        move_to(engine, "solo", state)
        out = _started(hook, client, wt)
        assert f"RESUMING TASK: solo (state {state}" in out, out
        assert "agent" not in out.lower(), (state, out)


def test_a_task_with_agents_keeps_the_agents_words(engine: Engine, hook: Hook) -> None:
    engine.create_task("team", ["dev"])
    engine.claim("team", "s1")
    move_to(engine, "team", "IMPLEMENTATION")
    out = _started(hook, "claude", engine.config.agent_worktree("team", "dev"))
    assert "Check which agents are still incomplete" in out, out
    assert "Agents still incomplete: dev (PENDING)" in out, out

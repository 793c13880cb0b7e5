"""Fixtures for the agent-client hooks: a repository with one task, payloads rewritten for it."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from taskproto.engine import Engine
from taskproto.hooks.agents.runner import run_agent_hook
from taskproto.state.models import AgentState

PAYLOADS = Path(__file__).resolve().parents[2] / "clients" / "payloads"
STATES = [
    "INIT",
    "CLASSIFIED",
    "REQUIREMENTS",
    "SYNTHESIS",
    "IMPLEMENTATION",
    "VALIDATION",
    "REVIEW",
    "AWAITING_USER_APPROVAL",
]


def move_to(engine: Engine, name: str, state: str) -> None:
    """Walk task `name` forward along task-protocol until it is in `state`."""
    path = STATES[STATES.index(engine.load(name).state) + 1 :]
    for s in path:
        task = engine.load(name)
        if task.state == state:
            return
        if s == "IMPLEMENTATION":
            engine.approve(name, "plan", "user")
        if s == "VALIDATION":
            for a in task.required_agents:
                engine.set_agent_status(
                    name, a, AgentState.COMPLETE, session=task.owner.session if task.owner else None
                )
        engine.fire(name, target=s, session=task.owner.session if task.owner else None)
    assert engine.load(name).state == state


def payload(client: str, event: str, **fields: Any) -> bytes:
    """A captured real payload of `client` at `event`, with fields replaced."""
    tool = fields.pop("variant", None)
    name = f"{event}.{tool}.json" if tool else f"{event}.json"
    data = json.loads((PAYLOADS / client / name).read_text())
    data.update(fields)
    return json.dumps(data).encode()


Hook = Callable[..., tuple[int, str, str]]


@pytest.fixture
def task(engine: Engine) -> str:
    engine.create_task("t1", ["dev"], description="add the widget")
    return "t1"


@pytest.fixture
def agent_wt(engine: Engine, task: str) -> Path:
    return engine.config.agent_worktree(task, "dev")


@pytest.fixture
def hook() -> Hook:
    def run(
        client: str,
        event: str,
        data: bytes,
        env: dict[str, str] | None = None,
        pid: int | None = None,
    ) -> tuple[int, str, str]:
        return run_agent_hook(
            client,
            event,
            data,
            {k: os.environ.get(k, "") for k in ("PATH", "HOME", "XDG_STATE_HOME")} | (env or {}),
            pid=pid if pid is not None else os.getpid(),
        )

    return run


@pytest.fixture
def fast(engine: Engine, tmp_path: Path) -> Any:
    """t1 (agent a) owned by OWNER from this process; t2 free; a recording interpreter."""
    from .fastpath import make_fast

    return make_fast(engine, tmp_path)

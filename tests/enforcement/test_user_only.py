"""The user's actions (approvals, review verdicts, --force, acting as another session) are refused
to an agent at every door: the CLI run inside an agent session, the MCP server, the engine."""

from __future__ import annotations

import asyncio
import os
import stat
import sys
from pathlib import Path

import pytest

from taskproto.clients.detect import IGNORE_ANCESTRY
from taskproto.engine import Actor, Engine
from taskproto.errors import UserOnly
from taskproto.state import journal
from tests.conftest import run_taskproto
from tests.hooks.agents.conftest import move_to
from tests.mcpserver.conftest import connect, refused

SESSION = "agent-session"
# What each client puts in the environment of the commands its agent runs (seen with the real ones).
AGENT_ENVS = {
    "claude": {"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": SESSION},
    "codex": {"CODEX_SESSION_ID": SESSION, "CODEX_THREAD_ID": SESSION},
    "gemini": {"GEMINI_CLI": "1"},
    "taskproto-hook": {"TASKPROTO_AGENT": "1"},
}


def snapshot(engine: Engine, name: str) -> tuple[bytes, str | None]:
    return engine.config.task_file(name).read_bytes(), journal.head(engine.git, name)


@pytest.fixture
def plan_task(engine: Engine) -> str:
    """A plan-task in REVIEW_CONTEXT, owned by the agent's session: the next step is a review
    verdict."""
    engine.create_task("p", workflow="plan-task")
    engine.claim("p", SESSION)
    engine.fire(
        "p",
        "submit",
        session=SESSION,
        params={"artifact": {"context_summary": "small", "affected_files": ["a.py"]}},
    )
    assert engine.load("p").state == "REVIEW_CONTEXT"
    return "p"


@pytest.fixture
def protocol_task(engine: Engine) -> str:
    """A task-protocol task in SYNTHESIS (waiting for the plan approval), owned by the agent."""
    engine.create_task("t", agents=["dev"])
    engine.claim("t", SESSION)
    move_to(engine, "t", "SYNTHESIS")
    return "t"


REFUSED = [
    ("approve", "t", "--plan"),
    ("approve", "p"),
    ("fire", "p", "approve"),
    ("fire", "p", "request_revision"),
    ("transition", "p", "STRATEGIZE"),
    ("revise", "p", "--feedback", "redo it"),
    ("claim", "t", "--force"),
    ("release", "t", "--force"),
    ("transition", "t", "IMPLEMENTATION", "--force"),
    ("task", "remove", "t", "--force"),
]


@pytest.mark.parametrize("client", sorted(AGENT_ENVS))
@pytest.mark.parametrize("command", REFUSED, ids=lambda c: " ".join(c))
def test_the_cli_inside_an_agent_session_refuses_the_users_actions(
    engine: Engine,
    repo: Path,
    plan_task: str,
    protocol_task: str,
    client: str,
    command: tuple[str, ...],
) -> None:
    before = {name: snapshot(engine, name) for name in ("t", "p")}
    env = {"TASKPROTO_SESSION": SESSION, **AGENT_ENVS[client]}
    result = run_taskproto(*command, cwd=repo, env=env)
    assert result.code == 1, result
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and "is the user's to do, and this runs for an agent" in lines[0], (
        result.err
    )
    assert "ask the user to run it in their own terminal" in lines[0]
    assert {name: snapshot(engine, name) for name in ("t", "p")} == before


def test_the_same_commands_work_for_the_user(
    engine: Engine, repo: Path, plan_task: str, protocol_task: str
) -> None:
    env = {"TASKPROTO_SESSION": SESSION}
    assert run_taskproto("approve", "t", "--plan", cwd=repo, env=env).code == 0
    assert run_taskproto("transition", "p", "STRATEGIZE", cwd=repo, env=env).code == 0
    assert engine.load("p").state == "STRATEGIZE"
    assert engine.load("t").checkpoint.plan_approval is not None


def test_an_agent_may_not_act_as_another_session(
    engine: Engine, repo: Path, protocol_task: str
) -> None:
    before = snapshot(engine, "t")
    env = {"TASKPROTO_SESSION": "someone-else", "CLAUDECODE": "1"}
    result = run_taskproto("--session", SESSION, "release", "t", cwd=repo, env=env)
    assert result.code == 1
    assert "acting as session 'agent-session' (this session is 'someone-else')" in result.err
    assert snapshot(engine, "t") == before


def test_an_agent_client_among_the_ancestors_is_enough(
    engine: Engine, repo: Path, protocol_task: str, tmp_path: Path
) -> None:
    """A shell that dropped the client's variables (`env -i`) still descends from the client."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "claude"  # a process whose program is named like the client
    fake.write_text(
        "#!/bin/sh\n"
        f"env -i PATH={os.environ['PATH']} HOME={os.environ['HOME']} "
        f"{sys.executable} -m taskproto --session {SESSION} approve t --plan\n"
    )
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    before = snapshot(engine, "t")
    env = {k: v for k, v in os.environ.items() if k != IGNORE_ANCESTRY}
    import subprocess

    proc = subprocess.run(
        ["/bin/sh", "-c", f"{fake}; exit $?"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1, proc.stderr
    assert "it runs under Claude Code" in proc.stderr
    assert snapshot(engine, "t") == before


def test_the_engine_refuses_an_agent_actor(
    engine: Engine, plan_task: str, protocol_task: str
) -> None:
    agent = Engine(engine.config, Actor(agent=True, why="a test says so"))
    before = {name: snapshot(engine, name) for name in ("t", "p")}
    for attempt in (
        lambda: agent.approve("t", "plan", SESSION),
        lambda: agent.fire("p", "approve", session=SESSION),
        lambda: agent.fire("p", target="STRATEGIZE", session=SESSION),
        lambda: agent.claim("t", SESSION, force=True),
        lambda: agent.release("t", SESSION, force=True),
    ):
        with pytest.raises(UserOnly):
            attempt()
    assert {name: snapshot(engine, name) for name in ("t", "p")} == before
    # what is the agent's to do still works
    assert agent.heartbeat("t", SESSION).owner is not None


def test_mcp_refuses_a_review_verdict_as_a_transition(
    engine: Engine, repo: Path, plan_task: str
) -> None:
    before = snapshot(engine, "p")

    async def main() -> None:
        async with connect(repo, SESSION) as client:
            line = await refused(client, "transition", task="p", state="STRATEGIZE")
            assert (
                "is the user's to do, and this runs for an agent (through the MCP server)" in line
            )

    asyncio.run(main())
    assert snapshot(engine, "p") == before

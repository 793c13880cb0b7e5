"""Issue #39, what agents may record: an interruption only on a task of its own session (CLI and
MCP), never the developer's answer to plan-task's questions, never tight-loop's `--decision YES`
(the log calls it the user's). The user still does all three."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from taskproto.engine import Engine
from taskproto.state import journal
from tests.conftest import run_taskproto
from tests.mcpserver.conftest import connect, refused

OWN = "agent-own"
AGENT = {"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": OWN, "TASKPROTO_SESSION": OWN}
USER = {"TASKPROTO_SESSION": OWN}


def snapshot(engine: Engine, name: str) -> tuple[bytes, str | None]:
    return engine.config.task_file(name).read_bytes(), journal.head(engine.git, name)


def one_refusal(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "is the user's to do, and this runs for an agent" in lines[0], err
    return lines[0]


@pytest.fixture
def tasks(engine: Engine) -> Engine:
    """mine (owned by the agent's session), theirs (another session's), free (no owner)."""
    for name in ("mine", "theirs", "free"):
        engine.create_task(name, [])
    engine.claim("mine", OWN)
    engine.claim("theirs", "someone-else")
    return engine


def test_an_agent_records_no_interruption_on_a_task_it_does_not_own(
    tasks: Engine, repo: Path
) -> None:
    """Before: recorded, as the user's message, on any task."""
    names = ("theirs", "free")  # another session's, and nobody's
    before = {name: snapshot(tasks, name) for name in names}
    for name in names:
        result = run_taskproto("interrupt", "record", name, "stop it all", cwd=repo, env=AGENT)
        assert result.code == 1, result
        assert "recording an interruption on task" in one_refusal(result.err)
        # one sentence: the clause about the session closed before what the refusal says of it
        assert f"which this session ({OWN}) does not own, is the user's to do" in result.err

    async def main() -> None:
        async with connect(repo, OWN) as client:
            for name in names:
                line = await refused(client, "record_interruption", task=name, text="stop")
                assert "recording an interruption on task" in line, line

    asyncio.run(main())
    assert {name: snapshot(tasks, name) for name in names} == before


def test_on_its_own_task_an_agent_records_it_and_the_user_anywhere(
    tasks: Engine, repo: Path
) -> None:
    result = run_taskproto("interrupt", "record", "mine", "what is this?", cwd=repo, env=AGENT)
    assert result.code == 0, result.err
    result = run_taskproto("interrupt", "record", "theirs", "what is this?", cwd=repo, env=USER)
    assert result.code == 0, result.err
    assert tasks.load("theirs").interruptions


@pytest.fixture
def questions(engine: Engine) -> Engine:
    """A plan-task in REVIEW_CONTEXT, owned by the agent's session, with two questions."""
    from tests.workflows.wf_data import CONTEXT

    engine.create_task("p", workflow="plan-task")
    engine.claim("p", OWN)
    engine.fire("p", "submit", session=OWN, params={"artifact": CONTEXT})
    assert engine.load("p").state == "REVIEW_CONTEXT"
    return engine


def test_an_agent_does_not_answer_the_developers_questions(questions: Engine, repo: Path) -> None:
    before = snapshot(questions, "p")
    result = run_taskproto("answer", "p", "1", "yes, add -v", cwd=repo, env=AGENT)
    assert result.code == 1, result
    assert "answering the developer's question 1" in one_refusal(result.err)
    assert snapshot(questions, "p") == before
    assert run_taskproto("answer", "p", "1", "yes, add -v", cwd=repo, env=USER).code == 0
    assert questions.load("p").context["answers"] == {"1": "yes, add -v"}


def test_an_agent_does_not_answer_yes_to_a_tight_loop_gate(engine: Engine, repo: Path) -> None:
    engine.create_task("loop", workflow="tight-loop")
    engine.claim("loop", OWN)
    before = snapshot(engine, "loop")
    for quick in ("1", "0"):  # the quick front and the click command
        env = {**AGENT, "TASKPROTO_QUICK": quick}
        result = run_taskproto(
            "handoff", "loop", "--to", "EXECUTE", "--decision", "YES", cwd=repo, env=env
        )
        assert result.code == 1, result
        assert "answering YES to 'Ready to execute?'" in one_refusal(result.err)
        assert snapshot(engine, "loop") == before
    result = run_taskproto(
        "handoff", "loop", "--to", "EXECUTE", "--decision", "YES", cwd=repo, env=USER
    )
    assert result.code == 0, result.err
    assert engine.load("loop").state == "EXECUTE"

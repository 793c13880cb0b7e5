"""What a person reads after `taskproto interrupt record` and `taskproto resume` in their own
terminal: the state it waits in and their own commands (`resume`, `next`, an approval with its
head), never the agent's instructions or the agent's `transition`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import git, run_taskproto
from tests.hooks.agents.conftest import move_to

AGENT = {"CLAUDECODE": "1", "TASKPROTO_SESSION": "s1"}


@pytest.fixture(autouse=True)
def _no_detached_delivery(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TASKPROTO_NOTIFY_DETACH", "0")


def test_the_user_reads_their_commands_after_a_question_and_a_resume(
    engine: Any, repo: Path, cli: Any
) -> None:
    engine.create_task("t1", ["dev"])
    move_to(engine, "t1", "IMPLEMENTATION")
    asked = cli("interrupt", "record", "t1", "wait, which parser do we use?")
    assert asked.code == 0, asked.err
    assert asked.out.splitlines() == [
        "QUESTION recorded on t1; state remains IMPLEMENTATION",
        "The task waits in IMPLEMENTATION: its agent answers and does not go on. When the work "
        "may go on: `taskproto resume t1`.",
    ]
    resumed = cli("resume", "t1")
    assert resumed.code == 0, resumed.err
    assert resumed.out.splitlines() == [
        "t1: resumed in IMPLEMENTATION",
        "Agents not done yet: dev (PENDING)",
        "The workflow's next step, when it is due: `taskproto next t1`.",
    ]
    assert "transition" not in resumed.out and "RESUMING TASK" not in resumed.out


def test_a_resume_at_the_plan_names_the_approval_with_its_head(
    engine: Any, repo: Path, cli: Any
) -> None:
    engine.create_task("t1")
    move_to(engine, "t1", "SYNTHESIS")
    head = git(repo, "rev-parse", "t1")[:12]
    assert cli("interrupt", "record", "t1", "stop, let me think").code == 0
    resumed = cli("resume", "t1")
    assert resumed.out.splitlines()[1] == (
        "The plan waits for your approval: read it (`taskproto task show t1`), then "
        f"`taskproto approve t1 --plan --head {head}`."
    )
    assert "transition" not in resumed.out and "do not run it yourself" not in resumed.out


def test_an_agent_still_reads_the_agents_instructions(engine: Any, repo: Path) -> None:
    engine.create_task("t1")
    engine.claim("t1", "s1")
    move_to(engine, "t1", "IMPLEMENTATION")
    result = run_taskproto("interrupt", "record", "t1", "what does this do?", cwd=repo, env=AGENT)
    assert result.code == 0, result.err
    assert "do not resume the work or change the state on your own" in result.out

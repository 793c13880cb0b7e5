"""Every refusal of a step says what to do next: a `taskproto` command that goes through now, or
where to look (`taskproto task show`). Real repositories, the real CLI."""

from __future__ import annotations

import pytest

from taskproto.engine import Engine
from tests.conftest import run_taskproto
from tests.hooks.agents.conftest import move_to

USER = {"TASKPROTO_SESSION": "s1"}


@pytest.mark.parametrize(
    ("state", "args", "names"),
    [
        ("INIT", ["fire", "t1", "implement"], "`taskproto fire t1 classify` (-> CLASSIFIED)"),
        ("SYNTHESIS", ["fire", "t1", "implement"], "`taskproto approve t1 --plan`"),
        ("IMPLEMENTATION", ["fire", "t1", "validate"], "`taskproto agent set t1 dev"),
        ("AWAITING_USER_APPROVAL", ["fire", "t1", "complete"], "`taskproto approve t1 --commit`"),
        ("CLASSIFIED", ["transition", "t1", "SYNTHESIS"], "`taskproto transition t1 REQUIREMENTS`"),
    ],
)
def test_a_refused_step_names_the_next_command(
    engine: Engine, state: str, args: list[str], names: str
) -> None:
    engine.create_task("t1", ["dev"])
    engine.claim("t1", "s1")
    move_to(engine, "t1", state)
    before = engine.config.task_file("t1").read_bytes()
    result = run_taskproto(*args, cwd=engine.config.repo, env=USER)
    assert result.code == 1
    line = result.err.strip()
    assert len(line.splitlines()) == 1 and names in line, line
    assert engine.config.task_file("t1").read_bytes() == before


def test_a_guard_with_no_way_forward_points_at_task_show(engine: Engine) -> None:
    engine.create_task("t1", ["dev"])
    engine.claim("t1", "s1")
    move_to(engine, "t1", "AWAITING_USER_APPROVAL")
    result = run_taskproto("fire", "t1", "complete", "--json", cwd=engine.config.repo, env=USER)
    assert result.code == 1 and "taskproto" in result.err

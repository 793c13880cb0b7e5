"""`land` and `queue add` on a task whose workflow has no COMPLETE state (tight-loop, plan-task,
phone-a-team): the refusal says that taskproto does not land it and what the user does instead,
not "approve it, then transition it to COMPLETE", a state it does not have. Found walking a
tight-loop task to FULL_AUTO as a new user."""

from __future__ import annotations

import pytest

from taskproto.engine import Engine
from tests.conftest import commit_file


@pytest.mark.parametrize("workflow", ["tight-loop", "plan-task", "phone-a-team"])
def test_land_and_queue_say_a_workflow_without_complete_is_not_landed(
    engine: Engine, cli, workflow: str
) -> None:
    engine.create_task("w", workflow=workflow)
    commit_file(engine.config.task_worktree("w"), "w.py", "w = 1\n", "work")
    for args in (("land", "w"), ("queue", "add", "w")):
        r = cli(*args)
        assert r.code == 1, r.out
        assert r.err.count("\n") == 1, r.err
        assert f"workflow {workflow} has no COMPLETE state" in r.err
        assert "git merge w" in r.err and "taskproto task remove w" in r.err
        assert "transition w COMPLETE" not in r.err and "next w" not in r.err

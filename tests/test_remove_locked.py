"""`task remove` of a task one of whose worktrees is locked (`git worktree lock`): refused whole
before anything is removed (git refuses a locked worktree, and the agents' worktrees went first);
--force removes it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from taskproto.engine import Engine
from tests.conftest import git


def test_remove_refuses_a_locked_worktree_and_removes_nothing(
    repo: Path, engine: Engine, cli: Any
) -> None:
    engine.create_task("t", ["dev"])
    task_wt = engine.config.task_worktree("t")
    agent_wt = engine.config.agent_worktree("t", "dev")
    git(repo, "worktree", "lock", str(task_wt))

    r = cli("task", "remove", "t")
    assert r.code == 1
    assert len(r.err.strip().splitlines()) == 1
    assert "locked" in r.err and f"git worktree unlock {task_wt}" in r.err
    assert agent_wt.is_dir() and task_wt.is_dir()  # nothing removed
    assert "t-dev" in git(repo, "branch", "--list", "t-dev")

    r = cli("task", "remove", "t", "--force")
    assert r.code == 0, r.err
    assert not task_wt.exists() and not agent_wt.exists()

"""`task remove` of a task whose worktrees hold what a user made by hand: a worktree locked with
`git worktree lock` (git refuses it, and the agents' worktrees went first), a commit on a detached
HEAD that no branch holds (removing the worktree loses it). Refused whole before anything is
removed; --force removes them."""

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


def test_remove_refuses_a_commit_on_a_detached_head_no_branch_holds(
    repo: Path, engine: Engine, cli: Any
) -> None:
    engine.create_task("t", ["dev"])
    agent_wt = engine.config.agent_worktree("t", "dev")
    git(agent_wt, "switch", "--quiet", "--detach")
    (agent_wt / "work.txt").write_text("made on a detached HEAD\n")
    git(agent_wt, "add", "work.txt")
    git(agent_wt, "commit", "--quiet", "-m", "detached work")
    sha = git(agent_wt, "rev-parse", "HEAD")

    r = cli("task", "remove", "t")
    assert r.code == 1
    assert len(r.err.strip().splitlines()) == 1
    assert f"git -C {agent_wt} branch NAME {sha[:12]}" in r.err
    assert agent_wt.is_dir() and engine.config.task_worktree("t").is_dir()

    r = cli("task", "remove", "t", "--force")
    assert r.code == 0, r.err
    assert not agent_wt.exists()

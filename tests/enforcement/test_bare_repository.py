"""A bare repository with linked worktrees: from inside a task or agent worktree, taskproto finds
the same root (in the bare repository's own folder), lists the tasks, and its guards hold."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from taskproto.config import load_config
from taskproto.engine import Engine
from tests.conftest import git, run_taskproto
from tests.hooks.agents.conftest import Hook, payload


@pytest.fixture
def bare(tmp_path: Path) -> tuple[Path, Path]:
    """(the bare repository, a linked worktree of its main branch), with taskproto's git hooks."""
    seed = tmp_path / "seed"
    seed.mkdir()
    git(seed, "init", "-q", "--initial-branch=main")
    (seed / "README.md").write_text("hi\n")
    git(seed, "add", "README.md")
    git(seed, "commit", "-q", "-m", "initial")
    repo = tmp_path / "project.git"
    git(tmp_path, "clone", "-q", "--bare", str(seed), str(repo))
    main_wt = tmp_path / "main-wt"
    git(repo, "worktree", "add", "-q", str(main_wt), "main")
    assert run_taskproto("init", cwd=main_wt).code == 0
    assert run_taskproto("task", "create", "t1", "--agents", "dev", cwd=main_wt).code == 0
    return repo, main_wt


def test_the_root_is_the_bare_repositorys_own(bare: tuple[Path, Path]) -> None:
    repo, main_wt = bare
    config = load_config(main_wt)
    assert config.repo == repo.resolve() and config.root == repo.resolve() / ".taskproto"
    agent_wt = config.agent_worktree("t1", "dev")
    for where in (main_wt, config.task_worktree("t1"), agent_wt):
        listed = run_taskproto("task", "list", "--json", cwd=where)
        assert listed.code == 0 and '"name": "t1"' in listed.out, (where, listed)


def test_the_commit_guard_holds_in_an_agent_worktree(bare: tuple[Path, Path]) -> None:
    repo, main_wt = bare
    agent_wt = load_config(main_wt).agent_worktree("t1", "dev")
    (agent_wt / "x.txt").write_text("x\n")
    git(agent_wt, "add", "x.txt")
    proc = subprocess.run(
        ["git", "commit", "-m", "early"], cwd=agent_wt, capture_output=True, text=True
    )
    assert (
        proc.returncode == 128 and "task t1 is in INIT, which does not allow commits" in proc.stderr
    )


def test_the_tool_guard_holds_in_an_agent_worktree(bare: tuple[Path, Path], hook: Hook) -> None:
    _repo, main_wt = bare
    engine = Engine(load_config(main_wt))
    engine.claim("t1", "s1")
    agent_wt = engine.config.agent_worktree("t1", "dev")
    data = payload(
        "claude",
        "PreToolUse",
        session_id="s1",
        cwd=str(agent_wt),
        tool_input={"file_path": str(agent_wt / "x.py"), "content": "x"},
    )
    code, _, err = hook("claude", "PreToolUse", data)
    assert code == 2 and "state INIT" in err
    data = payload(
        "claude",
        "PreToolUse",
        session_id="s1",
        cwd=str(agent_wt),
        tool_input={"file_path": str(engine.config.task_file("t1")), "content": "{}"},
    )
    code, _, err = hook("claude", "PreToolUse", data)
    assert code == 2 and "taskproto's own state" in err

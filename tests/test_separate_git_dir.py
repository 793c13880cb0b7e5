"""A repository made with `git init --separate-git-dir`: its main worktree's `.git` is a file, and
git's worktree listing names the git dir in its place (git cannot find the main worktree from the
git dir). taskproto lands onto the base checked out there, in the main worktree itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from taskproto.config import load_config
from taskproto.engine import Engine
from tests.conftest import commit_file, git
from tests.hooks.agents.conftest import move_to


def test_land_in_a_repository_with_a_separate_git_dir(tmp_path: Path, cli: Any) -> None:
    repo = tmp_path / "work"
    git(tmp_path, "init", "--quiet", "-b", "main", "--separate-git-dir", "work.git", "work")
    git(repo, "config", "commit.gpgsign", "false")
    commit_file(repo, "README.md", "# a\n")
    engine = Engine(load_config(repo))
    engine.create_task("t", [])
    engine.claim("t", "s1")
    move_to(engine, "t", "IMPLEMENTATION")
    commit_file(engine.config.task_worktree("t"), "t.txt", "t\n")
    move_to(engine, "t", "AWAITING_USER_APPROVAL")
    engine.approve("t", "commit", "user")
    engine.fire("t", target="COMPLETE", session="s1")

    r = cli("land", "t", cwd=repo)
    assert r.code == 0, r.err
    assert (repo / "t.txt").read_text() == "t\n"  # the main worktree moved with main
    assert git(repo, "status", "--porcelain", "--untracked-files=no") == ""

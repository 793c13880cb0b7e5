"""Tasks approved and ready to land, on a base that moves: what `update`, `land --update` and the
queue are tested on. No agents (each merge costs seconds): the work is committed on the task
branch in its worktree while the task is in IMPLEMENTATION."""

from __future__ import annotations

from pathlib import Path

import pytest

from taskproto.engine import Engine
from taskproto.git.command import Git
from taskproto.hooks.git import install
from tests.conftest import commit_file, git
from tests.hooks.agents.conftest import move_to

SESSION = "s1"


def approved_task(engine: Engine, name: str, files: dict[str, str], complete: bool = True) -> str:
    """Task `name` with `files` committed on its branch, its head approved by the user (and in
    COMPLETE with `complete`); returns the approved head."""
    engine.create_task(name, description=f"Task {name}")
    engine.claim(name, SESSION)
    move_to(engine, name, "IMPLEMENTATION")
    tree = engine.config.task_worktree(name)
    for file, content in files.items():
        commit_file(tree, file, content, f"{name}: {file}")
    move_to(engine, name, "AWAITING_USER_APPROVAL")
    engine.approve(name, "commit", "user")
    if complete:
        engine.fire(name, target="COMPLETE", session=SESSION)
    return git(engine.config.repo, "rev-parse", f"refs/heads/{name}")


@pytest.fixture
def hooked(engine: Engine, repo: Path) -> Engine:
    """The engine of a repository with taskproto's git hooks installed."""
    install.install(Git(repo))
    return engine


def move_base(repo: Path, name: str, content: str) -> str:
    """A new commit on main (checked out in `repo`) writing file `name`."""
    return commit_file(repo, name, content, f"main: {name}")

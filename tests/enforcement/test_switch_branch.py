"""A task's or an agent's worktree stays on its own branch. A new user's walk found
`git checkout main` (plainly, or in a script run by its path) passed the tool guard in an agent's
worktree: while `main` is checked out in the main worktree git refuses it by itself, but with the
main worktree on another branch the agent's worktree was left on `main`, and no git hook runs
before a checkout moves HEAD to another branch. The tool guard refuses a checkout or switch of a
branch not the worktree's own before it runs, in one line naming `git switch <its branch>`; going
back to its own branch, restoring a file, and the main worktree pass. Each client's payload, the
real hook entry point."""

from __future__ import annotations

from pathlib import Path

import pytest

from taskproto.engine import Engine
from tests.conftest import git
from tests.enforcement.test_tool_guard_unreadable import CLIENTS, shell
from tests.hooks.agents.conftest import Hook

pytest_plugins = ["tests.enforcement.test_agent_session_branches"]  # its owned fixture

TOP = "$(git rev-parse --show-toplevel)"


def _said(whose: str, branch: str, own: str) -> str:
    return (
        f"taskproto: this command puts the worktree of {whose} on branch {branch}, not its own: "
        f"its work is on {own}, and reaches the base branch through the user's `taskproto land`; "
        f"stay on its branch: `git switch {own}`.\n"
    )


@pytest.fixture
def scripts(owned: Engine) -> Path:
    """The dev agent's worktree with scripts that switch branches, executable, as a repository
    keeps its tools; the main worktree on `feature`, so git itself would let `main` be checked
    out elsewhere."""
    wt = owned.config.agent_worktree("t1", "dev")
    (wt / "scripts").mkdir()
    for name, branch in (("main", "main"), ("own", "t1-dev")):
        script = wt / "scripts" / f"{name}.sh"
        script.write_text(f"#!/bin/sh\ngit checkout {branch}\n")
        script.chmod(0o755)
    git(owned.config.repo, "checkout", "-q", "feature")
    return wt


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_a_checkout_of_another_branch_in_an_agents_worktree_is_refused(
    owned: Engine, scripts: Path, hook: Hook, client: str
) -> None:
    wt = str(scripts)
    for branch, command in [
        ("main", "git checkout main"),
        ("main", "git switch main"),
        ("main", "git checkout -q main"),
        ("t1", "git checkout t1"),
        ("feature", "git switch feature"),
        ("main", "./scripts/main.sh"),
        ("main", f'"{TOP}/scripts/main.sh"'),
        ("main", "sh scripts/main.sh"),
    ]:
        said = _said("agent dev of task t1", branch, "t1-dev")
        assert shell(hook, client, command, wt) == (2, said), command
    assert git(scripts, "symbolic-ref", "HEAD").strip() == "refs/heads/t1-dev"
    for command in [
        "git checkout t1-dev",
        "git switch t1-dev",
        "./scripts/own.sh",
        "git checkout scripts/own.sh",  # a file restored, not a branch
        "git checkout main -- scripts/own.sh",
        "git status",
    ]:
        assert shell(hook, client, command, wt) == (0, ""), command


def test_the_task_worktree_stays_on_the_task_branch(owned: Engine, hook: Hook) -> None:
    wt = str(owned.config.task_worktree("t1"))
    said = _said("task t1", "t1-dev", "t1")
    assert shell(hook, "claude", "git checkout t1-dev", wt) == (2, said)
    assert shell(hook, "claude", "git switch t1", wt) == (0, "")

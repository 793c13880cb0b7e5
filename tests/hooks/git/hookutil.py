"""Helpers of the git hook tests (the fixtures are in conftest.py)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from taskproto.engine import Engine
from taskproto.state.models import AgentState
from tests import forkrun

SESSION = "s-hooks"


# A process that got around the branch guard (the same user always can: tests/enforcement shows
# the guard refusing these moves); what the other hooks do afterwards is what these tests check.
BYPASS = {"TASKPROTO_INTERNAL": "1"}


def sh(
    cwd: Path, *args: str, input: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run git and return the completed process (refusals are results here, not failures)."""
    return subprocess.run(
        ["git", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        input=input,
        check=False,
        env={**os.environ, **(env or {})},
    )


def head(cwd: Path, rev: str = "HEAD") -> str:
    return sh(cwd, "rev-parse", rev).stdout.strip()


def commit_file(worktree: Path, name: str) -> str:
    (worktree / name).write_text(f"{name}\n")
    assert sh(worktree, "add", name).returncode == 0
    proc = sh(worktree, "commit", "-q", "-m", f"add {name}")
    assert proc.returncode == 0, proc.stderr
    return head(worktree)


def make_repo(path: Path) -> Path:
    path.mkdir(parents=True)
    for args in (
        ("init", "-q", "--initial-branch=main"),
        ("config", "commit.gpgsign", "false"),
        ("commit", "-q", "--allow-empty", "-m", "initial"),
    ):
        assert sh(path, *args).returncode == 0
    return path


def taskproto(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`taskproto *args` as a process of its own, forked from an interpreter that has imported
    taskproto (tests/forkrun.py); the hooks git runs are started by git, as a user's are."""
    done = forkrun.run(list(args), cwd, {**os.environ, **(env or {})})
    return subprocess.CompletedProcess(
        ["taskproto", *args], done.returncode, done.stdout, done.stderr
    )


def advance(engine: Engine, task: str, target: str) -> None:
    """Walk task-protocol's happy path up to `target`, recording the approvals it needs."""
    path = [
        "CLASSIFIED",
        "REQUIREMENTS",
        "SYNTHESIS",
        "IMPLEMENTATION",
        "VALIDATION",
        "REVIEW",
        "AWAITING_USER_APPROVAL",
        "COMPLETE",
    ]
    current = engine.load(task).state
    for state in path[path.index(current) + 1 if current in path else 0 :]:
        if engine.load(task).state == target:
            return
        if state == "IMPLEMENTATION":
            engine.approve(task, "plan", SESSION)
        if state == "VALIDATION":
            for agent in engine.load(task).required_agents:
                engine.set_agent_status(task, agent, AgentState.COMPLETE, session=SESSION)
        if state == "COMPLETE":
            engine.approve(task, "commit", SESSION)
        engine.fire(task, target=state, session=SESSION)
    assert engine.load(task).state == target


def pre_commit_install(repo: Path, tmp_path: Path, hook_type: str, *args: str) -> None:
    """The real pre-commit framework installs its script as git's `hook_type` hook in `repo`
    (its cache under `tmp_path`, not the user's)."""
    done = subprocess.run(
        ["pre-commit", "install", "--hook-type", hook_type, *args],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pc-home")},
    )
    assert done.returncode == 0, done.stderr

"""The real pre-commit framework running taskproto's hooks from `.pre-commit-hooks.yaml`.

pre-commit builds a virtualenv and pip-installs this repository from PyPI's
packages: slow, and needs the network. One PRE_COMMIT_HOME for the session, so
the environment is built once.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hookutil import SESSION, advance, head, sh

from taskproto.config import load_config
from taskproto.engine import Engine

REPO_ROOT = Path(__file__).resolve().parents[3]

pytestmark = [
    pytest.mark.precommit_framework,
    # about a minute uncontended: pre-commit builds its own environment for this repo once per
    # session
    pytest.mark.skipif(shutil.which("pre-commit") is None, reason="pre-commit is not installed"),
]


@pytest.fixture(scope="session")
def hooks_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, Path]:
    """A clone of this repository at HEAD (a fixed rev, so pre-commit builds its env once) and a
    cache."""
    clone = tmp_path_factory.mktemp("hooks-repo") / "taskproto"
    subprocess.run(["git", "clone", "--quiet", str(REPO_ROOT), str(clone)], check=True)
    rev = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=clone, capture_output=True, text=True, check=True
    ).stdout.strip()
    return clone, rev, tmp_path_factory.mktemp("pre-commit-home")


def _pre_commit(cwd: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never"}
    return subprocess.run(
        ["pre-commit", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def test_guard_through_pre_commit_refuses_then_allows(
    repo: Path, hooks_repo: tuple[Path, str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    clone, rev, home = hooks_repo
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {clone}\n  rev: {rev}\n  hooks:\n  - id: taskproto-guard\n  - id: "
        "taskproto-pre-push\n"
    )
    sh(repo, "add", ".pre-commit-config.yaml")
    assert sh(repo, "commit", "-q", "-m", "pre-commit config").returncode == 0
    engine = Engine(load_config(repo))
    engine.create_task("t1", agents=["a"])
    engine.claim("t1", SESSION)
    monkeypatch.setenv("PRE_COMMIT_HOME", str(home))
    installed = _pre_commit(
        repo, home, "install", "--hook-type", "pre-commit", "--hook-type", "pre-push"
    )
    assert installed.returncode == 0, installed.stderr

    code_dir = engine.config.task_worktree("t1")
    (code_dir / "work.txt").write_text("work\n")
    sh(code_dir, "add", "work.txt")
    before = head(code_dir)
    refused = sh(code_dir, "commit", "-m", "too early")
    assert refused.returncode == 1, refused.stdout + refused.stderr
    out = refused.stdout + refused.stderr  # git hooks' output goes to stderr
    assert "taskproto guard" in out and "Failed" in out
    assert "commit refused on branch 't1' (task t1): task t1 is in INIT" in out
    assert head(code_dir) == before

    tried = _pre_commit(code_dir, home, "try-repo", str(clone), "taskproto-guard", "--verbose")
    assert tried.returncode == 1 and "task t1 is in INIT" in tried.stdout

    advance(engine, "t1", "IMPLEMENTATION")
    allowed = sh(code_dir, "commit", "-m", "now")
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr
    assert (
        "taskproto guard" in allowed.stdout + allowed.stderr
        and "Passed" in allowed.stdout + allowed.stderr
    )
    assert head(code_dir) != before

    bare = repo.parent / "remote.git"
    sh(repo.parent, "init", "-q", "--bare", str(bare))
    sh(repo, "remote", "add", "origin", str(bare))
    assert sh(repo, "push", "-q", "origin", "main").returncode == 0  # main is no task's branch
    pushed = sh(code_dir, "push", "origin", "t1:main")
    assert pushed.returncode != 0
    assert (
        "push refused: branch 't1' (task t1) to protected branch main of origin"
        in pushed.stdout + pushed.stderr
    )

"""The pre-commit framework's config left uncommitted: the real pre-commit refuses every push from a
task worktree (made from the base without the file); doctor reports it in one line naming the
fix, `init` prints the hint, and once the file is committed on the base both are quiet and a new
task's push goes through."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hookutil import pre_commit_install

from taskproto.engine import Engine
from tests.conftest import commit_file, git

pytestmark = pytest.mark.skipif(shutil.which("pre-commit") is None, reason="no pre-commit")

CONFIG = """\
repos:
- repo: local
  hooks:
  - id: fine
    name: fine
    entry: "true"
    language: system
    stages: [pre-push]
    always_run: true
    pass_filenames: false
"""
HINT = "commit .pre-commit-config.yaml"


def push(worktree: Path, branch: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "push", "-q", "origin", f"{branch}:refs/heads/{branch}"],
        cwd=worktree,
        capture_output=True,
        text=True,
        check=False,
    )


def test_an_uncommitted_config_is_reported_and_hinted_until_committed(
    cli: Any, engine: Engine, repo: Path, tmp_path: Path
) -> None:
    assert cli("init").code == 0
    (repo / ".pre-commit-config.yaml").write_text(CONFIG)
    pre_commit_install(repo, tmp_path, "pre-push")
    bare = tmp_path / "shared.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    assert cli("task", "create", "t1").code == 0
    r = push(engine.config.task_worktree("t1"), "t1")
    assert r.returncode != 0 and "No .pre-commit-config.yaml file was found" in r.stdout + r.stderr

    r = cli("doctor")
    assert r.code == 1
    lines = [
        line for line in r.out.splitlines() if "WARNING  pre-commit-config-uncommitted" in line
    ]
    assert len(lines) == 1 and "is untracked on main" in lines[0] and HINT in lines[0], r.out
    r = cli("doctor", "--fix", "--json")  # no fix: committing it is the user's change
    assert [f["check"] for f in json.loads(r.out)["findings"]] == ["pre-commit-config-uncommitted"]
    assert r.code == 1 and git(repo, "status", "--porcelain").startswith("?? .pre-commit-config")

    r = cli("init")
    assert r.code == 0
    hints = [line for line in r.err.splitlines() if HINT in line]
    assert len(hints) == 1 and hints[0].startswith("taskproto: warning: .pre-commit-config.yaml")
    assert HINT in json.loads(cli("init", "--json").out)["pre_commit_config"]

    git(repo, "add", ".pre-commit-config.yaml")  # staged is not committed: no worktree has it
    r = cli("doctor")
    assert r.code == 1 and "is added but not committed on main" in r.out, r.out
    commit_file(repo, ".pre-commit-config.yaml", CONFIG, "pre-commit config")
    (repo / ".pre-commit-config.yaml").write_text(CONFIG + "# changed\n")  # the base has one
    assert cli("doctor").code == 0
    assert cli("task", "create", "t2").code == 0
    r = push(engine.config.task_worktree("t2"), "t2")
    assert r.returncode == 0, r.stderr


OURS = """\
repos:
- repo: local
  hooks:
  - id: taskproto-guard
    name: taskproto guard
    entry: "true"
    language: system
    always_run: true
    pass_filenames: false
"""


def test_init_with_a_client_says_the_framework_runs_the_guards(
    cli: Any, repo: Path, tmp_path: Path
) -> None:
    # `init --claude` where the pre-commit framework runs taskproto's hooks: not "the guards are
    # not installed" (they are, through the framework), but what `init --git` would add beside it.
    commit_file(repo, ".pre-commit-config.yaml", OURS, "pre-commit config")
    pre_commit_install(repo, tmp_path, "pre-commit")
    r = cli("init", "--claude")
    assert r.code == 0, r.err
    assert "are not installed" not in r.out, r.out
    assert (
        "taskproto's commit and push guards run through the pre-commit framework "
        "(.pre-commit-config.yaml); `taskproto init --git` adds the git hooks it has no stage "
        "for (reference-transaction: docs/hooks.md)" in r.out
    ), r.out
    assert json.loads(cli("init", "--claude", "--json").out)["git_hooks_by_pre_commit"] is True

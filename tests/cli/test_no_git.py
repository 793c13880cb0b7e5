"""A machine with no git on PATH: every command that needs git refuses in one line that says so
(exit 1, no traceback, nothing written), through the click commands and the quick front alike."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from taskproto.git.files import GIT_MISSING


def _run(repo: Path, empty: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "TASKPROTO_"))}
    env["PATH"] = str(empty)  # a PATH with no git in it
    env["HOME"] = str(repo.parent / "home")
    return subprocess.run(
        [sys.executable, "-m", "taskproto", *args],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    "args",
    [("init",), ("doctor",), ("task", "create", "x"), ("task", "create", "x", "--json")],
)
def test_no_git_is_a_one_line_refusal_that_writes_nothing(
    repo: Path, tmp_path: Path, args: tuple[str, ...]
) -> None:
    empty = tmp_path / "no-git-here"
    empty.mkdir()
    if args != ("init",):  # set up while git was there; then it is gone
        subprocess.run(
            [sys.executable, "-m", "taskproto", "init"], cwd=repo, check=True, capture_output=True
        )
    before = sorted(str(p.relative_to(repo)) for p in repo.rglob("*") if ".git" not in p.parts)
    result = _run(repo, empty, *args)
    assert result.returncode == 1, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    if "--json" in args:
        assert json.loads(lines[0])["error"] == GIT_MISSING
    else:
        assert lines[0] == f"taskproto: {GIT_MISSING}"
    assert "internal error" not in result.stderr
    after = sorted(str(p.relative_to(repo)) for p in repo.rglob("*") if ".git" not in p.parts)
    assert after == before

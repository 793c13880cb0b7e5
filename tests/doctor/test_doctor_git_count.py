"""Detection costs a constant number of git processes, however many tasks there are."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from doctor_helpers import make_repo

from taskproto.config import load_config
from tests.conftest import git_recorder

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from bulk_tasks import build_tasks


def _count(repo: Path, tmp: Path) -> tuple[int, dict[str, object]]:
    log = tmp / "git-calls.log"
    env = {**os.environ, **git_recorder(tmp / "shim", log)}
    proc = subprocess.run(
        [sys.executable, "-m", "taskproto", "doctor", "--json"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode in (0, 1), proc.stderr
    calls = log.read_text().splitlines()
    # the worktrees are read from git's files: git 2.39's listing loads packed-refs once per
    # worktree (3.6 GB at 10,000 tasks, docs/performance.md)
    assert not [c for c in calls if c.startswith("worktree")], calls
    return len(calls), json.loads(proc.stdout)


def test_git_processes_do_not_grow_with_tasks(tmp_path: Path) -> None:
    counts = {}
    for n in (10, 200):
        repo = make_repo(tmp_path / f"r{n}")
        config = load_config(repo)
        build_tasks(config, [f"task{i:04d}" for i in range(n)], agents=["dev"] if n == 10 else [])
        build_tasks(config, ["withagents"], agents=["a", "b"])
        wt = config.agent_worktree("withagents", "b")
        status = subprocess.run(
            ["git", "status", "--porcelain", "--branch"],
            cwd=wt,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert status.splitlines() == ["## withagents-b"]  # a real, clean worktree on its branch
        counts[n], report = _count(repo, tmp_path / f"c{n}")
        assert report["tasks_checked"] == n + 1
        assert report["healthy"], report["findings"]  # the bulk-built tasks are real, valid tasks
    assert counts[10] == counts[200], counts
    assert counts[10] <= 2, counts  # for-each-ref, cat-file --batch

"""A claim through a shared remote costs one push: the claim ref and the journal commit that
records it go together (`--atomic`), and the local refs move without starting git."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from remote_servers import Server, clone, git

from tests.conftest import git_recorder, run_taskproto

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from strace_exec import traced  # noqa: E402


def _taskproto(cwd: Path, *args: str, env: dict[str, str]) -> None:
    result = run_taskproto(*args, cwd=cwd, env=env)
    assert result.code == 0, result.err


def _machine(tmp_path: Path) -> tuple[Server, Path]:
    server = Server("file", tmp_path)
    repo = clone(server.make(), tmp_path / "m")
    _taskproto(repo, "task", "create", "t1", env=dict(os.environ))
    _taskproto(repo, "sync", env={**os.environ, "TASKPROTO_SESSION": "setup"})
    return server, repo


def test_a_claim_starts_one_git_process_and_lands_with_its_journal(tmp_path: Path) -> None:
    server, repo = _machine(tmp_path)
    try:
        log = tmp_path / "git-calls.log"
        env = {**git_recorder(tmp_path / "shim", log), "TASKPROTO_SESSION": "alice"}
        _taskproto(repo, "claim", "t1", env=env)
        calls = log.read_text().splitlines()
        assert len(calls) == 1 and calls[0].startswith("push --porcelain"), calls
        assert "--atomic" in calls[0]
        # the remote holds the claim, and the journal commit that records it, as here
        assert server.bare is not None
        here = git(repo, "rev-parse", "refs/taskproto/tasks/t1")
        there = git(server.bare, "rev-parse", "refs/taskproto/tasks/t1")
        assert here == there
        assert git(server.bare, "log", "-1", "--format=%s", there).startswith("claim: alice")
        assert '"session": "alice"' in git(
            server.bare, "show", "refs/taskproto/claims/t1:claim.json"
        )
        subprocess.run(["git", "fsck", "--strict"], cwd=repo, check=True, capture_output=True)
    finally:
        server.stop()


@pytest.mark.skipif(shutil.which("strace") is None, reason="needs strace")
def test_a_claim_costs_at_most_eight_git_processes_in_all(tmp_path: Path) -> None:
    """Counted as scripts/bench_speed.py counts them: every git exec'd, the server side too."""
    server, repo = _machine(tmp_path)
    try:
        done = traced(
            [sys.executable, "-m", "taskproto", "claim", "t1"],
            tmp_path / "claim.strace",
            cwd=repo,
            env={**os.environ, "TASKPROTO_SESSION": "alice"},
        )
        gits = [program for program in done if os.path.basename(program) == "git"]
        assert 0 < len(gits) <= 8, gits
    finally:
        server.stop()

"""A clone made after tasks exist on the shared remote: doctor names `taskproto sync`, and a new
task may not take a name the remote already has (over file:// and git daemon on 127.0.0.1)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from remote_servers import Server, clone


@pytest.fixture(params=["file", "daemon"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    srv = Server(request.param, tmp_path)
    yield srv
    srv.stop()


def tp(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "taskproto", *args],
        cwd=cwd,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_fresh_clone_is_told_to_sync_and_cannot_reuse_a_remote_name(
    server: Server, tmp_path: Path
) -> None:
    url = server.make()
    first = clone(url, tmp_path / "first")
    r = tp(first, "task", "create", "fix-login", "--agents", "dev")
    assert r.returncode == 0, r.stderr
    assert tp(first, "sync").returncode == 0
    second = clone(url, tmp_path / "second")  # cloned after the task exists on the remote
    r = tp(second, "doctor")
    assert r.returncode == 1
    assert "remote-tasks-unknown" in r.stdout and "fix-login" in r.stdout
    assert "taskproto sync" in r.stdout
    # the escalation of a finding of the repository does not speak of a task's unreadable file
    assert "**Current State**: - (the repository's finding, not one task's)" in r.stdout
    assert "**Impact**: no task's work: this concerns the repository" in r.stdout
    assert "task.json unreadable" not in r.stdout
    r = tp(second, "task", "create", "fix-login")
    assert r.returncode == 1 and len(r.stderr.strip().splitlines()) == 1
    assert "already exists on remote" in r.stderr and "taskproto sync" in r.stderr
    assert not (second / ".taskproto" / "tasks" / "fix-login").exists()  # nothing written
    assert tp(second, "sync").returncode == 0
    r = tp(second, "doctor")
    assert "remote-tasks-unknown" not in r.stdout, r.stdout
    assert tp(second, "task", "create", "other").returncode == 0

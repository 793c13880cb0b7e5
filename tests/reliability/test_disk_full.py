"""Writes that fail: the old task.json and status.json stay byte for byte, the error says what
failed.

A full disk is simulated honestly without privileges: the child process runs with
RLIMIT_FSIZE, so any write past the limit fails with EFBIG (SIGXFSZ ignored), exactly
where a full disk would fail with ENOSPC (both are OSErrors from write(2)). A read-only
folder needs a non-root user (root ignores permissions): see test_hostile.py.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from taskproto.engine import Engine

LIMITED = """
import resource, signal, sys
# a write past the limit fails with EFBIG instead of killing us
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
from taskproto.cli import main
sys.exit(main(sys.argv[2:]))
"""


def limited(repo: Path, limit: int, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", LIMITED, str(limit), *args],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    "args",
    [
        ("--session", "s", "claim", "t1"),
        ("interrupt", "record", "t1", "is it done?"),
        ("fire", "t1", "classify"),
        ("--session", "s", "agent", "set", "t1", "a1", "--status", "working"),
    ],
    ids=["claim", "interrupt-record", "fire", "agent-status"],
)
def test_a_full_disk_leaves_the_old_state_and_says_what_failed(
    engine: Engine, repo: Path, args: tuple[str, ...]
) -> None:
    engine.create_task("t1", agents=["a1"])
    task_file, status_file = engine.config.task_file("t1"), engine.config.status_file("t1", "a1")
    old_task, old_status = task_file.read_bytes(), status_file.read_bytes()
    journal_before = engine.git.ref_sha("refs/taskproto/tasks/t1")
    proc = limited(repo, 64, *args)  # smaller than any state file
    assert proc.returncode == 1, proc.stderr
    assert (
        proc.stderr.startswith("taskproto: could not write ")
        and len(proc.stderr.strip().splitlines()) == 1
    )
    assert "File too large" in proc.stderr and "the previous version is unchanged" in proc.stderr
    assert task_file.read_bytes() == old_task and status_file.read_bytes() == old_status
    assert engine.git.ref_sha("refs/taskproto/tasks/t1") == journal_before
    leftovers = [p.name for p in task_file.parent.rglob(".tmp-*")]
    assert leftovers == []  # the failed temporary file was removed
    assert engine.load("t1").revision == 1


def test_a_full_disk_during_create_undoes_everything(engine: Engine, repo: Path) -> None:
    proc = limited(repo, 64, "task", "create", "t2", "--agents", "a1")
    assert proc.returncode == 1, proc.stderr
    assert (
        proc.stderr.startswith("taskproto: could not write ")
        and len(proc.stderr.strip().splitlines()) == 1
    )
    assert not engine.config.task_dir("t2").exists()
    assert not engine.repo.branch_exists("t2")

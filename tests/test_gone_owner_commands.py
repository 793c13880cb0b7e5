"""A task whose owner is provably gone (its process on this host no longer runs) is taken over by
a plain `claim`, logged, no --force needed (docs/sessions.md). A command of another session that
only the owner may run (`next`, `transition`, `release`) says so and names that claim, as `task
show` does, instead of "only its owner can move it (or pass --force, logged)". Found by a new
user's walk: a Claude Code session's `claude -p` had ended, and the user's `next` offered --force.
Real repositories, the CLI as a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import git, make_repo


def _tp(repo: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "taskproto", *args],
        cwd=repo,
        env={k: v for k, v in os.environ.items() if not k.startswith("TASKPROTO_")} | env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


@pytest.mark.parametrize(
    "command", [("next", "t"), ("transition", "t", "CLASSIFIED"), ("release", "t")]
)
def test_a_gone_owners_task_names_the_claim_that_takes_it_over(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    repo = make_repo(tmp_path / "r")
    assert _tp(repo, "task", "create", "t").returncode == 0
    pid = _dead_pid()
    claimed = _tp(repo, "claim", "t", TASKPROTO_SESSION="gone", TASKPROTO_SESSION_PID=str(pid))
    assert claimed.returncode == 0, claimed.stderr
    before = git(repo, "for-each-ref", "--format=%(refname) %(objectname)", "refs/taskproto/")
    r = _tp(repo, *command, TASKPROTO_SESSION="mine")
    assert r.returncode == 1, r
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("taskproto: task 't' is owned by session gone on "), r.stderr
    assert lines[0].endswith(
        f"; that session is gone (its process {pid} on {os.uname().nodename} no longer exists): "
        "take the task over with `taskproto claim t` (logged; no --force needed)"
    ), r.stderr
    assert git(repo, "for-each-ref", "--format=%(refname) %(objectname)", "refs/taskproto/") == (
        before
    )
    # as it says: the claim takes it over, and the command then runs
    assert _tp(repo, "claim", "t", TASKPROTO_SESSION="mine").returncode == 0
    again = _tp(repo, *command, TASKPROTO_SESSION="mine")
    assert again.returncode == 0, again.stderr


def test_a_live_owner_is_still_displaced_only_with_force(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    assert _tp(repo, "task", "create", "t").returncode == 0
    live = _tp(repo, "claim", "t", TASKPROTO_SESSION="live", TASKPROTO_SESSION_PID=str(os.getpid()))
    assert live.returncode == 0, live.stderr
    r = _tp(repo, "next", "t", TASKPROTO_SESSION="mine")
    assert r.returncode == 1
    assert r.stderr.rstrip().endswith("only its owner can move it (or pass --force, logged)")

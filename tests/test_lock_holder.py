"""A task's lock held by a process that is not taskproto (here `flock(1)` on the lock file, as a
backup tool or a user's script might) is named in the refusal: its pid and command line, from
/proc/locks; before, the line said "locked by another taskproto process" whoever held it. One
line, exit 1, nothing written."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from taskproto.engine import Engine
from taskproto.state.lock import lock_path

pytestmark = pytest.mark.skipif(
    not Path("/proc/locks").exists(), reason="the holder is read from Linux's /proc/locks"
)


def _hold(path: str) -> subprocess.Popen[bytes]:
    """`flock PATH sleep 60`: holds the lock until killed (waits until it does)."""
    proc = subprocess.Popen(["flock", path, "sleep", "60"], start_new_session=True)
    for _ in range(500):
        if os.path.exists(path):
            key = f":{os.stat(path).st_ino} "
            if any(key in line for line in Path("/proc/locks").read_text().splitlines()):
                return proc
        time.sleep(0.01)
    proc.kill()
    raise AssertionError("flock never took the lock")


def _child(pid: int) -> int:
    """The one child of `pid` (flock's `sleep`), once it has started."""
    for _ in range(500):
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        if kids:
            return int(kids[0])
        time.sleep(0.01)
    raise AssertionError(f"pid {pid} started no child")


def test_a_lock_held_by_another_program_names_it(engine: Engine, repo: Path, cli) -> None:
    (repo / ".taskproto.toml").write_text("lock_timeout = 0.2\n")
    engine.create_task("t1")
    task_json = engine.config.task_file("t1")
    before = task_json.read_bytes()
    path = lock_path(engine.config.task_dir("t1"))
    holder = _hold(path)
    try:
        r = cli("claim", "t1", env={"TASKPROTO_SESSION": "s1"})
        # flock(1) runs its command as a child that inherits the lock; the kernel lists the
        # process that took it: flock itself
        assert r.code == 1, r.out
        assert r.err.count("\n") == 1, r.err
        head = f"taskproto: task 't1' is locked by pid {holder.pid} on this host (`"
        assert r.err.startswith(head), r.err
        shown = r.err[len(head) :].split("`)", 1)[0]  # its command line, shortened past 120
        assert f"flock {path} sleep 60".startswith(shown.removesuffix("...")), r.err
        assert shown.startswith("flock ") and len(shown) <= 123, shown
        assert r.err.endswith("s); try again once it lets go of the lock\n"), r.err
        assert task_json.read_bytes() == before
        # flock ended, its `sleep` (which inherited the lock) still holds it: named, with the
        # pid that took it
        child = _child(holder.pid)
        holder.kill()
        holder.wait()
        r = cli("claim", "t1", env={"TASKPROTO_SESSION": "s1"})
        assert r.code == 1 and r.err.count("\n") == 1, r.err
        assert r.err.startswith(
            f"taskproto: task 't1' is locked by pid {child} on this host (`sleep 60`), started by "
            f"pid {holder.pid}, which has ended (waited "
        ), r.err
        assert task_json.read_bytes() == before
    finally:
        os.killpg(holder.pid, signal.SIGKILL)
        holder.wait()
    assert cli("claim", "t1", env={"TASKPROTO_SESSION": "s1"}).code == 0


def test_a_holder_that_cannot_be_found_is_said_so() -> None:
    from taskproto.state.lock_holder import holder

    r, w = os.pipe()  # an open file no lock is held on
    try:
        assert holder(r) == (
            "a process that could not be named (no entry for its inode in /proc/locks)"
        )
    finally:
        os.close(r)
        os.close(w)
    assert sys.platform.startswith("linux")

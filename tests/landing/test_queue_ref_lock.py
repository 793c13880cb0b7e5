"""The merge queue and git's lock of a task's journal ref (`refs/taskproto/tasks/<task>.lock`),
left by a worker killed while it held it: the entry waits in the queue while the lock is fresh (a
live git may hold it), the worker lands the others and says so, and once the lock is stale by
doctor's rule the worker repairs it as `doctor --fix` does and lands the task."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from taskproto.engine import Engine
from taskproto.git import reffiles
from tests.conftest import git
from tests.landing.conftest import approved_task


def merges_of(repo: Path, task: str) -> list[str]:
    return git(repo, "log", "--format=%H", f"--grep=^Task: {task}$", "main").split()


def plant_lock(repo: Path, task: str, age: float = 0.0) -> Path:
    """The lock file a git (or a worker) killed while it moved the task's journal ref leaves."""
    lock = repo / ".git" / "refs" / "taskproto" / "tasks" / f"{task}.lock"
    lock.write_text("")
    if age:
        then = time.time() - age
        os.utime(lock, (then, then))
    return lock


def queued(hooked: Engine, cli, *names: str) -> None:
    for name in names:
        approved_task(hooked, name, {f"{name}.py": f"{name} = 1\n"})
        assert cli("queue", "add", name).code == 0


def test_a_fresh_lock_leaves_the_entry_queued_and_the_worker_lands_the_next(
    hooked: Engine, repo: Path, cli
) -> None:
    queued(hooked, cli, "t1", "t2")
    lock = plant_lock(repo, "t1")  # a live git may hold it right now
    r = cli("queue", "run", "--once", "--json")
    assert r.code == 0, r.err
    out = json.loads(r.out)
    assert [(o["task"], o["result"]) for o in out] == [("t1", "waiting"), ("t2", "landed")]
    waiting = out[0]
    assert waiting["lock"] == str(lock)
    assert 0 <= waiting["age_seconds"] < reffiles.LOCK_GRACE_SECONDS
    assert waiting["grace_seconds"] == reffiles.LOCK_GRACE_SECONDS
    assert "refs/taskproto/tasks/t1.lock" in waiting["detail"]
    # left in the queue as it was: not taken, not failed, not sent back; the lock never touched
    listed = json.loads(cli("queue", "list", "--json").out)
    assert [(e["task"], e["status"]) for e in listed] == [("t1", "queued")]
    assert hooked.load("t1").state == "COMPLETE" and merges_of(repo, "t1") == []
    assert len(merges_of(repo, "t2")) == 1
    assert lock.exists()
    # the text output says it too, and a fresh lock is still never removed
    r = cli("queue", "run", "--once")
    assert r.code == 0, r.err
    line = r.out.strip()
    assert line.startswith("t1: waiting: git's lock of its journal ref, "), r.out
    assert "s old" in line and "60 s" in line
    assert lock.exists() and hooked.load("t1").state == "COMPLETE"


def test_a_stale_lock_is_repaired_as_doctor_does_and_the_task_lands(
    hooked: Engine, repo: Path, cli
) -> None:
    queued(hooked, cli, "t1")
    lock = plant_lock(repo, "t1", age=reffiles.LOCK_GRACE_SECONDS + 60)
    r = cli("queue", "run", "--json")
    assert r.code == 0, r.err
    out = json.loads(r.out)
    assert [(o["task"], o["result"]) for o in out] == [("t1", "landed")]
    assert "deleted git's stale ref lock t1.lock" in out[0]["detail"]
    assert not lock.exists()
    assert len(merges_of(repo, "t1")) == 1
    # journaled as doctor's own repair
    log = cli("log", "t1")
    assert "repair journal-ref-locked: deleted git's stale ref lock t1.lock" in log.out, log.out
    assert cli("queue", "list").out == "the queue is empty\n"


def test_a_draining_run_waits_for_a_fresh_lock_and_lands_once_it_goes(
    hooked: Engine, repo: Path, cli
) -> None:
    queued(hooked, cli, "t1")
    lock = plant_lock(repo, "t1")
    env = {k: v for k, v in os.environ.items() if k != "TASKPROTO_SESSION"}
    env["TASKPROTO_NOTIFY_DETACH"] = "0"
    worker = subprocess.Popen(
        [sys.executable, "-m", "taskproto", "queue", "run"],
        cwd=repo,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert worker.stdout is not None
        first = worker.stdout.readline()  # the worker says it waits, then polls the lock
        assert first.startswith("t1: waiting: "), (first, worker.stderr and worker.stderr.read())
        lock.unlink()  # the git that held it is done
        out, err = worker.communicate(timeout=30)
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.communicate()
    assert worker.returncode == 0, err
    assert out.startswith("t1: landed: "), out
    assert len(merges_of(repo, "t1")) == 1


def test_queue_list_says_which_entry_waits_for_a_journal_ref_lock(
    hooked: Engine, repo: Path, cli
) -> None:
    queued(hooked, cli, "t1", "t2", "t3")
    fresh = plant_lock(repo, "t2")
    stale = plant_lock(repo, "t3", age=reffiles.LOCK_GRACE_SECONDS + 60)
    r = cli("queue", "list")
    assert r.code == 0, r.err
    lines = dict(line.split("  ", 1) for line in r.out.splitlines())
    assert "waiting" not in lines["t1"] and "lock" not in lines["t1"]
    assert f"waiting: git's lock of its journal ref, {fresh}, is " in lines["t2"], r.out
    assert "`taskproto queue run` deletes it once it is 60 s old" in lines["t2"]
    assert f"waiting: git's lock of its journal ref, {stale}, is " in lines["t3"], r.out
    assert "stale: `taskproto queue run` (or `taskproto doctor --fix`) deletes it" in lines["t3"]
    listed = {e["task"]: e for e in json.loads(cli("queue", "list", "--json").out)}
    assert [e["status"] for e in listed.values()] == ["queued", "queued", "queued"]
    assert "journal_lock" not in listed["t1"]
    assert listed["t2"]["journal_lock"]["path"] == str(fresh)
    assert listed["t2"]["journal_lock"]["stale"] is False
    assert listed["t3"]["journal_lock"]["stale"] is True
    assert listed["t3"]["journal_lock"]["age_seconds"] >= reffiles.LOCK_GRACE_SECONDS
    assert fresh.exists() and stale.exists()  # listing never deletes a lock

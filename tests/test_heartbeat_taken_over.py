"""A session whose claim was taken over (its heartbeat older than the lease, or its process gone)
and that renews it is told so: taken over by whom, when and why, and what it can do. Found walking
time passing as a new user: the old owner's `taskproto heartbeat` said "owned by s2; claim it first
with `taskproto claim t1`", as if it had never held the task."""

from __future__ import annotations

import subprocess
import sys

from taskproto.engine import Engine


def test_the_old_owners_heartbeat_says_its_claim_was_taken_over(engine: Engine, cli) -> None:
    engine.create_task("t1")
    proc = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    engine.claim("t1", "s1", pid=int(proc.stdout))  # a process that is gone now
    assert engine.claim("t1", "s2").outcome == "takeover"
    r = cli("heartbeat", "t1", env={"TASKPROTO_SESSION": "s1"})
    assert r.code == 1, r.out
    assert r.err.count("\n") == 1, r.err
    assert "your claim on task 't1' was taken over by session s2 at " in r.err
    assert "no longer exists" in r.err  # why: as the takeover's log says
    assert "it is no longer yours" in r.err and "--force (logged)" in r.err
    # a session that never held it is told what it was before
    r = cli("heartbeat", "t1", env={"TASKPROTO_SESSION": "s3"})
    assert r.code == 1 and "owned by s2; claim it first" in r.err


def test_a_heartbeat_from_a_session_whose_process_is_gone_is_refused_and_says_what_to_do(
    engine: Engine, cli, repo
) -> None:
    """Found walking a new user's day: the session's process (TASKPROTO_SESSION_PID) was killed,
    and its `taskproto heartbeat` still printed a renewed time, while any session could take the
    task over at once (an owner whose process is gone is gone, whatever its heartbeat)."""
    engine.create_task("t1")
    proc = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    gone = int(proc.stdout)
    engine.claim("t1", "s1", pid=gone)
    beat = repo / ".taskproto" / "tasks" / "t1" / "heartbeat.json"
    before = beat.read_bytes() if beat.exists() else None
    r = cli("heartbeat", "t1", env={"TASKPROTO_SESSION": "s1"})
    assert r.code == 1, r.out
    assert r.err.count("\n") == 1, r.err
    assert f"was made from this host by pid {gone}, which no longer exists" in r.err
    assert "claim it again from a live session (`taskproto claim t1`)" in r.err
    assert (beat.read_bytes() if beat.exists() else None) == before  # nothing written
    # what it says works: a claim from a live process records that process
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        env = {"TASKPROTO_SESSION": "s1", "TASKPROTO_SESSION_PID": str(live.pid)}
        assert cli("claim", "t1", env=env).code == 0
        assert cli("heartbeat", "t1", env=env).code == 0
    finally:
        live.kill()
        live.wait()

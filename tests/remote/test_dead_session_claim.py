"""A claim on the shared remote whose session is gone (made from this host by a pid that no longer
exists) is not renewed by a heartbeat or a sync run here: it stays as it is, so it expires after
the lease, and doctor names it (`remote-claim-dead-session`). A real bare remote over file://."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

from remote_servers import Server, clone, remote_claim

LEASE_MIN = 0.05  # 3 s: a renewal is pushed once 0.3 s passed since the last


def dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_a_dead_sessions_claim_is_not_renewed_on_the_remote(tmp_path: Path, cli: Any) -> None:
    srv = Server("file", tmp_path)
    try:
        a = clone(srv.make(lease_minutes=LEASE_MIN), tmp_path / "a")
        assert srv.bare is not None
        ghost = {"TASKPROTO_SESSION": "ghost"}
        pid = dead_pid()
        for args in (("task", "create", "t1"), ("claim", "t1", "--pid", str(pid))):
            r = cli(*args, cwd=a, env=ghost)
            assert r.code == 0, r.err
        first = remote_claim(srv.bare, "t1")
        assert first is not None and first["pid"] == pid
        time.sleep(LEASE_MIN * 60 / 10 + 0.1)  # a renewal would be pushed now

        r = cli("heartbeat", "t1", cwd=a, env=ghost)
        assert r.code == 1, r.out
        lines = [line for line in r.err.splitlines() if line.strip()]
        assert lines == [
            f"taskproto: the claim of task 't1' was made from this host by pid {pid}, which no "
            "longer exists, so it is not renewed: it expires after the lease; to go on with the "
            "task, claim it again from a live session (`taskproto claim t1`)"
        ]
        for args, env in ((("heartbeat", "t1"), {"TASKPROTO_SESSION": "bob"}), (("sync",), {})):
            cli(*args, cwd=a, env=env)  # another session here: refused, or nothing
        assert remote_claim(srv.bare, "t1") == first  # untouched: it can expire

        r = cli("doctor", "--json", cwd=a)
        found = [
            (f["check"], f["task"])
            for f in json.loads(r.out)["findings"]
            if f["check"] == "remote-claim-dead-session"
        ]
        assert found == [("remote-claim-dead-session", "t1")]
    finally:
        srv.stop()

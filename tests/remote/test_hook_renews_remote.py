"""With a shared remote, the agent clients' hooks renew the owner's claim on the remote, as
docs/remote.md says ("hooks do this for you"): the remote's claim is the one another machine's
takeover decides by, so a heartbeat written only here would let it expire while the agent works."""

from __future__ import annotations

import json
import os
import time
from datetime import datetime
from pathlib import Path

from remote_servers import Server, clone, remote_claim

from taskproto.hooks.agents.runner import run_agent_hook
from tests.conftest import run_taskproto

PAYLOADS = Path(__file__).resolve().parents[1] / "clients" / "payloads"
LEASE_MIN = 0.03  # 1.8 s: a hook beats every 0.6 s, the remote takes a renewal every 0.18 s


def stop_payload(session: str, cwd: Path) -> bytes:
    data = json.loads((PAYLOADS / "claude" / "Stop.json").read_text())
    data.update(session_id=session, cwd=str(cwd))
    return json.dumps(data).encode()


def test_an_owners_hook_heartbeat_renews_its_claim_on_the_remote(tmp_path: Path) -> None:
    srv = Server("file", tmp_path)
    try:
        a = clone(srv.make(lease_minutes=LEASE_MIN), tmp_path / "a")
        env = {"TASKPROTO_SESSION": "s1", "TASKPROTO_SESSION_PID": str(os.getpid())}
        for args in (("task", "create", "t1"), ("claim", "t1")):
            r = run_taskproto(*args, cwd=a, env=env)
            assert r.code == 0, r.err
        assert srv.bare is not None
        first = remote_claim(srv.bare, "t1")
        assert first is not None
        time.sleep(LEASE_MIN * 60 / 3 + 0.1)  # the hook's heartbeat is due
        base = {k: os.environ.get(k, "") for k in ("PATH", "HOME", "XDG_STATE_HOME")}
        code, _out, err = run_agent_hook(
            "claude", "Stop", stop_payload("s1", a), base, pid=os.getpid()
        )
        assert code == 0, err
        renewed = remote_claim(srv.bare, "t1")
        assert renewed is not None and renewed["session"] == "s1"
        at = datetime.fromisoformat(str(renewed["heartbeat_at"]))
        assert at > datetime.fromisoformat(str(first["heartbeat_at"])), (first, renewed)
        assert renewed["expires_at"] > first["expires_at"]
        assert (a / ".taskproto" / "tasks" / "t1" / "heartbeat.json").exists()
    finally:
        srv.stop()

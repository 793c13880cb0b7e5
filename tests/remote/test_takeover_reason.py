"""A takeover through a shared remote says how long ago the owner's last heartbeat was as the
remote's claim has it (renewed by `heartbeat` on the owner's machine), not as this clone's copy of
the journal has it (the time of the claim: heartbeats are not journaled)."""

from __future__ import annotations

import re
import time
from datetime import datetime
from pathlib import Path

import pytest
from remote_servers import Server, clone, ok, remote_claim

LEASE_S = 1.2


@pytest.mark.slow  # about 5 s: two clones, six commands and a lease run out
def test_a_remote_takeover_names_the_remotes_last_heartbeat(tmp_path: Path) -> None:
    srv = Server("file", tmp_path)
    try:
        url = srv.make(lease_minutes=LEASE_S / 60)
        a, b = clone(url, tmp_path / "a"), clone(url, tmp_path / "b")
        ok(a, "task", "create", "t1")
        ok(a, "claim", "t1", session="alice")
        ok(b, "sync")
        time.sleep(1.0)
        ok(a, "heartbeat", "t1", session="alice")  # renews the remote claim
        assert srv.bare is not None
        claim = remote_claim(srv.bare, "t1")
        assert claim is not None
        beat = datetime.fromisoformat(str(claim["heartbeat_at"])).timestamp()
        claimed = datetime.fromisoformat(str(claim["claimed_at"])).timestamp()
        assert beat - claimed >= 0.9
        while time.time() < beat + LEASE_S + 0.1:  # until the remote claim has expired
            time.sleep(0.05)
        before = time.time()
        out = ok(b, "claim", "t1", session="bob")
        after = time.time()
        assert "taken over from alice" in out, out
        found = re.search(r"its last heartbeat was ([0-9.]+) seconds ago", out)
        assert found is not None, out
        age = float(found.group(1))
        # the remote's heartbeat, not the claim's time this clone's journal holds
        assert before - beat - 0.1 <= age <= after - beat + 0.1, (out, before - claimed)
        assert "on remote 'origin'" in out, out
    finally:
        srv.stop()

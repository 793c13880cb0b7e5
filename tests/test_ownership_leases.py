"""Ownership and leases: removing another live session's task, heartbeats renewed by every command
the owner runs."""

from __future__ import annotations

import json
import os
import re
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from taskproto.engine import Engine
from taskproto.errors import when
from taskproto.state import beat, journal
from tests.conftest import run_taskproto


def _beat(engine: Engine, name: str = "t1") -> dict[str, Any] | None:
    return beat.read(str(engine.config.task_dir(name)))


def test_every_command_the_owner_runs_renews_its_heartbeat(engine: Engine, cli: Any) -> None:
    engine.create_task("t1")
    engine.claim("t1", "owner-1", pid=os.getpid())
    Path(beat.path(str(engine.config.task_dir("t1")))).unlink(missing_ok=True)
    before = engine.config.task_file("t1").read_bytes()
    r = cli("task", "show", "t1", env={"TASKPROTO_SESSION": "owner-1"})
    assert r.code == 0, r.err
    found = _beat(engine)
    assert found is not None and found["session"] == "owner-1" and found["pid"] == os.getpid()
    assert engine.config.task_file("t1").read_bytes() == before  # liveness is not history


def test_task_show_prints_the_last_heartbeat_not_the_claim_time(engine: Engine, repo: Path) -> None:
    engine.create_task("t1")
    claimed = run_taskproto("claim", "t1", cwd=repo, env={"TASKPROTO_SESSION": "owner-1"})
    assert claimed.code == 0, claimed.err
    time.sleep(1.1)  # the text shows seconds
    renewed = run_taskproto(
        "heartbeat", "t1", "--json", cwd=repo, env={"TASKPROTO_SESSION": "owner-1"}
    )
    assert renewed.code == 0, renewed.err
    found = _beat(engine)  # the owner's last sign of life: in heartbeat.json, not in task.json
    assert found is not None
    beat_at = found["at"]
    claimed_at = engine.load("t1").owner.claimed_at  # type: ignore[union-attr]
    for quick in ("1", "0"):  # the quick read path and the full command
        env = {"TASKPROTO_QUICK": quick}
        shown = json.loads(run_taskproto("task", "show", "t1", "--json", cwd=repo, env=env).out)
        assert shown["owner"]["heartbeat_at"] == beat_at
        assert shown["owner"]["claimed_at"] == claimed_at.isoformat()
        text = run_taskproto("task", "show", "t1", cwd=repo, env=env).out
        assert (
            f"since {when(claimed_at)}, heartbeat {when(datetime.fromisoformat(beat_at))}" in text
        )


def test_another_sessions_command_and_a_refused_one_renew_nothing(engine: Engine, cli: Any) -> None:
    engine.create_task("t1")
    engine.claim("t1", "owner-1", pid=os.getpid())
    Path(beat.path(str(engine.config.task_dir("t1")))).unlink(missing_ok=True)
    assert cli("task", "show", "t1", env={"TASKPROTO_SESSION": "someone-else"}).code == 0
    assert _beat(engine) is None
    r = cli("fire", "t1", "no-such-trigger", env={"TASKPROTO_SESSION": "owner-1"})
    assert r.code != 0
    assert _beat(engine) is None  # a refused command writes nothing


def test_task_remove_of_a_task_a_live_session_owns_is_refused(
    engine: Engine, cli: Any, repo: Path
) -> None:
    engine.create_task("t1", ["a"])
    engine.claim("t1", "owner-1", pid=os.getpid())  # this test's process: alive
    r = cli("task", "remove", "t1", env={"TASKPROTO_SESSION": "other"})
    assert r.code == 1 and len(r.err.strip().splitlines()) == 1
    assert "owner-1" in r.err and "--force" in r.err
    assert engine.config.task_file("t1").exists()
    r = cli("task", "remove", "t1", "--json", env={"TASKPROTO_SESSION": "other"})
    assert r.code == 1 and "owner-1" in json.loads(r.err)["error"]
    # its owner may remove it; --force may too, and that is logged in the archived journal
    r = cli("task", "remove", "t1", "--force", env={"TASKPROTO_SESSION": "other"})
    assert r.code == 0, r.err
    archived = [ref for ref in engine.git.for_each_ref(journal.ARCHIVE_PREFIX) if "/t1/" in ref]
    assert archived
    sha = archived[0].split()[1]
    task_json = json.loads(engine.git.show_file(sha, "task.json") or b"{}")
    last = task_json["transition_log"][-1]
    assert last["forced"] and "owner-1" in last["note"] and last["session"] == "other"


def test_task_remove_by_its_owner_or_of_a_dead_owners_task(engine: Engine, cli: Any) -> None:
    engine.create_task("t1")
    engine.claim("t1", "owner-1", pid=os.getpid())
    assert cli("task", "remove", "t1", env={"TASKPROTO_SESSION": "owner-1"}).code == 0
    engine.create_task("t2")
    import subprocess

    dead = subprocess.Popen(["true"])
    dead.wait()
    engine.claim("t2", "gone-1", pid=dead.pid)
    assert cli("task", "remove", "t2", env={"TASKPROTO_SESSION": "other"}).code == 0


def test_a_lapse_under_a_minute_says_how_many_seconds(repo: Path, cli: Any) -> None:
    """A lease of seconds (`lease_minutes = 0.02`): the takeover says how long ago the owner's
    last heartbeat was and what the lease is in seconds, not "0 minutes ago (lease 0.02 min)"."""
    (repo / ".taskproto.toml").write_text("lease_minutes = 0.02\n")
    assert cli("task", "create", "t1").code == 0
    assert cli("claim", "t1", env={"TASKPROTO_SESSION": "owner-1"}).code == 0
    time.sleep(1.6)
    r = cli("claim", "t1", env={"TASKPROTO_SESSION": "owner-2"})
    assert r.code == 0, r.err
    assert re.search(
        r"taken over from owner-1 \(its last heartbeat was [12](\.\d)? seconds ago "
        r"\(lease 1\.2 seconds\)\)",
        r.out,
    ), r.out

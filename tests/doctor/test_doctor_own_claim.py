"""The owner who runs doctor is alive: doctor is one of its commands, and renews its heartbeat
before it judges the owners (a user back from a break who runs `doctor --fix` keeps the task)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from tests.conftest import run_taskproto

LEASE_MINUTES = 0.002  # 0.12 s: the heartbeat is older than the lease after a short wait


def _claimed_then_idle(repo: Path, env: dict[str, str]) -> None:
    (repo / ".taskproto.toml").write_text(f"lease_minutes = {LEASE_MINUTES}\n")
    assert run_taskproto("task", "create", "t", cwd=repo).code == 0
    assert run_taskproto("claim", "t", cwd=repo, env=env).code == 0
    time.sleep(LEASE_MINUTES * 60 + 0.3)  # the lease runs out: nothing ran since the claim


def test_doctor_fix_run_by_the_owner_keeps_its_claim(repo: Path) -> None:
    me = {"TASKPROTO_SESSION": "alice", "TASKPROTO_SESSION_PID": str(os.getpid())}
    _claimed_then_idle(repo, me)
    r = run_taskproto("doctor", "--fix", "--json", cwd=repo, env=me)
    assert r.code == 0, r.err
    report = json.loads(r.out)
    assert report["fixes"] == [] and report["findings"] == []
    shown = json.loads(run_taskproto("task", "show", "t", "--json", cwd=repo, env=me).out)
    assert shown["owner"]["session"] == "alice"


def test_doctor_run_by_another_session_still_finds_the_owner_gone(repo: Path) -> None:
    me = {"TASKPROTO_SESSION": "alice", "TASKPROTO_SESSION_PID": str(os.getpid())}
    _claimed_then_idle(repo, me)
    r = run_taskproto("doctor", cwd=repo, env={"TASKPROTO_SESSION": "bob"})
    assert r.code == 1
    assert "owner-gone" in r.out and "owner session alice is gone" in r.out

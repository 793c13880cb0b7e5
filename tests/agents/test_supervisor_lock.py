"""The supervisor's lock let go after its pid already looks dead: a killed supervisor serving a
sandboxed agent's channel has threads, and its pid is a zombie while they still exit holding its
files, `supervisor.lock` among them (about 1 kill in 5 here). `agent ps` then saw the lock held
with a dead pid written ("one is starting"), waited without starting one, and failed after 10 s
with an empty supervisor.log once the lock was free: the sandboxed restart scenario's flake."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from taskproto.ops.agent_records import holders
from tests.agents.conftest import (
    pid_alive,
    ps,
    standin_client,
    start_agent,
    start_headless,
    wait_until,
)

# a process holding the lock as the dying supervisor's last thread does, until its stdin closes
HOLDER = (
    "import fcntl, os, sys\n"
    "fd = os.open(sys.argv[1], os.O_RDWR)\n"
    "fcntl.flock(fd, fcntl.LOCK_EX)\n"
    "print('held', flush=True)\n"
    "sys.stdin.read()\n"
)


def lock_holders(path: Path) -> set[int]:
    return set(holders(path))


def test_ps_starts_a_supervisor_once_a_dead_ones_lock_is_let_go(
    agents_repo: Path, cli, standin: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    first = start_headless(cli, standin)
    root = agents_repo / ".taskproto"
    lock = root / "supervisor.lock"
    old = json.loads((root / "supervisor.json").read_text())["pid"]
    # its agent and what it started never inherit the lock's fd (a child between its fork and
    # its exec may hold it for a moment)
    wait_until(lambda: lock_holders(lock) == {old}, what="the supervisor alone holding its lock")
    os.kill(old, signal.SIGKILL)
    wait_until(lambda: not lock_holders(lock), what="the supervisor's end")
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(lock)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        real_sleep = time.sleep

        def sleep(seconds: float) -> None:  # `agent ps` looked once: the lock is let go now
            if holder.poll() is None:
                assert holder.stdin is not None
                holder.stdin.close()
                holder.wait()
            real_sleep(seconds)

        monkeypatch.setattr(time, "sleep", sleep)
        started = time.monotonic()
        row = ps(cli)[0]
        monkeypatch.undo()
        assert time.monotonic() - started < 5
        assert row["pid"] == first["pid"] and row["state"] == "running"  # adopted
        new = json.loads((root / "supervisor.json").read_text())["pid"]
        assert new != old and pid_alive(new)
    finally:
        holder.kill()
        holder.wait()


def test_a_lock_held_by_a_process_that_is_no_supervisor_is_named(agents_repo: Path) -> None:
    """Someone else's flock on supervisor.lock (no child of a supervisor inherits it): the
    refusal names that process instead of pointing at an empty supervisor.log."""
    from taskproto.config import load_config
    from taskproto.errors import TaskprotoError
    from taskproto.ops import supervisor

    config = load_config(agents_repo)
    config.root.mkdir(parents=True, exist_ok=True)
    lock = config.root / "supervisor.lock"
    lock.touch()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(lock)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        with pytest.raises(TaskprotoError) as refused:
            supervisor.ensure(config, timeout=0.3)
        message = str(refused.value)
        assert f"{lock} is held by pid {holder.pid} (" in message, message
        assert "which is not a supervisor; end that process, then run this again" in message
        assert "\n" not in message
        assert not (config.root / "supervisor.json").exists()  # none was started
    finally:
        holder.kill()
        holder.wait()


def test_an_agent_asked_for_while_the_supervisor_leaves_is_started(
    agents_repo: Path, cli, standin: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A start in the moment between the supervisor's last idle look and its end found it alive
    (`ensure` returned its pid), and nobody ever started that agent: the board's start in the
    agents' day failed so on a loaded CI run ("did not start within 15s"). A leaving supervisor
    looks at the records once more under their lock, the lock every start writes under: a record
    written while it leaves is its own to start. Here the test holds that lock past the idle
    time, writes a start into it, and never asks for a supervisor: the leaving one must start
    the agent. Before, it ended and the agent stayed `starting`."""
    from taskproto.config import load_config
    from taskproto.ops import agent_records as rec

    monkeypatch.setenv("TASKPROTO_SUPERVISOR_IDLE", "1")
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    first = start_agent(cli, f"{standin_client(standin)} done")  # exits 0 at once
    config = load_config(agents_repo)
    wait_until(lambda: ps(cli)[0]["state"] == "exited", what="the first run's end")
    leaving = json.loads((config.root / "supervisor.json").read_text())["pid"]
    with rec.records_lock(config):
        time.sleep(2.5)  # past the idle time: the supervisor is leaving, and waits for this lock
        record = rec.read(config, "t1", "dev")
        assert record is not None and record["session"] == first["session"]
        record.update(
            want=rec.RUNNING, state=rec.STARTING, pid=None, client=standin_client(standin)
        )
        rec.write(config, record)
    started = rec.wait_for(config, "t1", "dev", lambda r: r["state"] != rec.STARTING, 15)
    assert started is not None and started["state"] == rec.RUNNING, started
    assert json.loads((config.root / "supervisor.json").read_text())["pid"] == leaving
    assert pid_alive(leaving)

"""doctor warns about a process working in an agent's worktree outside the sandbox, and not about
one inside it (`agent-outside-sandbox`)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from taskproto.engine import Engine
from tests.sandbox.conftest import needs_bwrap


def findings(cli) -> list[dict[str, object]]:
    r = cli("doctor", "--json")
    return [f for f in json.loads(r.out)["findings"] if f["check"] == "agent-outside-sandbox"]


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen[bytes]]]:
    procs: list[subprocess.Popen[bytes]] = []
    try:
        yield procs
    finally:
        for proc in procs:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()


def test_a_process_in_an_agents_worktree_outside_the_sandbox_is_reported(
    sandboxed: Engine, cli, started: list[subprocess.Popen[bytes]]
) -> None:
    assert findings(cli) == []
    worktree = sandboxed.config.agent_worktree("t", "qa")
    started.append(subprocess.Popen(["sleep", "60"], cwd=worktree, start_new_session=True))
    found = findings(cli)
    assert [(f["task"], f["agent"], f["severity"]) for f in found] == [("t", "qa", "warning")]
    assert found[0]["message"] == (
        f"process {started[0].pid} (sleep) works in agent qa's worktree of task t outside a sandbox"
    )


@needs_bwrap
def test_a_process_in_the_sandbox_is_not(
    sandboxed: Engine, repo: Path, cli, started: list[subprocess.Popen[bytes]]
) -> None:
    worktree = str(sandboxed.config.agent_worktree("t", "dev"))
    started.append(
        subprocess.Popen(
            [sys.executable, "-m", "taskproto", "agent", "exec", "t", "dev", "--", "sleep", "60"],
            cwd=repo,
            start_new_session=True,
        )
    )
    own = os.readlink("/proc/self/ns/user")
    deadline = time.monotonic() + 20
    while not _sandboxed_in(worktree, own):
        assert time.monotonic() < deadline, "the sandboxed sleep did not start"
        time.sleep(0.05)
    assert findings(cli) == []


def _sandboxed_in(worktree: str, own: str) -> bool:
    for entry in os.listdir("/proc"):
        try:
            if (
                entry.isdigit()
                and os.readlink(f"/proc/{entry}/cwd") == worktree
                and os.readlink(f"/proc/{entry}/ns/user") != own
            ):
                return True
        except OSError:
            continue
    return False

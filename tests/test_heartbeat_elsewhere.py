"""A heartbeat of a session whose process is gone does what it does from the worktree's root
wherever it runs: from a subfolder of the worktree, from another worktree of the repository, from a
folder outside it (/tmp) with the task named. `taskproto heartbeat` is refused in one line and
writes nothing (docs/sessions.md); the client's hook, run by a live client, records that client's
process in the claim (journaled), as a `claim` from a live process does. Real subprocesses."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from taskproto.engine import Engine
from tests.conftest import git, run_taskproto
from tests.hooks.agents.conftest import payload

SESSION = "s1"
PLACES = ["root", "subfolder", "another worktree", "outside"]


def gone_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


@pytest.fixture
def claimed(engine: Engine, repo: Path) -> tuple[Engine, int]:
    """Task t1 with agent dev, claimed by session s1 from a process that is gone now."""
    engine.create_task("t1", ["dev"])
    pid = gone_pid()
    engine.claim("t1", SESSION, pid=pid)
    return engine, pid


def place(engine: Engine, repo: Path, where: str) -> Path:
    wt = engine.config.agent_worktree("t1", "dev")
    if where == "root":
        return wt
    if where == "subfolder":
        (wt / "src" / "deep").mkdir(parents=True, exist_ok=True)
        return wt / "src" / "deep"
    if where == "another worktree":
        other = repo.parent / "mine"
        if not other.exists():
            git(repo, "worktree", "add", "-q", "-b", "mine", str(other))
        return other
    return Path(tempfile.mkdtemp(dir=repo.parent))  # outside the repository


def files(engine: Engine) -> dict[str, bytes | None]:
    folder = engine.config.task_dir("t1")
    return {
        name: (folder / name).read_bytes() if (folder / name).exists() else None
        for name in ("task.json", "heartbeat.json")
    }


@pytest.mark.parametrize("where", PLACES)
def test_the_cli_refuses_the_heartbeat_of_a_gone_session_from_anywhere(
    claimed: tuple[Engine, int], repo: Path, where: str
) -> None:
    engine, pid = claimed
    cwd = place(engine, repo, where)
    before = files(engine)
    r = run_taskproto("heartbeat", "t1", cwd=cwd, env={"TASKPROTO_SESSION": SESSION})
    assert r.code == 1, (r.out, r.err)
    assert r.out == ""
    assert r.err.splitlines() == [
        f"taskproto: the claim of task 't1' was made from this host by pid {pid}, which no "
        "longer exists, so it is not renewed: any session may take the task over now; to go on "
        "with the task, claim it again from a live session (`taskproto claim t1`)"
    ]
    assert files(engine) == before


@pytest.mark.parametrize("where", PLACES)
def test_the_hook_of_a_live_client_records_its_process_from_anywhere(
    claimed: tuple[Engine, int], repo: Path, where: str
) -> None:
    engine, pid = claimed
    cwd = place(engine, repo, where)
    client = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        data = payload("claude", "Stop", session_id=SESSION, cwd=str(cwd))
        proc = subprocess.run(
            [sys.executable, "-m", "taskproto", "hook", "claude", "Stop"],
            input=data, cwd=cwd, env={**__import__("os").environ, "CLAUDE_PID": str(client.pid)},
            capture_output=True, check=False,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        assert proc.stderr == b"", proc.stderr
        task = json.loads((engine.config.task_dir("t1") / "task.json").read_text())
        assert task["owner"]["session"] == SESSION
        assert task["owner"]["pid"] == client.pid  # the live client's, not the gone one
    finally:
        client.kill()
        client.wait()

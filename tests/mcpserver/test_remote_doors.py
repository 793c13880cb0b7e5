"""The MCP server's doors that the CLI's tests cover and its own did not: a heartbeat of a session
whose process is gone, or whose claim was taken over, is refused with the CLI's line (the `--force`
advice the user's command); the `ready` tool, which syncs first with a shared remote as `taskproto
sync` does, publishes a journal landed while the remote was off, and never overwrites another
journal of that name on the remote. The MCP server has no `resume` and no `sync` tool (docs/mcp.md):
`status` gives a task's instructions, and `ready` syncs. The real `taskproto mcp` process, the CLI
as a subprocess, a bare remote on disk."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio

from taskproto.config import load_config
from taskproto.engine import Engine
from tests.conftest import commit_file, git, run_taskproto
from tests.hooks.agents.conftest import move_to
from tests.landing.conftest import SESSION
from tests.remote.remote_servers import ok
from tests.remote.sync_conflicts import landed_conflict
from tests.remote.test_landed_before_remote import _remote_journals

from .conftest import connect, refused
from .conftest import ok as tool_ok


def _gone_pid() -> int:
    proc = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    return int(proc.stdout)


def test_a_heartbeat_of_a_gone_or_taken_over_session_is_refused_as_the_cli_refuses_it(
    engine: Engine, repo: Path
) -> None:
    engine.create_task("t1")
    gone = _gone_pid()
    engine.claim("t1", "s1", pid=gone)  # s1's process is gone
    engine.create_task("t2")
    engine.claim("t2", "s1", pid=_gone_pid())
    assert engine.claim("t2", "s2").outcome == "takeover"  # s2 took t2 over from s1
    before = {n: engine.config.task_file(n).read_bytes() for n in ("t1", "t2")}
    beat = engine.config.task_dir("t1") / "heartbeat.json"
    beat_before = beat.read_bytes() if beat.exists() else None
    lines: dict[str, str] = {}

    async def main() -> None:
        async with connect(repo, "s1") as client:
            for name in ("t1", "t2"):
                lines[name] = await refused(client, "heartbeat", task=name)

    anyio.run(main)
    cli = {
        n: run_taskproto("--session", "s1", "heartbeat", n, cwd=repo).err.strip()
        for n in ("t1", "t2")
    }
    assert lines["t1"] == cli["t1"], lines["t1"]  # no --force in it: word for word
    assert f"was made from this host by pid {gone}, which no longer exists" in lines["t1"]
    assert "claim it again from a live session (`taskproto claim t1`)" in lines["t1"]
    assert lines["t2"].split("; ")[0] == cli["t2"].split("; ")[0], (lines["t2"], cli["t2"])
    assert "your claim on task 't2' was taken over by session s2 at " in lines["t2"]
    assert "ask the user to" in lines["t2"] and "`taskproto claim t2 --force`" in lines["t2"]
    assert {n: engine.config.task_file(n).read_bytes() for n in ("t1", "t2")} == before
    assert (beat.read_bytes() if beat.exists() else None) == beat_before  # nothing renewed


async def _ready(repo: Path) -> dict[str, Any]:
    async with connect(repo, SESSION) as client:
        return await tool_ok(client, "ready")


def test_ready_publishes_a_landed_journal_and_never_overwrites_another_one(
    tmp_path: Path,
) -> None:
    """As tests/remote/test_landed_before_remote.py does with `sync`: a conflict first (the remote
    holds another task of the name), then a journal landed while the remote was off."""
    a, bare = landed_conflict(tmp_path)  # the conflict, said once by init --remote
    b = tmp_path / "b"  # the clone that made another t, on the remote first
    landed_t = git(a, "for-each-ref", "--format=%(objectname)", "refs/taskproto/archive/t/")
    before = _remote_journals(bare)
    said = []
    for _ in range(2):  # through the tool, twice: still nothing overwritten
        queue = anyio.run(_ready, a)
        said.append(queue["sync_conflicts"])
        assert _remote_journals(bare) == before
    # the conflict in `taskproto sync`'s words, where the tool's sync met it (then adopted)
    there = before["refs/taskproto/tasks/t"][:12]
    assert said == [
        {
            "t": f"landed here, but remote 'shared' holds another journal of that name ({there}), "
            "so its journal here was not published (a task waiting for it on another machine "
            "waits); nothing was overwritten"
        },
        {},
    ], said
    assert [r["name"] for r in queue["ready"]] == ["t"], queue  # the remote's t, adopted
    # the landed t's journal stays here, archived
    assert git(a, "for-each-ref", "--format=%(objectname)", "refs/taskproto/archive/t/") == landed_t

    ok(a, "task", "create", "v")
    ok(a, "task", "create", "w", "--after", "v")
    anyio.run(_ready, a)  # publishes v and w
    before = _remote_journals(bare)
    settings = (a / ".taskproto.toml").read_text()
    (a / ".taskproto.toml").unlink()  # the remote off: v done and landed here only
    engine = Engine(load_config(a))  # its settings read without the remote
    engine.claim("v", SESSION)
    move_to(engine, "v", "IMPLEMENTATION")
    commit_file(engine.config.task_worktree("v"), "v.py", "v = 1\n", "v: v.py")
    move_to(engine, "v", "AWAITING_USER_APPROVAL")
    engine.approve("v", "commit", "user")
    engine.fire("v", target="COMPLETE", session=SESSION)
    ok(a, "land", "v", session=SESSION)
    landed_v = git(a, "for-each-ref", "--format=%(objectname)", "refs/taskproto/archive/v/")
    assert _remote_journals(bare)["refs/taskproto/tasks/v"] == before["refs/taskproto/tasks/v"]
    (a / ".taskproto.toml").write_text(settings)

    queue = anyio.run(_ready, a)  # the tool's sync publishes v's landed journal
    after = _remote_journals(bare)
    assert after["refs/taskproto/tasks/v"] == landed_v
    assert after["refs/taskproto/tasks/t"] == before["refs/taskproto/tasks/t"]
    assert "w" in [r["name"] for r in queue["ready"]], queue  # the landing met w's dependency
    assert json.loads(ok(b, "sync", "--json"))["landed_elsewhere"] == ["v"]

"""`task show` says when the task's owner is provably gone, as the board does (sessions.liveness),
and offers the board's command for it; both the quick and the full path, text and --json."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from taskproto.engine import Engine
from tests.cli.test_quick_read_path import run


def dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_show_says_the_owner_is_gone_and_how_to_take_over(engine: Engine, repo: Path) -> None:
    engine.create_task("t")
    pid = dead_pid()
    engine.claim("t", "s-dead", pid)
    quick = run(repo, "task", "show", "t")
    full = run(repo, "task", "show", "t", quick=False)
    assert quick[3] == "quick" and quick[:3] == full[:3]
    line = next(x for x in full[1].splitlines() if x.startswith("  owner gone"))
    assert line.startswith(f"  owner gone s-dead's session is gone (its process {pid} on ")
    assert line.endswith("take the task over with `taskproto claim t`")
    data = json.loads(run(repo, "task", "show", "t", "--json", quick=False)[1])
    assert data["owner_gone"]["session"] == "s-dead"
    assert data["owner_gone"]["command"] == "taskproto claim t"
    assert f"its process {pid}" in data["owner_gone"]["reason"]
    assert json.loads(run(repo, "task", "show", "t", "--json")[1]) == data
    # the board's Claim that the line offers takes it over, no --force
    assert engine.claim("t", "s-new").outcome == "takeover"


def test_a_live_owner_or_none_is_not_gone(engine: Engine, repo: Path) -> None:
    engine.create_task("t")
    shown = run(repo, "task", "show", "t")
    assert "owner gone" not in shown[1]
    assert json.loads(run(repo, "task", "show", "t", "--json")[1])["owner_gone"] is None
    engine.claim("t", "s-live")  # no pid: alive until its lease runs out
    for quick in (True, False):
        assert "owner gone" not in run(repo, "task", "show", "t", quick=quick)[1]

"""`taskproto task list --watch`: the board's information in a terminal, redrawn on changes."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

from taskproto.engine import Engine
from tests.board.conftest import wait_for
from tests.board.scenario import build
from tests.conftest import run_taskproto


def test_watch_redraws_when_the_cli_changes_a_task(repo: Path, engine: Engine) -> None:
    build(engine)
    proc = subprocess.Popen(
        [sys.executable, "-m", "taskproto", "task", "list", "--watch"],
        cwd=repo,
        env=dict(os.environ),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    out: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            out.append(line)

    threading.Thread(target=read, daemon=True).start()
    try:
        first = wait_for(lambda: "widget" in "".join(out) and "".join(out), what="a first frame")
        assert "waits for commit approval" in first
        assert "working  claude dev (PreToolUse" in first
        assert "interrupted (QUESTION)" in first
        moved = run_taskproto(
            "--session",
            "s-parser-2",
            "agent",
            "set",
            "parser",
            "qa",
            "--status",
            "error",
            cwd=repo,
        )
        assert moved.code == 0, moved.err
        wait_for(lambda: "qa ERROR" in "".join(out), what="the redrawn frame")
        assert proc.poll() is None
    finally:
        proc.terminate()
        proc.wait(10)


def test_watch_has_no_json(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("task", "list", "--watch", "--json")
    assert result.code == 2

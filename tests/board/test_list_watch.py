"""`taskproto task list --watch`: the board's information in a terminal, redrawn on changes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from taskproto.engine import Engine
from tests.board.conftest import wait_for
from tests.board.scenario import build
from tests.board.watch import list_watch
from tests.conftest import run_taskproto


def test_watch_redraws_when_the_cli_changes_a_task(repo: Path, engine: Engine) -> None:
    build(engine)
    with list_watch(repo) as watch:
        first = wait_for(lambda: "widget" in watch.text() and watch.text(), what="a first frame")
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
        wait_for(lambda: "qa ERROR" in watch.text(), what="the redrawn frame")
        assert watch.proc.poll() is None


def test_watch_has_no_json(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("task", "list", "--watch", "--json")
    assert result.code == 2


def test_a_task_being_created_is_not_listed_as_broken(
    repo: Path, engine: Engine, tmp_path: Path
) -> None:
    # a `task create` held half-way by a post-checkout hook (its worktrees are being checked
    # out) while the listings are read: the new task is not there yet, and nothing is broken
    engine.create_task("first", [])
    gate = tmp_path / "gate"
    hook = repo / ".git" / "hooks" / "post-checkout"
    hook.write_text(f"#!/bin/sh\nwhile [ ! -e '{gate}' ]; do sleep 0.05; done\n")
    hook.chmod(0o755)
    create = subprocess.Popen(
        [sys.executable, "-m", "taskproto", "task", "create", "second", "--agents", "a"],
        cwd=repo,
        env=dict(os.environ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        with list_watch(repo) as watch:
            wait_for(lambda: (engine.config.task_dir("second") / "creating.json").exists())
            for args in (["task", "list"], ["ready", "--all"]):
                for quick in ("1", "0"):
                    r = run_taskproto(*args, cwd=repo, env={"TASKPROTO_QUICK": quick})
                    assert r.code == 0 and "first" in r.out, r.err
                    assert "BROKEN" not in r.out and "second" not in r.out
            rows = json.loads(run_taskproto("task", "list", "--json", cwd=repo).out)
            assert [r["name"] for r in rows] == ["first"]
            frame = wait_for(lambda: "first" in watch.text() and watch.text(), what="a first frame")
            assert "BROKEN" not in frame and "second" not in frame
            gate.touch()
            assert create.wait(60) == 0, create.communicate()
            wait_for(lambda: "second" in watch.text(), what="the frame with the new task")
            assert "BROKEN" not in watch.text()
    finally:
        gate.touch()
        create.wait(60)

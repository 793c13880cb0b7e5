"""`taskproto task list --watch`: the board's information in a terminal, redrawn on changes."""

from __future__ import annotations

import json
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
    watch = subprocess.Popen(
        [sys.executable, "-m", "taskproto", "task", "list", "--watch"],
        cwd=repo,
        env=dict(os.environ),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    out: list[str] = []

    def read() -> None:
        assert watch.stdout is not None
        for line in watch.stdout:
            out.append(line)

    threading.Thread(target=read, daemon=True).start()
    try:
        wait_for(lambda: (engine.config.task_dir("second") / "creating.json").exists())
        for args in (["task", "list"], ["ready", "--all"]):
            for quick in ("1", "0"):
                r = run_taskproto(*args, cwd=repo, env={"TASKPROTO_QUICK": quick})
                assert r.code == 0 and "first" in r.out, r.err
                assert "BROKEN" not in r.out and "second" not in r.out
        rows = json.loads(run_taskproto("task", "list", "--json", cwd=repo).out)
        assert [r["name"] for r in rows] == ["first"]
        frame = wait_for(lambda: "first" in "".join(out) and "".join(out), what="a first frame")
        assert "BROKEN" not in frame and "second" not in frame
        gate.touch()
        assert create.wait(60) == 0, create.communicate()
        wait_for(lambda: "second" in "".join(out), what="the frame with the new task")
        assert "BROKEN" not in "".join(out)
    finally:
        gate.touch()
        watch.terminate()
        watch.wait(10)
        create.wait(60)

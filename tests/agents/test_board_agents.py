"""The board's agent controls against a real `taskproto board` process: start, pause, resume and
stop an agent as the CLI does, its run on the task's card (state, pid, log tail), and every agent
in /api/agents."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from tests.agents.conftest import pid_alive, wait_until
from tests.board.watch import list_watch


def test_the_board_starts_pauses_resumes_and_stops_an_agent(
    agents_repo: Path, cli: Any, standin: Path, board_for: Any
) -> None:
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    board = board_for(agents_repo, "--no-doctor")
    client = f"{sys.executable} {standin}"
    started = board.post(
        "/api/tasks/t1/agents/dev/start", {"client": client, "headless": True, "prompt": "go"}
    )
    assert started.status == 200, started.body
    pid = started.json()["pid"]
    assert pid_alive(pid)

    def run() -> dict[str, Any]:
        return board.get("/api/tasks/t1").json()["agents"][0]["run"]

    card = wait_until(lambda: (r := run())["log_tail"] and r, what="the log on the card")
    assert card["state"] == "running" and card["pid"] == pid and card["mode"] == "headless"
    assert card["log_tail"] == ["stand-in run 0 says 'go'"]
    assert card["sandbox"] == "none"  # said plainly on the card: the agent runs unconfined
    assert "sandbox: none" in board.get("/tasks/t1").body.decode()
    assert board.get("/api/agents").json()["agents"][0]["pid"] == pid
    assert board.post("/api/tasks/t1/agents/dev/pause").json()["state"] == "paused"
    assert run()["state"] == "paused"
    assert board.post("/api/tasks/t1/agents/dev/resume").json()["state"] == "running"
    stopped = board.post("/api/tasks/t1/agents/dev/stop")
    assert stopped.json()["state"] == "stopped" and not pid_alive(pid)
    refused = board.post("/api/tasks/t1/agents/dev/pause")
    assert refused.status == 409
    assert "is not running; start it with `taskproto agent start t1 dev`" in refused.json()["error"]
    html = board.get("/tasks/t1").body.decode()
    assert 'data-action="restart"' in html and "Start again" in html


def test_task_list_watch_shows_each_agents_run(agents_repo: Path, cli: Any, standin: Path) -> None:
    assert cli("task", "create", "t1", "--agents", "dev,qa").code == 0
    with list_watch(agents_repo) as watch:
        wait_until(lambda: "agents: dev PENDING, qa PENDING" in watch.text(), what="a frame")
        started = cli(
            "agent",
            "start",
            "t1",
            "dev",
            "--client",
            f"{sys.executable} {standin}",
            "--headless",
            "--prompt",
            "go",
            "--json",
        )
        pid = __import__("json").loads(started.out)["pid"]
        wait_until(
            lambda: (
                f"dev PENDING [running: {sys.executable} {standin} headless, pid {pid}]"
                in watch.text()
            ),
            what="the agent's run in the frame",
        )


def test_the_boards_start_offers_every_client_headless_or_in_tmux(
    agents_repo: Path, cli: Any, standin: Path, board_for: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    import json
    import os
    import shutil

    if shutil.which("tmux") is None:
        import pytest

        pytest.skip("tmux is not installed")
    folder = tmp_path / "bin"  # claude, codex and gemini here are the stand-in, saying its argv
    folder.mkdir()
    for name in ("claude", "codex", "gemini"):
        (folder / name).write_text(f'#!/bin/sh\nexec {sys.executable} {standin} "$@"\n')
        (folder / name).chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    assert cli("task", "create", "t1", "--agents", "a,b,c,d").code == 0
    board = board_for(agents_repo, "--no-doctor")
    html = board.get("/tasks/t1").body.decode()
    for offered in ('value="claude"', 'value="codex"', 'value="gemini"', 'value="command"'):
        assert offered in html
    assert 'class="agent-headless"' in html and 'data-action="start"' in html
    asked = {
        "a": {"client": "claude", "headless": False, "prompt": "hello"},
        "b": {"client": "codex", "headless": True, "prompt": "go"},
        "c": {"client": "gemini", "headless": True, "prompt": "go"},
        "d": {"client": f"{sys.executable} {standin} echo", "headless": False, "prompt": None},
    }
    started = {}
    for agent, body in asked.items():
        result = board.post(f"/api/tasks/t1/agents/{agent}/start", body)
        assert result.status == 200, result.body
        started[agent] = result.json()
    runs = tmp_path / "standin-runs"
    argv = {
        a: wait_until(lambda a=a: list((runs / a).glob("run-0.json")), what=a)[0] for a in asked
    }
    said = {a: json.loads(path.read_text())["argv"] for a, path in argv.items()}
    assert said["a"] == ["--session-id", started["a"]["session"], "hello"]  # in tmux
    assert said["b"] == ["exec", "go"]
    assert said["c"] == ["-p", "go", "--approval-mode", "auto_edit"]
    assert said["d"] == ["echo"]
    modes = {
        r["agent"]: (r["client"], r["mode"]) for r in board.get("/api/agents").json()["agents"]
    }
    assert modes == {
        "a": ("claude", "tmux"),
        "b": ("codex", "headless"),
        "c": ("gemini", "headless"),
        "d": (asked["d"]["client"], "tmux"),
    }
    refused = board.post("/api/tasks/t1/agents/a/start", {"client": "", "headless": True})
    assert refused.status == 409 and "--client is empty" in refused.json()["error"]

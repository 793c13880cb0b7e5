"""`agent start` with the default `--sandbox auto` that runs the agent as you, unconfined, says
why: at the start, in `agent ps` and their --json (`unconfined`). Found walking a user's day: a
script agent under /tmp started with `sandbox none` and nothing said that the sandbox had been
given up, nor why, nor what would put it back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.sandbox.conftest import needs_bwrap

WHY = "lies in /tmp, which the sandbox hides"


@needs_bwrap
def test_auto_says_why_it_runs_the_agent_unconfined(
    agents_repo: Path, cli, tmp_path: Path, board_for: Any
) -> None:
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    script = tmp_path / "bin" / "my-agent"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\nexec sleep 600\n")
    script.chmod(0o755)
    started = cli("agent", "start", "t1", "dev", "--client", str(script), "--headless",
                  "--prompt", "go")  # fmt: skip
    try:
        assert started.code == 0, started.err
        line = started.out.strip()
        assert "\n" not in line
        assert line.endswith(
            f", sandbox none: {script} {WHY} (put it in the repository or a system folder "
            "to run it sandboxed)"
        ), line
        ps = cli("agent", "ps")
        assert f"  unconfined: {script} {WHY}" in ps.out.splitlines()
        (row,) = json.loads(cli("agent", "ps", "--json").out)
        assert row["sandbox"] == "none" and row["unconfined"] == f"{script} {WHY}"
        board = board_for(agents_repo, "--no-doctor")  # the board's card says it too
        (agent,) = board.get("/api/tasks/t1").json()["agents"]
        assert agent["run"]["unconfined"] == f"{script} {WHY}"
        assert f"unconfined: {script} {WHY}" in board.get("/tasks/t1").body.decode()
    finally:
        assert cli("agent", "stop", "t1", "dev").code == 0


@needs_bwrap
def test_a_sandboxed_or_asked_unconfined_agent_has_no_such_line(
    agents_repo: Path, cli, tmp_path: Path
) -> None:
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    args = ("agent", "start", "t1", "dev", "--client", "sleep 600", "--headless", "--prompt", "go")
    for mode, sandbox in (("auto", "bwrap"), ("none", "none")):
        started = cli(*args, "--sandbox", mode, "--json")
        try:
            assert started.code == 0, started.err
            record = json.loads(started.out)
            assert record["sandbox"] == sandbox and record["unconfined"] is None
            assert "unconfined" not in cli("agent", "ps").out
        finally:
            assert cli("agent", "stop", "t1", "dev").code == 0

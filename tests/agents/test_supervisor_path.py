"""A client that the running supervisor cannot find: `agent start` refuses it in one line, and
no retry is spent. Found walking `agent start --client claude` as a new user: claude was on the
PATH of the shell that ran `agent start` but not on the supervisor's (started earlier, by `doctor
--fix`, from another shell), so the agent crashed through its retries ("claude: not found") and
the task was escalated, after `agent start` had said "running"."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from tests.agents.conftest import ps, start_headless, wait_until


def test_a_client_missing_from_the_supervisors_path_is_refused_not_crashed(
    agents_repo: Path, cli, standin: Path, tmp_path: Path
) -> None:
    assert cli("task", "create", "t1", "--agents", "dev,qa").code == 0
    start_headless(cli, standin, agent="qa")  # the supervisor starts here, with today's PATH
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    client = bin_dir / "myclient"
    client.write_text(f"#!/bin/sh\nexec {sys.executable} {standin}\n")
    client.chmod(0o755)
    path = f"{bin_dir}{os.pathsep}{os.environ['PATH']}"  # a later shell's PATH has it
    result = cli(
        "agent", "start", "t1", "dev", "--client", "myclient", "--headless", "--prompt", "go",
        "--sandbox", "none", env={"PATH": path},
    )  # fmt: skip
    assert result.code == 1, result.out
    assert result.err.count("\n") == 1, result.err
    assert "'myclient' is not on the PATH of the agents' supervisor" in result.err
    assert "start them again from the shell that has it" in result.err
    dev = wait_until(lambda: [r for r in ps(cli) if r["agent"] == "dev"], what="dev's record")[0]
    assert dev["state"] == "stopped" and dev["restarts"] == 0
    status = agents_repo / ".taskproto/tasks/t1/agents/dev/status.json"
    assert json.loads(status.read_text())["retry_count"] == 0
    assert "ESCALATED" not in cli("task", "show", "t1").out

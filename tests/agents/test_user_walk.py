"""What a new user's walk through the agent commands found (one test per finding): the
supervisor, `agent start` and tmux as docs/agents.md describes them."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
from pathlib import Path

import pytest

from tests.agents.conftest import pid_alive, wait_until
from tests.sandbox.conftest import needs_bwrap


def _client(standin: Path) -> str:
    return f"{sys.executable} {standin}"


def _ps(cli) -> list[dict]:  # type: ignore[no-untyped-def]
    result = cli("agent", "ps", "--json")
    assert result.code == 0, result.err
    return json.loads(result.out)


def _start(cli, standin: Path, *extra: str) -> dict:  # type: ignore[no-untyped-def]
    result = cli(
        "agent", "start", "t1", "dev", "--client", _client(standin), "--prompt", "go", "--json",
        *extra,
    )  # fmt: skip
    assert result.code == 0, result.err
    return json.loads(result.out)


def test_killing_the_pid_agent_ps_shows_leaves_no_client_behind_the_restart(
    agents_repo: Path, cli, standin: Path, tmp_path: Path
) -> None:
    """`kill PID` of the pid `agent ps` shows (the agent's wrapper) is a crash: the agent is
    restarted, and the first client does not run on beside the second in the worktree."""
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    first = _start(cli, standin, "--headless")
    runs = tmp_path / "standin-runs" / "dev"
    client = wait_until(
        lambda: (
            json.loads((runs / "run-0.json").read_text())["pid"]
            if (runs / "run-0.json").exists()
            else None
        ),
        what="the first client",
    )
    os.kill(first["pid"], signal.SIGKILL)  # the wrapper only, as `kill PID` does
    wait_until(lambda: [r for r in _ps(cli) if r["restarts"] == 1 and r["pid"]], what="restart")
    wait_until(lambda: not pid_alive(client), what="the first client gone")
    assert "restart 1/3 of agent dev: it was killed" in cli("log", "t1").out


def test_starting_an_agent_past_its_budget_gives_it_a_new_one(
    agents_repo: Path, cli, standin: Path, tmp_path: Path
) -> None:
    """An agent escalated past its retries, started again by the user (another client, say): its
    crashes count from 0 again, as after `agent restart`, and `agent ps` says so truly."""
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    crash = tmp_path / "crash.py"
    crash.write_text("import sys\nsys.exit(4)\n")
    result = cli("agent", "start", "t1", "dev", "--client", f"{sys.executable} {crash}",
                 "--headless", "--prompt", "go")  # fmt: skip
    assert result.code == 0, result.err
    wait_until(lambda: [r for r in _ps(cli) if r["state"] == "escalated"], what="escalation")
    second = _start(cli, standin, "--headless")
    assert second["restarts"] == 0
    status = agents_repo / ".taskproto/tasks/t1/agents/dev/status.json"
    assert json.loads(status.read_text())["retry_count"] == 0
    assert "agent dev started again by the user after 3 retries" in cli("log", "t1").out
    os.killpg(second["pid"], signal.SIGKILL)  # one crash: restarted, not escalated
    row = wait_until(
        lambda: [r for r in _ps(cli) if r["restarts"] == 1 and r["pid"]], what="the restart"
    )[0]
    assert row["state"] == "running"
    assert json.loads(status.read_text())["retry_count"] == 1


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_once_its_interactive_agent_stopped_no_shell_is_left_in_its_worktree(
    agents_repo: Path, cli, standin: Path
) -> None:
    """tmux's session keeps a placeholder window; its shell is not the agent's and works outside
    every agent's worktree, so doctor finds no process left there."""
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    _start(cli, standin)
    assert cli("agent", "stop", "t1", "dev").code == 0
    report = json.loads(cli("doctor", "--json").out)
    assert [f for f in report["findings"] if f["check"] == "agent-outside-sandbox"] == []


@needs_bwrap
def test_a_client_the_sandbox_hides_is_refused_at_start_not_crashed_through_its_budget(
    agents_repo: Path, cli, tmp_path: Path
) -> None:
    """A script of yours under /tmp (or your home) does not exist inside the sandbox: bwrap's
    start is refused in one line, and auto runs it unsandboxed, as for a client that cannot
    work inside."""
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    script = tmp_path / "bin" / "my-agent"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\nexec sleep 600\n")
    script.chmod(0o755)
    args = ("agent", "start", "t1", "dev", "--client", str(script), "--headless", "--prompt", "go")
    refused = cli(*args, "--sandbox", "bwrap")
    assert refused.code == 1 and len(refused.err.strip().splitlines()) == 1, refused.err
    assert f"{script} lies in /tmp, which the sandbox hides" in refused.err
    assert not (agents_repo / ".taskproto/tasks/t1/agents/dev/run.json").exists()
    started = cli(*args, "--sandbox", "auto", "--json")
    assert started.code == 0, started.err
    assert json.loads(started.out)["sandbox"] == "none"
    assert cli("agent", "stop", "t1", "dev").code == 0

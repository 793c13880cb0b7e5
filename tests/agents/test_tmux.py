"""Interactive agents in tmux: a window per agent on taskproto's private tmux server, `agent say`
types into it (recorded as the user's prompt), `agent attach` attaches a terminal to it (checked
with tmux's own send-keys and capture-pane from an outer tmux the test runs)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from taskproto.config import load_config
from taskproto.ops.agent_tmux import socket_path
from tests.agents.conftest import pid_alive, ps, wait_until
from tests.conftest import run_taskproto

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def tmux(sock: str, *args: str) -> str:
    done = subprocess.run(["tmux", "-S", sock, *args], capture_output=True, text=True, check=False)
    return done.stdout


def test_a_window_per_agent_say_types_into_it_and_attach_shows_it(
    agents_repo: Path, cli, standin: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("STANDIN_MODE", "echo")
    assert cli("task", "create", "t1", "--agents", "dev,qa").code == 0
    for agent in ("dev", "qa"):
        result = cli("agent", "start", "t1", agent, "--client", f"{sys.executable} {standin}")
        assert result.code == 0, result.err
    sock = socket_path(load_config(agents_repo))
    windows = tmux(sock, "list-windows", "-t", "taskproto", "-F", "#{window_name}").split()
    assert {"t1/dev", "t1/qa"} <= set(windows)
    rows = json.loads(cli("agent", "ps", "--json").out)
    assert {(r["agent"], r["mode"], r["state"]) for r in rows} == {
        ("dev", "tmux", "running"),
        ("qa", "tmux", "running"),
    }

    def pane(target: str, server: str = sock) -> str:
        return tmux(server, "capture-pane", "-p", "-t", target)

    wait_until(lambda: "stand-in run 0" in pane("taskproto:t1/dev"), what="the client's start")
    result = cli("agent", "say", "t1", "dev", "what is the status?")
    assert result.code == 0, result.err
    wait_until(lambda: "got: what is the status?" in pane("taskproto:t1/dev"), what="the echo")
    assert "got: what is the status?" in cli("agent", "logs", "t1", "dev", "-n", "5").out
    task = json.loads((agents_repo / ".taskproto/tasks/t1/task.json").read_text())
    said = task["interruptions"][-1]  # the user's prompt, under the interruption rules
    assert said["type"] == "STATUS_REQUEST" and said["session"] == rows[0]["session"]
    assert task["state"] == "INIT"
    result = cli("agent", "say", "t1", "dev", "why is the retry there?", "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out) == {
        "task": "t1", "agent": "dev", "text": "why is the retry there?",
        "session": rows[0]["session"], "client": f"{sys.executable} {standin}",
        "via": "tmux", "window": "t1/dev",
        "recorded_as": "QUESTION", "state": "INIT", "waits_for_resume": True,
    }  # fmt: skip
    wait_until(lambda: "got: why is the retry there?" in pane("taskproto:t1/dev"), what="echo")
    shown = json.loads(cli("agent", "logs", "t1", "dev", "-n", "3", "--json").out)
    assert {k: shown[k] for k in ("task", "agent", "source", "file")} == {
        "task": "t1", "agent": "dev", "source": "pane", "file": None,
    }  # fmt: skip
    assert shown["lines"][-1] == "got: why is the retry there?", shown

    outer = str(tmp_path / "outer.sock")
    try:
        tmux(outer, "-f", "/dev/null", "new-session", "-d", "-s", "outer", "-x", "120", "-y", "30")
        command = f"{sys.executable} -m taskproto -C {agents_repo} agent attach t1 dev"
        tmux(outer, "send-keys", "-t", "outer", command, "Enter")
        wait_until(lambda: "got: what is the status?" in pane("outer", outer), what="attach")
        tmux(outer, "send-keys", "-t", "outer", "typed through attach", "Enter")
        wait_until(lambda: "got: typed through attach" in pane("taskproto:t1/dev"), what="input")
    finally:
        subprocess.run(["tmux", "-S", outer, "kill-server"], capture_output=True, check=False)
    assert cli("agent", "stop", "t1", "dev").code == 0
    windows = tmux(sock, "list-windows", "-t", "taskproto", "-F", "#{window_name}").split()
    assert "t1/dev" not in windows and "t1/qa" in windows


def test_attach_without_a_terminal_says_so_in_one_line(
    agents_repo: Path, cli, standin: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STANDIN_MODE", "echo")
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    result = cli("agent", "start", "t1", "dev", "--client", f"{sys.executable} {standin}")
    assert result.code == 0, result.err
    try:
        done = run_taskproto("agent", "attach", "t1", "dev", cwd=agents_repo, input="")
        assert done.code == 1, done
        assert done.err.strip().splitlines() == [
            "taskproto: `agent attach` needs a terminal, and this one's input is not one: run it "
            "at a terminal (`taskproto agent logs t1 dev` prints the agent's window here)"
        ]
        assert "traceback" not in done.err
    finally:
        assert cli("agent", "stop", "t1", "dev").code == 0


def test_the_tmux_server_ends_with_the_supervisor_once_no_agent_window_is_left(
    agents_repo: Path, cli, standin: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STANDIN_MODE", "echo")
    monkeypatch.setenv("TASKPROTO_SUPERVISOR_IDLE", "0.5")
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    result = cli("agent", "start", "t1", "dev", "--client", f"{sys.executable} {standin}")
    assert result.code == 0, result.err
    sock = socket_path(load_config(agents_repo))
    assert tmux(sock, "list-windows", "-t", "taskproto", "-F", "#{window_name}").split()
    assert cli("agent", "stop", "t1", "dev").code == 0
    supervisor = json.loads((agents_repo / ".taskproto" / "supervisor.json").read_text())["pid"]
    wait_until(lambda: not pid_alive(supervisor), what="the supervisor's end")
    alive = subprocess.run(["tmux", "-S", sock, "has-session"], capture_output=True, check=False)
    assert alive.returncode != 0, "the tmux server outlived every agent and the supervisor"


def test_an_agent_that_cannot_start_says_why_in_one_line(
    agents_repo: Path, cli, standin: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    only_sh = tmp_path / "bin"
    only_sh.mkdir()
    (only_sh / "sh").symlink_to(shutil.which("sh") or "/bin/sh")
    monkeypatch.setenv("PATH", str(only_sh))  # no tmux: the supervisor cannot open a window
    result = cli("agent", "start", "t1", "dev", "--client", f"{sys.executable} {standin}")
    assert result.code == 1
    assert result.err.startswith(
        "taskproto: agent dev of task 't1' could not start: tmux is not installed (or not on "
        "PATH): install it (Debian's tmux), or start the agent with --headless"
    )
    assert len(result.err.strip().splitlines()) == 1
    row = json.loads(cli("agent", "ps", "--json").out)[0]
    assert row["state"] == "stopped" and row["pid"] is None


def test_an_interactive_agent_with_no_hook_activity_and_a_still_pane_is_restarted(
    agents_repo: Path, cli, standin: Path
) -> None:
    (agents_repo / ".taskproto.toml").write_text("[agents]\nstall_minutes = 0.01\n")  # 0.6 s
    assert cli("task", "create", "t1", "--agents", "dev,qa,doc").code == 0
    client = f"{sys.executable} {standin}"
    # doc first: its client's turn ended (its Stop hook), so it waits for its user
    doc = json.loads(cli("agent", "start", "t1", "doc", "--client", f"{client} echo", "--json").out)
    stop = {
        "session_id": doc["session"],
        "cwd": str(agents_repo / ".taskproto/tasks/t1/agents/doc/code"),
    }
    said = run_taskproto("hook", "claude", "Stop", cwd=agents_repo, input=json.dumps(stop))
    assert said.code == 0, said.err
    for agent, mode in (("dev", "echo"), ("qa", "tick")):  # dev prints once, then waits
        result = cli("agent", "start", "t1", agent, "--client", f"{client} {mode}")
        assert result.code == 0, result.err
    rows = wait_until(
        lambda: (
            (r := {x["agent"]: x for x in ps(cli)})["dev"]["restarts"] >= 1
            and r["dev"]["state"] == "running"
            and r
        ),
        what="the stalled agent's restart",
    )
    assert rows["dev"]["mode"] == "tmux"
    assert rows["qa"]["restarts"] == 0  # its pane keeps changing: not stalled
    assert rows["doc"]["restarts"] == 0  # still longer than dev, but it waits for its user
    log = cli("log", "t1").out
    assert (
        "restart 1/3 of agent dev: it had no hook activity and no pane output for 0.01 min" in log
    )
    assert "of agent qa" not in log and "of agent doc" not in log


def test_an_interactive_agent_that_crashed_leaves_its_last_screen_to_agent_logs(
    agents_repo: Path, cli
) -> None:
    """Found walking a new user's day: Claude Code in tmux exited at once ("Unable to connect to
    Anthropic services"), three times, and its window closed each time; `agent logs` then said
    only "has no tmux window", so nothing told why it failed. Now its window's last screen is
    kept in agent.log, which `agent logs` prints once the window is gone."""
    (agents_repo / ".taskproto.toml").write_text("max_retries = 1\n")
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    client = "sh -c 'echo the client cannot log in: run claude /login first; exit 7'"
    assert cli("agent", "start", "t1", "dev", "--client", client).code == 0
    wait_until(lambda: ps(cli)[0]["state"] == "escalated", what="the budget used")
    sock = socket_path(load_config(agents_repo))
    windows = tmux(sock, "list-windows", "-a", "-F", "#{window_name}").split()
    assert "t1/dev" not in windows  # its window closed, as before
    result = cli("agent", "logs", "t1", "dev")
    assert result.code == 0, result.err
    assert "the client cannot log in: run claude /login first" in result.out
    assert "the last screen of its tmux window" in result.out
    assert "Pane is dead" not in result.out  # tmux's line names the wrapper's status (0)
    assert "\n\n\n" not in result.out  # the screen's empty rows are not kept
    shown = json.loads(cli("agent", "logs", "t1", "dev", "--json").out)
    assert (shown["source"], shown["file"]) == (
        "last_screen",
        str(agents_repo / ".taskproto/tasks/t1/agents/dev/agent.log"),
    )
    assert shown["lines"] == result.out.splitlines()

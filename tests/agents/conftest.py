"""Fixtures for the agents taskproto runs: a stand-in client, and a teardown that leaves no
supervisor, agent process or tmux server behind, even when a test fails."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.board.conftest import board_for  # noqa: F401  (the board's tests' fixture)
from tests.board.conftest import wait_for as wait_until  # noqa: F401  (the agents' tests poll)

STANDIN = """\
import os, sys, time
from pathlib import Path
out = Path(os.environ["STANDIN_OUT"]) / os.environ.get("TASKPROTO_AGENT_NAME", "x")
out.mkdir(parents=True, exist_ok=True)
runs = len(list(out.glob("run-*.json")))
(out / f"run-{runs}.json").write_text(__import__("json").dumps({
    "pid": os.getpid(), "cwd": os.getcwd(), "argv": sys.argv[1:],
    "env": {k: v for k, v in os.environ.items() if k.startswith("TASKPROTO_")},
}))
print(f"stand-in run {runs} says {os.environ.get('TASKPROTO_PROMPT')!r}", flush=True)
mode = (sys.argv[1:] or [os.environ.get("STANDIN_MODE", "sleep")])[0]
if mode == "crash":
    sys.exit(5)
if mode == "done":
    sys.exit(0)
if mode == "chatty":  # 1.5 MB of output, then quiet
    for i in range(15000):
        print(f"line {i:05d} " + "x" * 90)
    sys.stdout.flush()
if mode == "echo":  # an interactive client: echo what is typed
    for line in sys.stdin:
        print(f"got: {line.strip()}", flush=True)
if mode == "tick":  # a client busy printing
    for i in range(6000):
        print(f"tick {i}", flush=True)
        time.sleep(0.1)
if mode == "hook":  # a client whose hooks report: a prompt, then a tool call, as Claude Code's do
    import subprocess
    for event, extra in (("UserPromptSubmit", {"prompt": "go"}), ("PreToolUse", {
            "tool_name": "Read", "tool_input": {"file_path": "README.md"}})):
        payload = {"session_id": os.environ["TASKPROTO_SESSION"], "cwd": os.getcwd(),
                   "hook_event_name": event, **extra}
        subprocess.run([sys.executable, "-m", "taskproto", "hook", "claude", event],
                       input=__import__("json").dumps(payload).encode(), check=False)
    print("hooks ran", flush=True)
time.sleep(600)
"""


def standin_client(standin: Path) -> str:
    """The stand-in client as `--client` takes a command line."""
    return f"{sys.executable} {standin}"


def start_agent(
    cli: Any, client: str, agent: str = "dev", prompt: str = "go", task: str = "t1"
) -> dict[str, Any]:
    """`agent start TASK AGENT --client CLIENT --headless --prompt PROMPT`; its run record."""
    result = cli(
        "agent",
        "start",
        task,
        agent,
        "--client",
        client,
        "--headless",
        "--prompt",
        prompt,
        "--json",
    )
    assert result.code == 0, result.err
    return dict(json.loads(result.out))


def start_headless(
    cli: Any, standin: Path, agent: str = "dev", prompt: str = "go", task: str = "t1"
) -> dict[str, Any]:
    """`agent start TASK AGENT` of the stand-in client, headless; its run record (`--json`)."""
    return start_agent(cli, standin_client(standin), agent, prompt, task)


def ps(cli: Any) -> list[dict[str, Any]]:
    """`agent ps --json`."""
    result = cli("agent", "ps", "--json")
    assert result.code == 0, result.err
    return list(json.loads(result.out))


def real_clients(monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
    """The real clients `names` on PATH (the test skips, saying why, where one is missing), quiet,
    and a supervisor that exits soon after its agents."""
    from tests.clients.runners import CLAUDE_QUIET, find_client, missing_reason

    folders = []
    for name in names:
        exe = find_client(name)
        if exe is None:
            pytest.skip(missing_reason(name))
        folders.append(str(exe.parent))
    monkeypatch.setenv("PATH", os.pathsep.join([*folders, os.environ["PATH"]]))
    monkeypatch.setenv("TASKPROTO_SUPERVISOR_IDLE", "3")
    for key, value in CLAUDE_QUIET.items():
        monkeypatch.setenv(key, value)


def pid_alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0] not in (b"Z", b"X")
    except OSError:
        return False


def supervisor_pid(root: Path) -> int:
    """The pid the repository's supervisor recorded (`root`: taskproto's root)."""
    return int(json.loads((root / "supervisor.json").read_text())["pid"])


def kill_supervisor(root: Path) -> int:
    """Kill the repository's supervisor as a crash would (SIGKILL); its pid, once it is gone."""
    old = supervisor_pid(root)
    os.kill(old, signal.SIGKILL)
    wait_until(lambda: not pid_alive(old), what="the supervisor's end")
    return old


def _teardown(root: Path) -> None:
    try:
        os.kill(supervisor_pid(root), signal.SIGKILL)
    except (OSError, ValueError, KeyError):
        pass
    for run in root.glob("tasks/*/agents/*/run.json"):
        try:
            pid = json.loads(run.read_text()).get("pid")
            if pid:
                os.killpg(pid, signal.SIGKILL)
        except (OSError, ValueError):
            pass
    # and any process working in the repository (an agent the killed supervisor had just started,
    # before it could record its pid)
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            cwd = os.readlink(proc / "cwd")
        except OSError:
            continue
        if cwd == str(root.parent) or cwd.startswith(str(root.parent) + os.sep):
            try:
                os.kill(int(proc.name), signal.SIGKILL)
            except OSError:
                pass
    from taskproto.config import load_config
    from taskproto.ops.agent_tmux import socket_path

    try:
        sock = socket_path(load_config(root.parent))
    except Exception:
        return
    if os.path.exists(sock):
        subprocess.run(["tmux", "-S", sock, "kill-server"], capture_output=True, check=False)


@pytest.fixture
def standin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    script = tmp_path / "standin.py"
    script.write_text(STANDIN)
    monkeypatch.setenv("STANDIN_OUT", str(tmp_path / "standin-runs"))
    monkeypatch.setenv("TASKPROTO_SUPERVISOR_IDLE", "3")
    return script


@pytest.fixture
def agents_repo(repo: Path) -> Iterator[Path]:
    """`repo`, whose supervisor, agents and tmux server are killed at the end."""
    try:
        yield repo
    finally:
        _teardown(repo / ".taskproto")

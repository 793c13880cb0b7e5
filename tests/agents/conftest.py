"""Fixtures for the agents taskproto runs: a stand-in client, and a teardown that leaves no
supervisor, agent process or tmux server behind, even when a test fails."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

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
mode = os.environ.get("STANDIN_MODE", "sleep")
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
time.sleep(600)
"""


def pid_alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0] not in (b"Z", b"X")
    except OSError:
        return False


def _teardown(root: Path) -> None:
    try:
        pid = json.loads((root / "supervisor.json").read_text())["pid"]
        os.kill(pid, signal.SIGKILL)
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

"""`taskproto mcp` servers forked from one interpreter that has imported taskproto and the MCP SDK.

A `taskproto mcp` process spends about 2 CPU s before it answers, nearly all of it importing the
MCP SDK (its pydantic types), and the tests start one or more per test. Here one helper process
per test worker (the "zygote") imports the CLI and the server once; each server is a child forked
from it, running the same `main` a `python -m taskproto mcp` runs, with the client's own stdin,
stdout and stderr, folder, environment and arguments, on real git, files and locks; it answers
over the same pipes the SDK's `stdio_client` made. The client starts a small launcher
(`tests/mcpfork_launch.py`, the standard library only) in the server's place: it hands its three
descriptors to the zygote, passes on a signal the client sends it, and exits with the server's
exit code. What is not the same as a started server: its parent is the zygote (a process that
lives as long as the test worker, as the worker does for a started one), which a claim records as
the session's pid when the environment names none. The start itself is checked where it is the
subject (`tests/mcpserver/test_config.py`, `test_claude_code.py`: the client starts
`python -m taskproto mcp`).

As in `tests/forkrun.py`: the zygote never serves itself; the imports read no environment
variable (it asserts that `taskproto.ops.supervisor`, which does, is not imported); an
environment whose Python variables (PYTHONPATH, ...) differ from the zygote's gets a started
`python -m taskproto`. Each server's CPU seconds (from `wait4`, with the processes it waited
for) are added to `children_cpu()`, which `tests/cpu_report.py` counts as the test's.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path

from tests.forkrun import BECOME, ZYGOTE_PYTHON, start_zygote

LAUNCHER = Path(__file__).with_name("mcpfork_launch.py")

# The zygote: import what `taskproto mcp` imports, then fork a child per launcher that connects,
# and tell the launcher the child's pid, then its exit code. The worker's control socket asks for
# the CPU seconds of the children ended so far; its end ends the zygote.
ZYGOTE = (
    r"""
import json, os, selectors, socket, sys
import taskproto.cli, taskproto.cli.app, taskproto.cli.mcp, taskproto.engine, taskproto.config
import taskproto.mcp.server, taskproto.mcp.branch_tools, taskproto.mcp.workflow_tools
import anyio, mcp_types, pydantic, mcp.server.stdio, mcp.shared.message
assert "taskproto.ops.supervisor" not in sys.modules  # it reads the environment at import
"""
    + BECOME
    + r"""

listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
listener.bind(sys.argv[1])
listener.listen(64)
control = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET, fileno=int(sys.argv[2]))
selector = selectors.DefaultSelector()
selector.register(listener, selectors.EVENT_READ, ("accept",))
selector.register(control, selectors.EVENT_READ, ("control",))
control.sendall(b"ready")  # listening: a launcher may connect
total = 0.0


def serve(request, fds):
    try:
        for key in list(selector.get_map().values()):  # none of the zygote's descriptors
            if isinstance(key.fileobj, int):
                os.close(key.fileobj)
            else:
                key.fileobj.close()
        selector.close()
    finally:
        become(request, fds)  # never returns


while True:
    for key, _ in selector.select():
        kind = key.data[0]
        if kind == "accept":
            conn, _ = listener.accept()
            selector.register(conn, selectors.EVENT_READ, ("request",))
        elif kind == "control":
            if not control.recv(64):
                sys.exit(0)
            control.sendall(json.dumps({"cpu": total}).encode())
        elif kind == "request":
            conn = key.fileobj
            selector.unregister(conn)
            msg, fds, _, _ = socket.recv_fds(conn, 1 << 20, 3)
            if not msg or len(fds) != 3:
                for fd in fds:
                    os.close(fd)
                conn.close()
                continue
            pid = os.fork()
            if pid == 0:
                conn.close()
                serve(json.loads(msg), fds)
            for fd in fds:
                os.close(fd)
            try:
                conn.sendall(json.dumps({"pid": pid}).encode())
            except OSError:
                pass
            selector.register(os.pidfd_open(pid), selectors.EVENT_READ, ("ended", pid, conn))
        else:
            _, pid, conn = key.data
            selector.unregister(key.fileobj)
            os.close(key.fileobj)
            _, status, usage = os.wait4(pid, 0)
            total += usage.ru_utime + usage.ru_stime
            try:
                conn.sendall(json.dumps({"code": os.waitstatus_to_exitcode(status)}).encode())
            except OSError:
                pass  # the launcher went (killed): its server ended all the same
            conn.close()
"""
)


class _Zygote:
    def __init__(self) -> None:
        self.folder = tempfile.mkdtemp(prefix="mcpfork-")
        self.path = os.path.join(self.folder, "zygote.sock")
        self.proc, ours = start_zygote(ZYGOTE, self.path)
        self.control = ours
        self.cpu = 0.0
        if ours.recv(16) != b"ready":  # its imports done and its socket listening, or it failed
            self.proc.wait()
            raise RuntimeError(f"the MCP zygote ended before serving: exit {self.proc.returncode}")

    def ended_cpu(self) -> float:
        """The CPU seconds of the servers that have ended, as the zygote counted them."""
        if self.proc.poll() is None:
            try:
                self.control.sendall(b"cpu")
                self.cpu = json.loads(self.control.recv(256))["cpu"]
            except (OSError, ValueError):
                pass  # gone: what it told last stands
        return self.cpu

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.control.close()  # the zygote reads the end and exits
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


_LOCK = threading.Lock()
_ZYGOTES: list[_Zygote] = []


def _zygote() -> _Zygote:
    with _LOCK:
        if not _ZYGOTES or _ZYGOTES[0].proc.poll() is not None:
            zygote = _Zygote()
            atexit.register(zygote.stop)
            _ZYGOTES.insert(0, zygote)
        return _ZYGOTES[0]


def children_cpu() -> float:
    """The CPU seconds of every server forked here that has ended (tests/cpu_report.py adds
    them)."""
    with _LOCK:
        return sum(zygote.ended_cpu() for zygote in _ZYGOTES)


def server_command(argv: list[str], env: Mapping[str, str]) -> tuple[str, list[str]]:
    """The command and arguments a client starts for `python -m taskproto *argv` with `env`: the
    launcher of a forked server, or, where Python's own variables differ from the zygote's, the
    real `python -m taskproto`."""
    if {k: v for k, v in env.items() if k.startswith("PYTHON")} != ZYGOTE_PYTHON:
        return sys.executable, ["-m", "taskproto", *argv]
    # -I: the launcher reads no PYTHON variable and no user site (it needs the standard library)
    return sys.executable, ["-I", str(LAUNCHER), _zygote().path, *argv]

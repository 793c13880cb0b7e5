"""`taskproto` commands run as processes forked from one interpreter that has imported taskproto.

A `python -m taskproto` process is about 0.15-0.25 CPU s, most of it Python's start and
taskproto's imports, and the remote tests run hundreds whose subject is what the command does
to the clones and the remote, not how it starts. Here one helper process per test worker (the
"zygote") imports the CLI once and forks a child per command: a process of its own (its own pid,
memory, working folder, environment, stdin, stdout and stderr), running the same `main` a
`python -m taskproto` runs, on real git, files and locks; only the interpreter's start and the
imports are done once. The start itself is checked where it is the subject (the quick-path tests,
the hooks, the day, the docs run as written, `tests/conftest.py`'s `run_taskproto`).

The zygote never runs a command itself, so each child starts from the state a fresh process has
after its imports. The imports read no environment variable (`taskproto.ops.supervisor`, which
does, is not imported: the zygote asserts it). A command whose environment sets Python's own
variables (PYTHONPATH, PYTHONUTF8, ...) otherwise than the zygote's runs as `python -m taskproto`,
since Python reads them at its start.

Each child's CPU seconds (from `wait4`, with the processes it waited for, git among them) are
added to `children_cpu()`, which `tests/cpu_report.py` counts as the test's, as it counts a
subprocess the test waited for.
"""

from __future__ import annotations

import atexit
import json
import locale
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

# The zygote: import the CLI as a command would, then serve requests, one at a time. A request
# is one JSON line (argv, cwd, env) with three file descriptors (stdin, stdout, stderr); the
# answer is the child's pid, then its exit code and CPU seconds, one JSON line each. A zygote runs
# one command at a time; `run` starts another for a thread when all are busy.
# A forked child becomes the command: its three descriptors, folder, environment and arguments
# as the request says, then `main` as `python -m taskproto` runs it, its exit handlers, its
# streams flushed, and its exit code (tests/mcpfork.py's zygote forks its servers with it too).
BECOME = r"""
def become(request, fds):
    code = 3
    try:
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = [taskproto.__file__, *request["argv"]]
        sys.path[0] = request["cwd"]  # as `python -m` puts the working folder first
        try:
            taskproto.cli.run()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            if exc.code is not None and not isinstance(exc.code, int):
                print(exc.code, file=sys.stderr)
        except BaseException:
            import traceback
            traceback.print_exc()
            code = 1
        import atexit
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
    finally:
        os._exit(code)
"""
ZYGOTE = (
    r"""
import json, os, socket, sys
import taskproto.cli, taskproto.cli.quick, taskproto.cli.app, taskproto.engine, taskproto.config
assert "taskproto.ops.supervisor" not in sys.modules  # it reads the environment at import
"""
    + BECOME
    + r"""

sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET, fileno=int(sys.argv[1]))
while True:
    msg, fds, _, _ = socket.recv_fds(sock, 1 << 20, 3)
    if not msg:
        break
    request = json.loads(msg)
    pid = os.fork()
    if pid == 0:
        try:
            sock.close()
        finally:
            become(request, fds)  # never returns
    for fd in fds:
        os.close(fd)
    try:
        sock.sendall(json.dumps({"pid": pid}).encode() + b"\n")
        _, status, usage = os.wait4(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        cpu = usage.ru_utime + usage.ru_stime
        sock.sendall(json.dumps({"code": code, "cpu": cpu}).encode() + b"\n")
    except OSError:  # the test's side went (a timeout): so does this zygote
        break
"""
)


@dataclass
class Finished:
    returncode: int
    stdout: str
    stderr: str


class _Zygote:
    def __init__(self) -> None:
        self.proc, ours = start_zygote(ZYGOTE)
        self.sock = ours
        self.answers = ours.makefile("rb")

    def run(
        self,
        argv: list[str],
        cwd: Path,
        env: dict[str, str],
        input: str | bytes | None,
        timeout: float,
    ) -> tuple[int, float, str, str]:
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            stdin_r, stdin_w = os.pipe()
            try:
                request = json.dumps({"argv": argv, "cwd": str(cwd), "env": env}).encode()
                socket.send_fds(self.sock, [request], [stdin_r, out.fileno(), err.fileno()])
            finally:
                os.close(stdin_r)
            feeder = threading.Thread(target=_feed, args=(stdin_w, input or ""), daemon=True)
            feeder.start()
            pid = json.loads(self.answers.readline())["pid"]
            self.sock.settimeout(timeout)
            try:
                line = self.answers.readline()
            except TimeoutError:
                os.kill(pid, signal.SIGKILL)  # and `run` stops this zygote
                raise subprocess.TimeoutExpired(["taskproto", *argv], timeout) from None
            feeder.join()
            done = json.loads(line)
            out.seek(0)
            err.seek(0)
            return done["code"], done["cpu"], _decode(out.read()), _decode(err.read())

    def stop(self) -> None:
        if self.proc.returncode is not None:
            return
        self.answers.close()
        self.sock.close()  # the zygote reads the end and exits
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _feed(fd: int, text: str | bytes) -> None:
    try:
        if text:
            os.write(fd, text if isinstance(text, bytes) else text.encode())
    except OSError:
        pass  # the command went without reading it all, as a pipe's reader may
    finally:
        os.close(fd)


def _decode(data: bytes) -> str:
    # as subprocess.run(text=True) reads: the locale's encoding, universal newlines
    text = data.decode(locale.getpreferredencoding(False))
    return text.replace("\r\n", "\n").replace("\r", "\n")


def start_zygote(code: str, *args: str) -> tuple[subprocess.Popen[bytes], socket.socket]:
    """A zygote: `python -c code *args FD`, FD its end of a packet socket pair (a request and its
    descriptors arrive whole), with this process's Python variables, in the temporary folder
    (never the checkout: each child goes to its own); the process and our end. Shared by the
    commands' zygotes here and the MCP servers' (tests/mcpfork.py)."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *args, str(theirs.fileno())],
        env={
            **{k: v for k, v in os.environ.items() if not k.startswith("PYTHON")},
            **ZYGOTE_PYTHON,
        },
        pass_fds=(theirs.fileno(),),
        cwd=tempfile.gettempdir(),
        stdin=subprocess.DEVNULL,
    )
    theirs.close()
    return proc, ours


_IDLE: list[_Zygote] = []  # zygotes waiting for a command
# The variables Python reads at its start, as every zygote starts with them: this process's.
ZYGOTE_PYTHON = {k: v for k, v in os.environ.items() if k.startswith("PYTHON")}
_LOCK = threading.Lock()
_CPU = [0.0]


def children_cpu() -> float:
    """The CPU seconds of every command run here so far (tests/cpu_report.py adds them)."""
    return _CPU[0]


def run(
    argv: list[str],
    cwd: Path,
    env: dict[str, str],
    input: str | bytes | None = None,
    timeout: float = 120,
) -> Finished:
    """`python -m taskproto *argv` in `cwd` with exactly `env`, as a forked process; its exit code,
    stdout and stderr. Commands from several threads run at once, each from a zygote of its own
    (one more is started when all are busy), as processes started from those threads would."""
    if _python_variables(env) != ZYGOTE_PYTHON:
        # Python reads these at its start (PYTHONPATH, PYTHONUTF8, ...): a new interpreter, then
        return _exec(argv, cwd, env, input, timeout)
    with _LOCK:
        zygote = _IDLE.pop() if _IDLE else None
    if zygote is None:
        zygote = _Zygote()
        atexit.register(zygote.stop)
    try:
        code, cpu, out, err = zygote.run(argv, cwd, env, input, timeout)
    except BaseException:
        zygote.stop()  # in an unknown state: not used again
        raise
    with _LOCK:
        _CPU[0] += cpu
        _IDLE.append(zygote)
    return Finished(code, out, err)


def _python_variables(env: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k.startswith("PYTHON")}


def _exec(
    argv: list[str], cwd: Path, env: dict[str, str], input: str | bytes | None, timeout: float
) -> Finished:
    proc = subprocess.run(
        [sys.executable, "-m", "taskproto", *argv],
        cwd=cwd,
        env=env,
        input=input.encode(locale.getpreferredencoding(False)) if isinstance(input, str) else input,
        capture_output=True,
        timeout=timeout,
        check=False,
    )
    return Finished(proc.returncode, _decode(proc.stdout), _decode(proc.stderr))

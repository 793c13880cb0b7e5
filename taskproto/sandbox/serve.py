"""The outside end of an agent's channel (docs/sandbox.md, "The channel"): a Unix socket made for
one agent, bound into its sandbox at `channel.INSIDE`, served by the process that runs the agent
(`agent exec`, the supervisor) on a thread.

Whatever a request says, it is answered as that agent: its session is the one the channel was
made with (a hook payload's `session_id` is replaced, `--session` and `--pid` are refused), its
folder is the agent's worktree (a hook's `cwd` and a command's folder are the worktree's top), the
environment is the server's with the agent's identity set over it. Each answer is a process of
taskproto's run outside the sandbox: the installed hook (`hook.sh`, whose `sh` answers the no-ops)
for a hook, `python -m taskproto` for a command the agent may run; the user's commands (approve,
land, ack, resume, doctor, ...) are not on the list. A pause is lifted only from outside: a prompt
that comes through here never resumes one (hooks/agents/events.py reads `OF_ENV`).

It fails closed: a request larger than `channel.LIMIT`, not sent whole within `READ_SECONDS`,
not JSON, or of an unknown kind gets a refusal; more than `MAX_OPEN` at once are refused at once.
"""

from __future__ import annotations

import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping

from taskproto.plainjson import dumps, loads
from taskproto.sandbox.channel import LIMIT

PREFIX = "taskproto-ch-"  # the folders of the channels' sockets, under /tmp
OF_ENV = "TASKPROTO_CHANNEL_OF"  # task/agent, set on the processes that answer through a channel
READ_SECONDS = 5.0  # a request must arrive whole within this: a held-open connection is dropped
MAX_OPEN = 8  # connections answered at once; more are refused at once
RUN_SECONDS = 300.0  # an answer's process is killed after this
CLIENTS = ("claude", "codex", "gemini")
# What the agent's taskproto may run through its channel: reads, and the moves the workflow lets an
# agent make (the engine still refuses a user-only trigger to an agent's session). The user's
# commands (approve, land, ack, resume, rollback, merge, doctor, agent, board, init, ...) are not.
COMMANDS = frozenset(
    {
        "whoami",
        "prompt",
        "next",
        "log",
        "diff",
        "transition",
        "fire",
        "handoff",
        "turn",
        "subtask",
        "submit",
        "heartbeat",
    }
)
TASK_SUBCOMMANDS = frozenset({"show", "list"})
# options naming who or where (the channel decides those), acting over another session's claim,
# or holding the channel for long
FORBIDDEN_OPTIONS = ("--session", "--pid", "--root", "--repo", "-C", "--force", "--watch")
# options naming a file taskproto reads outside, as the user: only one in the agent's worktree
FILE_OPTIONS = ("--artifact", "--results")
HOOKS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "hooks", "agents")
HOOK_ENTRY = os.path.join(HOOKS, "entry.py")
HOOK_SH = os.path.join(HOOKS, "hook.sh")  # outside, its `sh` answers the commonest no-ops


def refusal(
    command: list[str], cwd: str = "/", worktree: str = "/", own: tuple[str, str] | None = None
) -> str | None:
    """Why the agent may not run `taskproto COMMAND...` through its channel (None: it may): run
    from `cwd`, its files in `worktree`; `own` the channel's task and agent, whose own status
    (`agent set TASK AGENT`) is the agent's to report."""
    if not command:
        return "no command given"
    for index, arg in enumerate(command):
        option = arg.split("=", 1)[0]
        if option in FORBIDDEN_OPTIONS or arg.startswith("-C"):
            return f"{option[:12]} is not the agent's: the channel acts as this agent only"
        if option in FILE_OPTIONS:
            value = arg.split("=", 1)[1] if "=" in arg else (command[index + 1 :] or [""])[0]
            real = os.path.realpath(os.path.join(cwd, value))
            if not real.startswith(worktree.rstrip(os.sep) + os.sep):
                return f"{option} names a file outside the agent's worktree"
    name = command[0]
    if name.startswith("-") and name not in ("--help", "-h", "--version"):
        return f"{name} before the command is the channel's to set"
    if name == "task":
        sub = command[1] if len(command) > 1 else ""
        if sub in TASK_SUBCOMMANDS:
            return None
        return f"`taskproto task {sub}` is the user's"
    if name in COMMANDS or name in ("--help", "-h", "--version"):
        return None
    if name == "agent" and command[1:2] == ["set"]:
        words = [w for w in command[2:] if not w.startswith("-")]
        # the words after `agent set`: TASK AGENT, then --status's and --message's values
        if own is not None and tuple(words[:2]) == own:
            return None
        return "`taskproto agent set` through the channel sets this agent's own status only"
    return f"`taskproto {name}` is the user's"


class Channel:
    """One agent's channel: `start()` binds and serves, `close()` stops and removes it. `path`
    is the socket outside, to be bound into the sandbox; `pid`, when set, is the agent's process
    outside (the client's, as its hooks record it)."""

    def __init__(
        self,
        *,
        task: str,
        agent: str,
        session: str,
        worktree: str,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self.task, self.agent, self.session = task, agent, session
        self.worktree = os.path.realpath(worktree)
        base = dict(os.environ if environ is None else environ)
        for key in ("TASKPROTO_CHANNEL", "TASKPROTO_SESSION_PID", "CLAUDE_PID", "CLAUDE_ENV_FILE"):
            base.pop(key, None)
        base.update(
            {
                "TASKPROTO_SESSION": session,
                "TASKPROTO_AGENT": "1",
                OF_ENV: f"{task}/{agent}",
                "TASKPROTO_TERMINAL_SESSION": "0",
            }
        )
        self.env = base
        self.pid: int | None = None
        self.read_seconds = READ_SECONDS
        _sweep(_short_tmp())
        self.folder = tempfile.mkdtemp(prefix=PREFIX, dir=_short_tmp())
        self.path = os.path.join(self.folder, "s")
        self._sock: socket.socket | None = None
        self._open = threading.BoundedSemaphore(MAX_OPEN)
        self._closed = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> Channel:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.bind(self.path)
        os.chmod(self.path, 0o600)
        sock.listen(MAX_OPEN * 2)
        sock.settimeout(0.2)
        self._sock = sock
        self._thread = threading.Thread(target=self._serve, name="taskproto-channel", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._closed.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._sock is not None:
            self._sock.close()
        for path in (self.path, self.folder):
            try:
                os.rmdir(path) if path == self.folder else os.unlink(path)
            except OSError:
                pass

    def __enter__(self) -> Channel:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _serve(self) -> None:
        assert self._sock is not None
        while not self._closed.is_set():
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            if not self._open.acquire(blocking=False):
                try:  # what was sent already, read without waiting: unread, the close resets it
                    conn.setblocking(False)
                    conn.recv(LIMIT)
                except OSError:
                    pass
                _send(conn, 1, "", "taskproto: the channel is busy; try again\n")
                continue
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        try:
            code, out, err = self.answer(_receive(conn, self.read_seconds))
        except _Refused as exc:
            code, out, err = 1, "", f"taskproto: {exc}\n"
        except Exception as exc:  # noqa: BLE001 - one request's failure is its answer, no more
            code, out, err = 1, "", f"taskproto: the channel failed ({type(exc).__name__})\n"
        try:
            _send(conn, code, out, err)
        finally:
            self._open.release()

    def answer(self, data: bytes) -> tuple[int, str, str]:
        try:
            request = loads(data.decode("utf-8"))
        except ValueError:
            raise _Refused("the channel takes one JSON object a request") from None
        if not isinstance(request, dict):
            raise _Refused("the channel takes one JSON object a request")
        kind = request.get("kind")
        if kind == "hook":
            return self._hook(request)
        if kind == "cli":
            return self._cli(request)
        raise _Refused(f"the channel answers hooks and commands, not {kind!r}")

    def _hook(self, request: dict[str, object]) -> tuple[int, str, str]:
        client, event, payload = request.get("client"), request.get("event"), request.get("payload")
        if client not in CLIENTS or not isinstance(event, str) or not event.isalpha():
            raise _Refused("a hook request names one of claude, codex, gemini and an event")
        if not isinstance(payload, str):
            raise _Refused("a hook request carries the client's payload")
        try:
            fields = loads(payload)
        except ValueError:
            fields = None
        if isinstance(fields, dict):  # the identity and the place are the channel's
            fields["session_id"] = self.session
            # the worktree itself, never a folder in it: the agent could swap one for a link to
            # another repository between this check and the hook's reads (relative paths are
            # judged from the worktree's top: a `..` is taken as leaving it sooner, not later)
            fields["cwd"] = self.worktree
            payload = dumps(fields)
        env = dict(self.env)
        if self.pid is not None:
            env["CLAUDE_PID"] = str(self.pid)  # the client's process, as its hooks record it
        argv = ["/bin/sh", HOOK_SH, sys.executable, str(client), event]
        return self._run(argv, env, payload.encode(), self.worktree)

    def _cli(self, request: dict[str, object]) -> tuple[int, str, str]:
        argv = request.get("argv")
        if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
            raise _Refused("a command request carries its arguments as strings")
        cwd = self._folder(request.get("cwd"))
        why = refusal(argv, cwd, self.worktree, (self.task, self.agent))
        if why is not None:
            raise _Refused(f"{why}; an agent in its sandbox cannot run it")
        copies = tempfile.mkdtemp(dir=self.folder)
        try:
            argv = self._copied(argv, cwd, copies)
            # run in the worktree itself (see _hook): `cwd` only places the files options name
            return self._run(
                [sys.executable, "-m", "taskproto", *argv], self.env, b"", self.worktree
            )
        finally:
            shutil.rmtree(copies, ignore_errors=True)

    def _copied(self, argv: list[str], cwd: str, copies: str) -> list[str]:
        """`argv` with each file an option names (FILE_OPTIONS) replaced by a copy of it made
        here: read through no link (the agent could swap one in between a check and the read)."""
        out, index = [], 0
        while index < len(argv):
            arg = argv[index]
            option = arg.split("=", 1)[0]
            if option not in FILE_OPTIONS:
                out.append(arg)
                index += 1
                continue
            if "=" in arg:
                value, index = arg.split("=", 1)[1], index + 1
            else:
                value, index = (argv[index + 1] if index + 1 < len(argv) else ""), index + 2
            copy = os.path.join(copies, str(len(out)))
            with open(copy, "wb") as fh:
                fh.write(_read_inside(self.worktree, os.path.join(cwd, value)))
            out.append(f"{option}={copy}")
        return out

    def _folder(self, given: object) -> str:
        """`given` when it lies in the agent's worktree, else the worktree."""
        if isinstance(given, str) and os.path.isabs(given):
            real = os.path.realpath(given)
            if real == self.worktree or real.startswith(self.worktree + os.sep):
                if os.path.isdir(real):
                    return real
        return self.worktree

    def _run(
        self, argv: list[str], env: dict[str, str], stdin: bytes, cwd: str
    ) -> tuple[int, str, str]:
        try:
            proc = subprocess.run(
                argv,
                input=stdin,
                capture_output=True,
                env=env,
                cwd=cwd,
                timeout=RUN_SECONDS,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise _Refused(f"the answer took over {RUN_SECONDS:g} s and was stopped") from None
        out = proc.stdout[: LIMIT // 2].decode("utf-8", "replace")
        err = proc.stderr[: LIMIT // 4].decode("utf-8", "replace")
        return proc.returncode, out, err


class _Refused(Exception):
    pass


def _read_inside(worktree: str, path: str) -> bytes:
    """The file at `path` (in `worktree`), each folder and the file itself opened without
    following a link."""
    relative = os.path.relpath(os.path.normpath(path), worktree)
    parts = relative.split(os.sep)
    if relative.startswith("..") or os.path.isabs(relative) or "" in parts:
        raise _Refused("the file is not in the agent's worktree")
    fd = os.open(worktree, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for part in parts[:-1]:
            step = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = step
        last = os.open(parts[-1], os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=fd)
    except OSError as exc:
        raise _Refused(
            f"the file cannot be read without following a link ({exc.strerror})"
        ) from None
    finally:
        os.close(fd)
    with os.fdopen(last, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise _Refused("the file is not a regular file")
        data = fh.read(LIMIT + 1)
    if len(data) > LIMIT:
        raise _Refused("the file is larger than the channel takes (1 MiB)")
    return data


def _sweep(tmp: str) -> None:
    """Remove the socket folders of channels nobody serves any more (their process was killed):
    ours, not links, a minute old, whose socket no process has bound (/proc/net/unix lists
    those)."""
    try:
        with open("/proc/net/unix", "rb") as fh:
            bound = {line.rsplit(b" ", 1)[-1].strip() for line in fh.read().splitlines()[1:]}
        names = [n for n in os.listdir(tmp) if n.startswith(PREFIX)]
    except OSError:
        return
    for name in names:
        folder = os.path.join(tmp, name)
        try:
            info = os.lstat(folder)
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            continue
        if time.time() - info.st_mtime < 60:  # one being made now: its socket is bound next
            continue
        if os.path.join(folder, "s").encode() not in bound:
            shutil.rmtree(folder, ignore_errors=True)


def _short_tmp() -> str:
    """A folder for the socket whose path fits a Unix socket's 108 bytes (and is hidden inside the
    sandbox, as /tmp is)."""
    return "/tmp" if os.path.isdir("/tmp") else tempfile.gettempdir()


def _receive(conn: socket.socket, seconds: float) -> bytes:
    deadline = time.monotonic() + seconds
    chunks: list[bytes] = []
    size = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise _Refused(f"the request did not arrive whole within {seconds:g} s")
        conn.settimeout(left)
        try:
            chunk = conn.recv(65536)
        except TimeoutError:
            raise _Refused(f"the request did not arrive whole within {seconds:g} s") from None
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > LIMIT:
            raise _Refused("the request is larger than the channel takes (1 MiB)")


def _send(conn: socket.socket, code: int, out: str, err: str) -> None:
    try:
        conn.settimeout(READ_SECONDS)
        conn.sendall(dumps({"code": code, "out": out, "err": err}).encode())
    except OSError:
        pass
    finally:
        conn.close()

"""What taskproto knows of each agent it runs: `run.json` beside the agent's worktree.

The CLI writes what the user wants (`want`: running, paused, stopped) and the supervisor
(ops/supervisor.py) writes what is (`state`, `pid`, `restarts`); both read-modify-write under one
lock per repository (`<root>/agents.lock`), so neither loses the other's change. A headless
agent's output is `agent.log` beside it, bounded: its log writer (ops/agent_log.py) renames it
to `agent.log.1` past 1 MB and begins a new one.
"""

from __future__ import annotations

import fcntl
import glob
import os
import time

from taskproto import plainjson as json
from taskproto.errors import TaskNotFound, TaskprotoError
from taskproto.state.files import atomic_write

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from taskproto.config import Config

RUN = "run.json"
LOG = "agent.log"
LOG_KEPT = "agent.log.1"
LOCK = "agents.lock"

# states a record moves through (docs/agents.md, "Running the agents")
STARTING, RUNNING, PAUSED, STOPPED, EXITED, ESCALATED = (
    "starting",
    "running",
    "paused",
    "stopped",
    "exited",
    "escalated",
)


def run_file(config: Config, task: str, agent: str) -> Path:
    return config.agent_dir(task, agent) / RUN


def log_file(config: Config, task: str, agent: str) -> Path:
    return config.agent_dir(task, agent) / LOG


class records_lock:  # noqa: N801 - used as a function
    """The one lock around every read-modify-write of any run.json of this repository."""

    def __init__(self, config: Config) -> None:
        self.path = config.root / LOCK

    def __enter__(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        fcntl.flock(self.fd, fcntl.LOCK_EX)

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)


def read(config: Config, task: str, agent: str) -> dict[str, Any] | None:
    try:
        data = json.loads(run_file(config, task, agent).read_bytes())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write(config: Config, record: dict[str, Any]) -> None:
    path = run_file(config, record["task"], record["agent"])
    atomic_write(path, json.dumps(record, indent=2).encode())


def require_agent(config: Config, task: str, agent: str) -> None:
    """AGENT is an agent of TASK, from their folders: a wrong name is refused as one (no such
    task, the task's agents), not as an agent taskproto never ran."""
    if not config.task_dir(task).is_dir():
        raise TaskNotFound(task)
    if not config.agent_dir(task, agent).is_dir():
        folder = config.task_dir(task) / "agents"
        agents = sorted(p.name for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []
        raise TaskprotoError(
            f"task {task!r} has no agent {agent!r} (its agents: {', '.join(agents) or 'none'})"
        )


def update(config: Config, task: str, agent: str, **changes: Any) -> dict[str, Any]:
    """Change fields of an existing record under the lock; returns the new record."""
    with records_lock(config):
        record = read(config, task, agent)
        if record is None:
            require_agent(config, task, agent)
            raise TaskprotoError(
                f"taskproto runs no agent {agent!r} of task {task!r}; start it with "
                f"`taskproto agent start {task} {agent}`"
            )
        record.update(changes)
        write(config, record)
        return record


def every(config: Config) -> Iterator[dict[str, Any]]:
    """Every agent record of the repository, by task then agent."""
    tasks = str(config.tasks_dir)
    for found in sorted(glob.glob(f"*/agents/*/{RUN}", root_dir=tasks)):
        parts = found.split("/")
        record = read(config, parts[0], parts[2])
        if record is not None:
            yield record


def _stat(pid: int) -> list[bytes] | None:
    """/proc/PID/stat's fields after the command's name (state first), or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None


def groups(pid: int) -> list[int]:
    """The process groups of `pid` and of every process under it, `pid`'s own first: a client
    that made a session of its own (bubblewrap's --new-session) is in another group than the
    wrapper it runs under. Read from /proc (only `pid` where there is none)."""
    parents: dict[int, tuple[int, int]] = {}
    for name in os.listdir("/proc") if os.path.isdir("/proc") else []:
        fields = _stat(int(name)) if name.isdigit() else None
        try:
            if fields:
                parents[int(name)] = (int(fields[1]), int(fields[2]))
        except (IndexError, ValueError):
            continue
    found, todo, seen = [pid], [pid], {pid}
    while todo:
        current = todo.pop()
        for child, (parent, group) in parents.items():
            if parent == current and child not in seen:
                seen.add(child)
                todo.append(child)
                if group not in found:
                    found.append(group)
    return found


def holders(path: Path) -> dict[int, str]:
    """The processes that have the file `path` open, with their command lines, read from /proc
    (none where there is no /proc). Slow (every process's fds): for error messages."""
    found = {}
    for name in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if not name.isdigit():
            continue
        try:
            fds = os.listdir(f"/proc/{name}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{name}/fd/{fd}") != str(path):
                    continue
                with open(f"/proc/{name}/cmdline", "rb") as fh:
                    found[int(name)] = " ".join(
                        fh.read().decode(errors="replace").replace("\0", " ").split()
                    )
            except OSError:
                continue
            break
    return found


def started(pid: int) -> int | None:
    """When process `pid` started (clock ticks after boot): with the pid, it names one process."""
    fields = _stat(pid)
    try:
        return int(fields[19]) if fields else None
    except (IndexError, ValueError):
        return None


def alive(pid: object, since: object = None) -> bool:
    """Whether `pid` is a process that has not exited (a zombie counts as exited) and, with
    `since` (`started` when it was recorded), the same process, not a later one given its pid."""
    if not isinstance(pid, int) or pid <= 0:
        return False
    fields = _stat(pid)
    if not fields or fields[0] in (b"Z", b"X"):
        return False
    return not isinstance(since, int) or started(pid) == since


def running(record: dict[str, Any]) -> bool:
    """Whether the process a run record names is alive and is the one that was started."""
    return alive(record.get("pid"), record.get("pid_started"))


def process_paused(pid: object) -> bool:
    if not isinstance(pid, int):
        return False
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0] == b"T"
    except (OSError, IndexError):
        return False


def tail(path: Path, lines: int) -> list[str]:
    """The last `lines` lines of the log (agent.log.1 first when agent.log is short)."""
    text = b""
    for part in (path.with_name(LOG_KEPT), path):
        try:
            text += part.read_bytes()[-(1 << 16) :]
        except OSError:
            continue
    return text.decode("utf-8", "replace").splitlines()[-lines:] if lines else []


def wait_for(
    config: Config, task: str, agent: str, done: Any, timeout: float
) -> dict[str, Any] | None:
    """Poll the record until `done(record)` or `timeout` seconds pass; the last record read."""
    deadline = time.monotonic() + timeout
    record = read(config, task, agent)
    while not (record is not None and done(record)):
        if time.monotonic() >= deadline:
            return record
        time.sleep(0.05)
        record = read(config, task, agent)
    return record


def wanted(record: dict[str, Any]) -> bool:
    """Whether an agent's record asks a supervisor for work: to start it, or to watch it."""
    return record.get("want") in (RUNNING, PAUSED) and record.get("state") in (
        STARTING,
        RUNNING,
        PAUSED,
    )

"""The tasks' index: one row per task, what the listings read instead of every task.json.

`<root>/index.jsonl` holds a line per change: `{"t": task, "k": [size, mtime_ns, inode] of its
task.json, "s": {agent: key of its status.json}, "r": row}`, or `{"t": task, "gone": true}` when
it was removed. The one write path appends a line after every save (engine/core.py), so the
latest line of a task is its row; a reader takes a row only while the files' keys are still those
the line recorded, and reads the task itself otherwise (a crash between a save and its line, a
hand edit: `stale`). So a listing of ten thousand tasks reads one file and stats each task.json,
whatever the history, and the file's time is the tasks' generation: it changes with every change.

Lines are appended with one `write` (O_APPEND) under a shared lock; when the file holds many more
lines than tasks, the appender that notices rewrites it whole under the exclusive lock. A reader
takes no lock: a rename is atomic, and a torn last line is skipped. Standard library only: hooks
read it.

The agent hook script (hooks/agents/hook.sh) trusts the file's time alone: while it is not newer
than a session's stamp, no task changed, and the script looks at no task. So a change whose line
cannot be appended still moves that time (`touch`): the file is touched, or else removed (then
every reader, the script too, reads the tasks themselves); and so does a save taken back
(engine/core.py), which wrote its task.json twice and appends no line.
"""

from __future__ import annotations

import fcntl
import os

from taskproto import plainjson as json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.layout import Layout

NAME = "index.jsonl"
LOCK = "index.lock"
SLACK = 64  # lines beyond twice the tasks before a rewrite

# What a row holds of task.json (the keys `task list`, the board's cards, the ready queue and
# SessionStart's offer read), besides the agents' statuses (`agents`) and whether it waits on the
# user's answer (`paused`).
ROW_KEYS = (
    "name",
    "workflow",
    "state",
    "revision",
    "description",
    "owner",
    "required_agents",
    "priority",
    "depends_on",
    "created_at",
    "updated_at",
    "escalations",
    "needs_review",
)


def path(layout: Layout) -> str:
    return os.path.join(layout.root, NAME)


def key(file: str) -> list[int] | None:
    """A file's key: size, modification time and inode (None: no such file)."""
    try:
        st = os.stat(file, follow_symlinks=False)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ino]


def row(data: dict[str, Any], agents: dict[str, str]) -> dict[str, Any]:
    """A task's row from its task.json's JSON and its agents' statuses."""
    found = {k: data.get(k) for k in ROW_KEYS}
    found["agents"] = agents
    last = data.get("interruptions") or [None]
    latest = last[-1] if isinstance(last, list) else None
    paused = (
        latest.get("type")
        if isinstance(latest, dict)
        and latest.get("type") not in (None, "RESUMPTION")
        and latest.get("state") == data.get("state")
        else None
    )
    found["paused"] = paused
    return found


def status_keys(layout: Layout, name: str, agents: list[str]) -> dict[str, list[int] | None]:
    return {a: key(layout.status_file(name, a)) for a in agents}


def record(layout: Layout, name: str, data: dict[str, Any], agents: dict[str, str]) -> None:
    """Append task `name`'s row as its files are now (after a save); never raises for the index's
    sake (a reader then reads the task itself)."""
    entry = {
        "t": name,
        "k": key(layout.task_file(name)),
        "s": status_keys(layout, name, list(agents)),
        "r": row(data, agents),
    }
    _append(layout, entry)


def forget(layout: Layout, name: str) -> None:
    """Task `name` was removed."""
    _append(layout, {"t": name, "gone": True})


def _append(layout: Layout, entry: dict[str, Any]) -> None:
    try:
        line = (json.dumps(entry, separators=(",", ":"), ensure_ascii=False) + "\n").encode()
        with _Locked(layout, fcntl.LOCK_SH) as lock:
            flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW
            fd = os.open(path(layout), flags, 0o644)
            try:
                os.write(fd, line)
                size = os.fstat(fd).st_size
            finally:
                os.close(fd)
            # the size after the last rewrite, kept in the lock file: a rewrite once the file has
            # grown past twice that, so appends stay O(1) and the file O(tasks)
            after = lock.number()
        if size > 2 * after + (SLACK << 10):
            compact(layout)
    except (OSError, ValueError, TypeError):
        touch(layout)


def touch(layout: Layout) -> None:
    """A task's files changed and no line says so (it could not be appended, or the save was taken
    back): the file's time must say so all the same (hook.sh reads it as the tasks' generation).
    Touched, or else removed; never raises."""
    target = path(layout)
    try:
        os.utime(target, follow_symlinks=False)  # now, on the file system's clock
        return
    except FileNotFoundError:
        return  # no index: readers and hook.sh read the tasks themselves
    except OSError:
        pass
    try:
        os.unlink(target)
    except OSError:
        return


class _Locked:
    """The index's lock file held (shared to append, exclusive to rewrite); it also keeps the
    size the index had after its last rewrite."""

    def __init__(self, layout: Layout, how: int) -> None:
        self.file, self.how, self.fd = os.path.join(layout.root, LOCK), how, -1

    def __enter__(self) -> _Locked:
        self.fd = os.open(self.file, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        fcntl.flock(self.fd, self.how)
        return self

    def number(self) -> int:
        text = os.pread(self.fd, 32, 0).strip()
        return int(text) if text.isdigit() else 0

    def set_number(self, value: int) -> None:
        data = str(value).encode()
        os.pwrite(self.fd, data.ljust(32), 0)

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)  # closing releases the lock


def lines(layout: Layout) -> list[dict[str, Any]]:
    """The index's lines, oldest first (a line that does not parse is skipped)."""
    try:
        with open(path(layout), "rb") as fh:
            data = fh.read()
    except OSError:
        return []
    text = data.decode("utf-8", "replace")
    body = text.rstrip("\n")
    try:  # one parse for the whole file: a C call, not one per line
        parsed = json.loads("[" + body.replace("\n", ",") + "]") if body else []
    except ValueError:
        parsed = []
        for part in text.split("\n"):
            try:
                parsed.append(json.loads(part))
            except ValueError:
                continue
    return [p for p in parsed if isinstance(p, dict) and isinstance(p.get("t"), str)]


def latest(layout: Layout) -> dict[str, dict[str, Any]]:
    """Each task's latest line (a removed task's is left out)."""
    found: dict[str, dict[str, Any]] = {}
    for line in lines(layout):
        if line.get("gone"):
            found.pop(line["t"], None)
        else:
            found[line["t"]] = line
    return found


def rows(layout: Layout, names: list[str]) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """(the rows of the tasks `names` whose files are as their latest line recorded, the names
    whose row is missing or stale: the caller reads those tasks itself)."""
    found = latest(layout)
    fresh: dict[str, dict[str, Any]] = {}
    stale: list[str] = []
    for name in names:
        line = found.get(name)
        if (
            line is None
            or line.get("k") is None
            or key(layout.task_file(name)) != line["k"]
            or not isinstance(line.get("r"), dict)
            or any(key(layout.status_file(name, a)) != k for a, k in (line.get("s") or {}).items())
        ):
            stale.append(name)
        else:
            fresh[name] = line["r"]
    return fresh, stale


def compact(layout: Layout) -> None:
    """Rewrite the index with each task's latest line only (under the exclusive lock)."""
    from taskproto.state.files import atomic_write

    with _Locked(layout, fcntl.LOCK_EX) as lock:
        kept = latest(layout)
        data = "".join(
            json.dumps(line, separators=(",", ":"), ensure_ascii=False) + "\n"
            for line in kept.values()
        ).encode()
        atomic_write(path(layout), data)
        lock.set_number(len(data))

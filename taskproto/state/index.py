"""The tasks' index: one row per task, what the listings read instead of every task.json.

`<root>/index.jsonl` holds a line per change: a head `{"t": task, "k": [size, mtime_ns, inode] of
its task.json, "h": what a plain listing shows, "s": {agent: key of its status.json}}`, a tab, and
the task's whole row as JSON; or `{"t": task, "gone": true}` when it was removed. A listing parses
every head in one call and decodes a row only when it shows more than the head holds. The one write
path appends a line after every save (engine/core.py), so the latest line of a task is its row; a
reader takes a row only while the files' keys are still those the line recorded, and reads the
task itself otherwise (a crash between a save and its line, a hand edit: `stale`). So a listing of
ten thousand tasks reads one file and stats each task.json, whatever the history, and the file's
time is the tasks' generation: it changes with every change.

Lines are appended with one `write` (O_APPEND) under a shared lock; once the file has grown past
twice its size after the last rewrite, the appender rewrites it whole under the exclusive lock. A
reader takes no lock: a rename is atomic, and a torn last line is skipped. Standard library only:
hooks read it.
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


def line(layout: Layout, name: str, data: dict[str, Any], agents: dict[str, str]) -> dict[str, Any]:
    """Task `name`'s index line as its files are now: its keys, what a plain listing shows (`h`),
    and its whole row as JSON text (`j`), decoded only by what reads more than the listing."""
    found = row(data, agents)
    entry: dict[str, Any] = {"t": name, "k": key(layout.task_file(name)), "h": hot(found)}
    if agents:
        entry["s"] = status_keys(layout, name, list(agents))
    entry["j"] = json.dumps(found, separators=(",", ":"), ensure_ascii=False)
    return entry


def hot(found: dict[str, Any]) -> list[Any]:
    """What `task list` shows of a row, and what the ready queue reads: state, priority, owner,
    workflow, what it waits for, its escalations' reasons (`Row`)."""
    owner = found.get("owner")
    return [
        found.get("state"),
        found.get("priority"),
        owner.get("session") if isinstance(owner, dict) else None,
        found.get("workflow"),
        found.get("depends_on") or [],
        [e.get("reason") for e in found.get("escalations") or [] if isinstance(e, dict)],
    ]


class Row:
    """One task's row: its plain fields at once, the whole row (`data`) decoded when asked."""

    __slots__ = ("name", "state", "priority", "owner", "workflow", "depends_on", "escalated", "_j")

    def __init__(self, name: str, entry: dict[str, Any]) -> None:
        self.name = name
        h = entry["h"]
        self.state, self.priority, self.owner, self.workflow, self.depends_on, self.escalated = h
        self._j: Any = entry["j"]

    @property
    def data(self) -> dict[str, Any]:
        """The whole row (raises ValueError for a row that does not parse)."""
        if not isinstance(self._j, dict):
            self._j = json.loads(row_text(self._j))
        found: dict[str, Any] = self._j
        return found


def record(layout: Layout, name: str, data: dict[str, Any], agents: dict[str, str]) -> Row:
    """Append task `name`'s line as its files are now (after a save), and return its row; never
    raises for the index's sake (a reader then reads the task itself)."""
    entry = line(layout, name, data, agents)
    _append(layout, entry)
    return Row(name, entry)


def forget(layout: Layout, name: str) -> None:
    """Task `name` was removed."""
    _append(layout, {"t": name, "gone": True})


def row_text(j: Any) -> str:
    """A line's row JSON: as written (text), or as read (the line and where the row starts)."""
    if isinstance(j, tuple):
        raw, start = j
        found: str = raw[start:]
        return found
    return str(j)


def text(entry: dict[str, Any]) -> str:
    """An entry as its line: its head as JSON, then a tab and the row's JSON when it has one (a
    tab never occurs in compact JSON, which escapes its control characters)."""
    head = {k: v for k, v in entry.items() if k != "j"}
    first = json.dumps(head, separators=(",", ":"), ensure_ascii=False)
    return first + ("\t" + row_text(entry["j"]) if "j" in entry else "") + "\n"


def _append(layout: Layout, entry: dict[str, Any]) -> None:
    line = text(entry).encode()
    try:
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
    """The index's entries, oldest first, each row's JSON left as text (`j`); a line that does
    not parse is skipped."""
    try:
        with open(path(layout), "rb") as fh:
            data = fh.read()
    except OSError:
        return []
    raws = [r for r in data.decode("utf-8", "replace").split("\n") if r]
    heads = [r[: r.find("\t")] if "\t" in r else r for r in raws]
    try:  # one parse for every head: a C call, not one per line
        parsed = json.loads("[" + ",".join(heads) + "]")
    except ValueError:
        parsed = []
        for head in heads:
            try:
                parsed.append(json.loads(head))
            except ValueError:
                parsed.append(None)
    found = []
    for entry, raw, head in zip(parsed, raws, heads, strict=False):
        if isinstance(entry, dict) and isinstance(entry.get("t"), str):
            if len(raw) > len(head):
                entry["j"] = (raw, len(head) + 1)  # the row's JSON: the line past its tab
            found.append(entry)
    return found


def latest(layout: Layout) -> dict[str, dict[str, Any]]:
    """Each task's latest line (a removed task's is left out)."""
    found: dict[str, dict[str, Any]] = {}
    for line in lines(layout):
        if line.get("gone"):
            found.pop(line["t"], None)
        else:
            found[line["t"]] = line
    return found


def rows(
    layout: Layout, names: list[str], statuses: bool = True
) -> tuple[dict[str, Row], list[str]]:
    """(the rows of the tasks `names` whose files are as their latest line recorded, the names
    whose row is missing or stale: the caller reads those tasks itself). Without `statuses`, the
    agents' status files are not looked at (a listing that shows no agent's status)."""
    found = latest(layout)
    fresh: dict[str, Row] = {}
    stale: list[str] = []
    tasks = layout.tasks + os.sep
    stat = os.stat
    for name in names:
        entry = found.get(name)
        if entry is None or not isinstance(entry.get("h"), list) or "j" not in entry:
            stale.append(name)
            continue
        try:
            st = stat(tasks + name + "/task.json", follow_symlinks=False)
            same = entry.get("k") == [st.st_size, st.st_mtime_ns, st.st_ino]
        except OSError:
            same = False
        if same and statuses:
            same = all(
                key(layout.status_file(name, a)) == k for a, k in (entry.get("s") or {}).items()
            )
        if same:
            try:
                fresh[name] = Row(name, entry)
                continue
            except (TypeError, ValueError):  # not a line this taskproto writes
                pass
        stale.append(name)
    return fresh, stale


def compact(layout: Layout) -> None:
    """Rewrite the index with each task's latest line only (under the exclusive lock)."""
    from taskproto.state.files import atomic_write

    with _Locked(layout, fcntl.LOCK_EX) as lock:
        kept = latest(layout)
        data = "".join(text(entry) for entry in kept.values()).encode()
        atomic_write(path(layout), data)
        lock.set_number(len(data))

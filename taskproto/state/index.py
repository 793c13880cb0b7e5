"""The tasks' index: one row per task, what the listings read instead of every task.json.

`<root>/index.jsonl` holds a line per change: a head `[task, [size, mtime_ns, inode] of its
task.json, what a plain listing shows, {agent: key of its status.json}]`, a tab, and the task's
whole row as JSON; or `[task, null]` when it was removed. A listing takes each task's latest
line by the name it starts with, compares the key it records with the task.json's as text, parses
only the rest of its head, where it lies (`plainjson.scan`: no slice, no parse of the lines it
does not take), and decodes a row only when it shows more than the head holds. The one write
path appends a line after every save (engine/core.py), so the latest line of a task is its row; a
reader takes a row only while the files' keys are still those the line recorded, and reads the
task itself otherwise (a crash between a save and its line, a hand edit: `stale`). So a listing of
ten thousand tasks reads one file and stats each task.json, whatever the history, and the file's
time is the tasks' generation: it changes with every change.

Lines are appended with one `write` (O_APPEND) under a shared lock; once the file has grown past
half as large again as after the last rewrite, the appender rewrites it whole under the exclusive
lock (at 10,000 tasks a rewrite every 2,500 changes or so, 60-90 ms; a listing reads at most half
as many lines again as there are tasks, so its cost stays that of the tasks). A reader takes no
lock: a rename is atomic, and a torn last line is skipped (as is the line the next append glues
onto it: two tabs, which no line written whole holds). Standard library only:
hooks read it.

The agent hook script (hooks/agents/hook.sh) trusts the file's time alone: while it is not newer
than a session's stamp, no task changed, and the script looks at no task. So a change whose line
cannot be appended still moves that time (`touch`): the file is touched, or else removed (then
every reader, the script too, reads the tasks themselves); and so does a save taken back
(engine/core.py), which wrote its task.json twice and appends no line.
"""

from __future__ import annotations

import fcntl
import os

from taskproto import bulk
from taskproto import plainjson as json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.layout import Layout

NAME = "index.jsonl"
LOCK = "index.lock"
SLACK = 64  # KiB beyond half as large again as after the last rewrite, before the next

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
    from taskproto.state.pause import paused_type

    found["agents"] = agents
    found["paused"] = paused_type(data)
    return found


def status_keys(layout: Layout, name: str, agents: list[str]) -> dict[str, list[int] | None]:
    return {a: key(layout.status_file(name, a)) for a in agents}


def line(
    layout: Layout, name: str, data: dict[str, Any], agents: dict[str, str]
) -> tuple[list[Any], str]:
    """Task `name`'s index line as its files are now, and its head: the task, its task.json's
    key, what a plain listing shows, its agents' status files' keys; the whole row after it."""
    found = row(data, agents)
    statuses = status_keys(layout, name, list(agents)) if agents else {}
    head = [name, key(layout.task_file(name)), hot(found), statuses]
    return head, _dumps(head) + "\t" + _dumps(found) + "\n"


def _dumps(value: Any) -> str:
    # compact JSON escapes every control character: a tab or a newline never occurs in it
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def hot(found: dict[str, Any]) -> list[Any]:
    """What `task list` shows of a row, and what the ready queue reads: state, priority, owner,
    workflow, what it waits for, its escalations' reasons, the interruption it is paused by
    (`Row`)."""
    owner = found.get("owner")
    return [
        found.get("state"),
        found.get("priority"),
        owner.get("session") if isinstance(owner, dict) else None,
        found.get("workflow"),
        found.get("depends_on") or [],
        [e.get("reason") for e in found.get("escalations") or [] if isinstance(e, dict)],
        found.get("paused"),
    ]


class Row:
    """One task's row: its plain fields at once, the whole row (`data`) decoded when asked."""

    __slots__ = (
        "name",
        "state",
        "priority",
        "owner",
        "workflow",
        "depends_on",
        "escalated",
        "paused",
        "_j",
    )

    def __init__(self, name: str, hot: list[Any], line: str) -> None:
        self.name = name
        (
            self.state,
            self.priority,
            self.owner,
            self.workflow,
            self.depends_on,
            self.escalated,
            self.paused,
        ) = hot  # a line of a taskproto before `paused` (six) does not unpack: read again
        self._j: Any = line  # the line, whose row is past its tab, until `data` decodes it

    @property
    def data(self) -> dict[str, Any]:
        """The whole row (raises ValueError for a row that does not parse)."""
        if isinstance(self._j, str):
            self._j = json.loads(self._j[self._j.index("\t") + 1 :])
        found: dict[str, Any] = self._j
        return found


def record(layout: Layout, name: str, data: dict[str, Any], agents: dict[str, str]) -> Row | None:
    """Append task `name`'s line as its files are now (after a save), and return its row (None
    when no line could be made: the file's time still moves); never raises for the index's sake
    (a reader then reads the task itself)."""
    try:
        head, text = line(layout, name, data, agents)
    except (ValueError, TypeError):
        touch(layout)
        return None
    _append(layout, text)
    return Row(name, head[2], text)


def forget(layout: Layout, name: str) -> None:
    """Task `name` was removed."""
    _append(layout, _dumps([name, None]) + "\n")


def _append(layout: Layout, text: str) -> None:
    try:
        line = text.encode()
        with _Locked(layout, fcntl.LOCK_SH) as lock:
            flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW
            fd = os.open(path(layout), flags, 0o644)
            try:
                os.write(fd, line)
                size = os.fstat(fd).st_size
            finally:
                os.close(fd)
            # the size after the last rewrite, kept in the lock file: a rewrite once the file has
            # grown past half as large again, so appends stay O(1) and the file O(tasks)
            after = lock.number()
        if size > after + after // 2 + (SLACK << 10):
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


def rows(
    layout: Layout, names: list[str], statuses: bool = True
) -> tuple[dict[str, Row], list[str]]:
    """(the rows of the tasks `names` whose files are as their latest line recorded, the names
    whose row is missing or stale: the caller reads those tasks itself). Without `statuses`, the
    agents' status files are not looked at (a listing that shows no agent's status)."""
    with bulk.paused():  # tens of thousands of small lists, no cycles among them
        return _rows(layout, names, statuses)


def _rows(layout: Layout, names: list[str], statuses: bool) -> tuple[dict[str, Row], list[str]]:
    found = latest_lines(layout)
    fresh: dict[str, Row] = {}
    stale: list[str] = []
    try:  # each task.json looked up from the tasks' folder: two parts of a path, not the whole
        folder: int | None = os.open(layout.tasks, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        folder = None
    stat = os.stat
    try:
        for name in names:
            raw = found.get(name)
            if raw is not None and folder is not None:
                try:
                    st = stat(name + "/task.json", dir_fd=folder, follow_symlinks=False)
                    key_text = f"{st.st_size},{st.st_mtime_ns},{st.st_ino}],"
                    taken = _taken(layout, name, raw, key_text, statuses)
                except (OSError, ValueError, TypeError, IndexError):
                    taken = None  # no task.json, or not a line this taskproto writes
                if taken is not None:
                    fresh[name] = taken
                    continue
            stale.append(name)
    finally:
        if folder is not None:
            os.close(folder)
    return fresh, stale


def _taken(layout: Layout, name: str, raw: str, key_text: str, statuses: bool) -> Row | None:
    """Task `name`'s row from its latest line `raw`, if the line is as `line` writes it,
    `["<name>",[<key>],<hot>,{<statuses>}]<tab><row>`, for the task.json whose key reads
    `key_text`, and (with `statuses`) its agents' status files are as it recorded them. The key
    is compared as text, and only what follows it is parsed, each part where it lies."""
    at = len(name) + 5  # past `["<name>",[`
    if not (raw.startswith(key_text, at) and raw.startswith(",[", at - 2)):
        return None
    hot, at = json.scan(raw, at + len(key_text))
    if type(hot) is not list:
        return None
    if raw.startswith(",{}]\t", at):  # no agents: nothing more to parse
        agents: Any = {}
        tab = at + 4
    else:
        if raw[at] != ",":
            return None
        agents, at = json.scan(raw, at + 1)
        if type(agents) is not dict or not raw.startswith("]\t", at):
            return None
        tab = at + 1
    # the tab right after the whole head, and no other: a line appended after a torn one (no
    # newline between them) holds two, or ends the torn head without its own
    if raw.find("\t", tab + 1) >= 0:
        return None
    if statuses and any(key(layout.status_file(name, a)) != k for a, k in agents.items()):
        return None
    return Row(name, hot, raw)


def latest_lines(layout: Layout) -> dict[str, str]:
    """Each task's latest line by its name, not parsed (a removed task's left out); a line that
    does not start as a head is skipped, and a torn last line too. A task's name holds no quote
    or backslash (layout.py), so it is the text between the head's first two quotes; a line
    that is not one this taskproto writes is found out when its head is parsed (`_rows`)."""
    try:
        with open(path(layout), "rb") as fh:
            data = fh.read()
    except OSError:
        return {}
    raws = data.decode("utf-8", "replace").split("\n")
    raws.pop()  # after the last newline: nothing, or a line torn by a crash
    found: dict[str, str] = {}
    for raw in raws:
        end = raw.find('"', 2)
        if end < 0 or not raw.startswith('["'):
            continue
        name = raw[2:end]
        if raw.startswith(",null]", end + 1):  # [task, null]: gone
            found.pop(name, None)
        else:
            found[name] = raw
    return found


def compact(layout: Layout) -> None:
    """Rewrite the index with each task's latest line only (under the exclusive lock)."""
    from taskproto.state.files import atomic_write

    with _Locked(layout, fcntl.LOCK_EX) as lock:
        # a line kept that no reader takes (not as `line` writes it) costs that task a read of
        # its task.json, as before the rewrite; nothing is lost or made up
        data = "".join(raw + "\n" for raw in latest_lines(layout).values()).encode()
        atomic_write(path(layout), data)
        lock.set_number(len(data))

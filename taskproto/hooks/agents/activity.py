"""What each agent session did last, for the board: `<root>/activity/<session>.json`.

Every client hook call that names a session overwrites that session's file with the event and
its time. This runs on every tool call, so the file is rewritten in place as one page (4096
bytes, JSON padded with spaces) by a single write: about 2 µs, where a temporary file renamed over
the old one costs ~0.9 ms here (ext4 flushes the data of a file renamed over another;
docs/performance.md). It is a hint, not a record: no fsync, and a reader that catches a write
half done skips that file until the next event. A file that is not a plain file of its own (a
link, a second hard link) is replaced, never written through. Standard library only; nothing
here ever fails a hook.

The lifecycle events' `sh` fast path (hook.sh) writes the same record without `time`, each time to
a new file of its own (`sh` cannot tell a hard link, and renaming is a process): the session's
first at `<session>.sh`, then `<session>+1.sh` ... `<session>+64.sh` (`+` is in no plain session
id). The reader takes the file's mtime then, and the newest of a session's records. `sweep`, on
the session's next Python run (any hook call of it that reaches Python: a tool call, its end, the
turn after the last slot), puts the newest at `<session>.sh` and removes the rest (and so for
another session whose numbered records are all over an hour old). `sh` marks its
record `"quiet": "owns no task"` when it is also the session's stamp (quiet.py); the reader drops
the mark.
"""

from __future__ import annotations

import os
import stat
import time

from taskproto import plainjson as json
from taskproto.clients.protocols import activity_status

TYPE_CHECKING = False  # not `from typing`: importing typing costs a hot hook a measurable share
if TYPE_CHECKING:
    from typing import Any

    from taskproto.hooks.agents.common import Payload
    from taskproto.layout import Layout

FOLDER = "activity"
SH = ".sh"  # the records hook.sh writes: `<session>.sh`, `<session>+<n>.sh`
SLOTS = 64  # hook.sh's numbered records: +1 to +64
STALE = 3600  # seconds: another session's numbered records this old are swept too
MAX_DETAIL = 200
SIZE = 4096  # one page: the record is written whole by one write at offset 0

_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")

TOOL_EVENTS = frozenset(("PreToolUse", "BeforeTool", "PostToolUse", "AfterTool"))


def file_name(session: str) -> str:
    """A file name for `session`: itself when it is plain, else a digest (never a path)."""
    if 0 < len(session) <= 128 and session[0] != "." and all(c in _SAFE for c in session):
        return session + ".json"
    from taskproto.git.objects import sha256_hex

    return "h-" + sha256_hex(session.encode("utf-8", "replace"))[:40] + ".json"


def _detail(payload: Payload) -> str:
    for key in ("message", "tool_name", "reason", "source", "notification_type"):
        value = payload.text(key)
        if value:
            return value[:MAX_DETAIL]
    return ""


def record(
    layout: Layout, client: str, event: str, payload: Payload, cwd: str, denied: bool = False
) -> None:
    """Overwrite the session's activity file (only where taskproto's root already exists).
    `denied`: a tool call taskproto's hook refused, which never runs (prompt_origin.py); not
    marked so when the session's last record was a tool call still running (a parallel call)."""
    session = payload.session
    if not session:
        return
    folder = os.path.join(layout.root, FOLDER)
    fields = {
        "session": session,
        "client": client,
        "event": event,
        "time": time.time(),
        "cwd": cwd,
        "detail": _detail(payload),
        # the last tool it called: this call's, else the one the record held (read below)
        "tool": payload.text("tool_name")[:MAX_DETAIL] if event in TOOL_EVENTS else None,
    }
    if denied:
        fields["denied"] = True
    name = file_name(session)
    path = os.path.join(folder, name)
    try:
        try:
            st = os.lstat(folder)
        except FileNotFoundError:
            if not os.path.isdir(layout.root):
                return  # not a repository taskproto was set up in: leave no trace
            os.makedirs(folder, exist_ok=True)
            st = os.lstat(folder)
        if not stat.S_ISDIR(st.st_mode):
            return  # a planted link or file: write nothing through it
        for _ in range(2):
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o600)
            try:
                info = os.fstat(fd)
                if stat.S_ISREG(info.st_mode) and info.st_nlink == 1:
                    if fields["tool"] is None and info.st_size:
                        fields["tool"] = _last_tool(os.pread(fd, SIZE, 0))
                    if denied and info.st_size and running(os.pread(fd, SIZE, 0)):
                        del fields["denied"]  # the call before it may still run: keep that
                    os.pwrite(fd, _page(fields), 0)
                    if info.st_size > SIZE:
                        os.ftruncate(fd, SIZE)
                    break
            finally:
                os.close(fd)
            os.unlink(path)  # a hard link to another file (or not a file): replace, never write
        else:
            return
        if name == session + ".json" and last_slot(folder, session):
            sweep(folder, session)  # (a plain id: hook.sh's too)
    except OSError:
        return


def _page(fields: dict[str, Any]) -> bytes:
    """The record as one page, padded with spaces (`tool` only when there is one: hook.sh
    writes the rest alike)."""
    if not fields.get("tool"):
        fields = {k: v for k, v in fields.items() if k != "tool"}
    data = json.dumps(fields).encode()
    if len(data) > SIZE:  # a huge session id or path: keep what identifies the session
        fields = {**fields, "cwd": "", "detail": "", "tool": None}
        data = json.dumps(fields).encode()[:SIZE]
    return data.ljust(SIZE)


def running(page: bytes) -> bool:
    """Whether a record shows a tool call that has not ended (started and not denied)."""
    try:
        last = json.loads(page)
    except ValueError:
        return False
    return (
        isinstance(last, dict)
        and last.get("event") in ("PreToolUse", "BeforeTool")
        and not last.get("denied")
    )


def _last_tool(page: bytes) -> str | None:
    try:
        tool = json.loads(page).get("tool")
    except (ValueError, AttributeError):
        return None
    return tool if isinstance(tool, str) else None


def last_slot(folder: str, session: str) -> int:
    """The numbered record hook.sh takes for the session's last (0: none), found as it finds it:
    by halving, the records being made in order (here a link to nowhere counts too: it is swept)."""
    low, high = 0, SLOTS + 1
    while high - low > 1:
        middle = (low + high) // 2
        if os.path.lexists(os.path.join(folder, f"{session}+{middle}{SH}")):
            low = middle
        else:
            high = middle
    return low


def sweep(folder: str, session: str) -> None:
    """Put the newest of hook.sh's records of `session` at `<session>.sh` (renamed: a name, never
    data), and remove its other numbered ones (only names: a hard link's file stays). Another
    session's too, once every one of its numbered records is more than an hour old (a session
    that ended without its SessionEnd): no hook of it is running then, which could be about to
    remove the record it made."""
    by_session: dict[str, dict[str, int]] = {}
    try:
        for name in os.listdir(folder):
            owner, plus, digits = name[: -len(SH)].rpartition("+")
            if plus and name.endswith(SH) and digits.isascii() and digits.isdigit():
                by_session.setdefault(owner, {})[name] = int(digits)
    except OSError:
        return
    stale = time.time_ns() - STALE * 1_000_000_000
    for owner, numbered in by_session.items():
        if owner != session:  # the last one made is the newest: one look at it first
            last = max(numbered, key=numbered.__getitem__)
            if _newest(folder, [(last, 0)]).get(last, (0, 0))[0] >= stale:
                continue
        found = _newest(folder, [*numbered.items(), (owner + SH, 0)])
        if owner == session or all(when < stale for when, _n in found.values()):
            _keep_newest(folder, owner + SH, numbered, found)


def _newest(folder: str, names: list[tuple[str, int]]) -> dict[str, tuple[int, int]]:
    """The plain files among `names`, each with (mtime, number): the newest is the greatest."""
    found = {}
    for name, number in names:
        try:
            st = os.lstat(os.path.join(folder, name))
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            found[name] = (st.st_mtime_ns, number)
    return found


def _keep_newest(
    folder: str, base: str, numbered: dict[str, int], found: dict[str, tuple[int, int]]
) -> None:
    newest = max(found, key=found.__getitem__) if found else None
    for name in numbered:
        try:
            if name == newest:
                os.rename(os.path.join(folder, name), os.path.join(folder, base))
            else:
                os.unlink(os.path.join(folder, name))
        except OSError:  # gone meanwhile, or a folder planted there: left
            continue


def record_at(
    cwd: str, env: dict[str, str], client: str, event: str, payload: Payload, denied: bool = False
) -> Layout | None:
    """`record` in the repository around `cwd`, if there is one (the tool-call path); that
    repository's layout."""
    if not cwd or not payload.session:
        return None
    from taskproto.layout import find_layout

    try:
        layout = find_layout(cwd, environ=env)
    except Exception:  # noqa: BLE001 - unreadable settings: the decision reports them, not this
        return None
    if layout is not None:
        record(layout, client, event, payload, cwd, denied)
    return layout


def read_all(root: str) -> dict[str, dict[str, Any]]:
    """Every session's latest activity, by session id (unreadable files are skipped)."""
    folder = os.path.join(root, FOLDER)
    result: dict[str, dict[str, Any]] = {}
    try:
        names = os.listdir(folder)
    except OSError:
        return result
    written: dict[str, int] = {}  # a session's two records are ordered by mtime: the same clock
    tools: dict[str, str] = {}
    for name in names:
        if name.startswith(".") or not name.endswith((".json", SH)):
            continue
        try:
            fd = os.open(os.path.join(folder, name), os.O_RDONLY | os.O_NOFOLLOW)
            with os.fdopen(fd, "rb") as fh:
                data = json.loads(fh.read(SIZE + 1))
                mtime = os.fstat(fh.fileno()).st_mtime_ns
                if isinstance(data, dict) and "time" not in data:  # written by hook.sh
                    data["time"] = mtime / 1e9
                    data.pop("quiet", None)
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and isinstance(data.get("session"), str):
            if isinstance(data.get("time"), int | float) and isinstance(data.get("event"), str):
                if written.get(data["session"], -1) < mtime:
                    result[data["session"]], written[data["session"]] = data, mtime
                if isinstance(data.get("tool"), str):  # Python's record: the last tool called
                    tools[data["session"]] = data["tool"]
    for session, tool in tools.items():
        result[session].setdefault("tool", tool)  # hook.sh's newer record names none
    return result


def status(event: str, waiting_on_user: bool = False) -> str:
    """working / waiting / idle / ended (clients/protocols.py decides)."""
    return activity_status(event, waiting_on_user)

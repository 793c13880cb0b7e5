"""Stamps that let the installed hook script (hook.sh) answer the owner's heartbeat in `sh`.

When Python answers a heartbeat of the task's owner from its recorded client process, it leaves two
files under `<root>/cache/quiet/` for the next turn's `sh` fast path:

- `owner/<session>`: one line `<task> <client pid> <1 if heartbeat.json existed>`, its mtime set to
  a moment just before task.json and heartbeat.json were read (less MARGIN_NS, for the file
  system's coarse clock). A later change of either file (a claim, a release, a takeover, a beat)
  makes that file newer than the stamp, and `sh` hands the hook back to Python.
- `due/<session>`: empty, its mtime the time the next heartbeat is due. `sh` compares it with the
  activity file it has just written (whose mtime is now): `[ due -nt activity ]`.

They are hints, never the authority: Python decides whenever `sh` is not sure. Standard library
only; nothing here ever fails a hook.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from datetime import datetime

    from taskproto.layout import Layout

FOLDER = ("cache", "quiet")
MARGIN_NS = 20_000_000  # 20 ms: file times come from a clock that lags by up to a tick (HZ >= 50)
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")


def plain(name: str) -> bool:
    """A session id or task name `sh` can use as a file name as it is."""
    return 0 < len(name) <= 128 and name[0] != "." and all(c in _SAFE for c in name)


def paths(layout: Layout, session: str) -> tuple[str, str]:
    base = os.path.join(layout.root, *FOLDER)
    return os.path.join(base, "owner", session), os.path.join(base, "due", session)


def _put(path: str, data: bytes, mtime_ns: int) -> None:
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    tmp = os.path.join(folder, f".tmp-{os.path.basename(path)}.{os.getpid()}.{os.urandom(4).hex()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)
    os.utime(tmp, ns=(mtime_ns, mtime_ns))  # before the rename: never seen with another time
    os.replace(tmp, path)


def write(
    layout: Layout,
    session: str,
    task: str,
    pid: int,
    read_at_ns: int,
    last_beat: datetime,
    every: float,
    beat_exists: bool,
) -> None:
    """Session `session` owns `task` from client process `pid` as read at `read_at_ns`; its last
    heartbeat was at `last_beat`, and the next one is due `every` seconds later."""
    if not plain(session) or not plain(task) or pid <= 1:
        return
    owner, due = paths(layout, session)
    try:
        _put(due, b"", int(last_beat.timestamp() * 1e9) + int(every * 1e9))
        _put(owner, f"{task} {pid} {int(beat_exists)}\n".encode(), read_at_ns - MARGIN_NS)
    except OSError:
        return


def forget(layout: Layout, session: str) -> None:
    """The session ended: its stamps go (a stale one would only send `sh` to Python)."""
    if not plain(session):
        return
    for path in paths(layout, session):
        try:
            os.unlink(path)
        except OSError:
            pass

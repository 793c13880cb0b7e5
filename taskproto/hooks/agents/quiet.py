"""Stamps that let the installed hook script (hook.sh) answer the owner's heartbeat in `sh`.

When Python answers a heartbeat of the task's owner from its recorded client process, it leaves two
files under `<root>/cache/quiet/` for the next turn's `sh` fast path:

- `owner/<session>`: one line `<task> <client pid>` (`- -` when the session owns no task), its
  mtime a moment before the task files were read, on the file system's own clock (`started`): a
  file written after that moment is newer than the stamp, however coarse that clock. A later
  change of any task (a claim, a release, a takeover, a beat, a new task: task.json, its folder
  or the tasks folder becomes newer than the stamp) sends the hook back to Python, which answers
  and leaves a new stamp.
- `due/<session>`: empty, its mtime the time the next heartbeat is due. `sh` compares it with the
  activity file it has just written (whose mtime is now): `[ due -nt activity ]`.

For a session that owns no task, `sh` keeps a stamp of its own at no extra cost: its newest activity
record (`activity/<session>.sh` or a numbered `<session>+<n>.sh`, activity.py), marked when it was
made in a turn that found no task naming the session, as of its mtime: it is made before the task
files are listed and read, and `sh` counts a file of that very mtime as changed. The newer of the
two stamps holds. So a session's next turn greps only the tasks that changed since its last one.

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
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")


def plain(name: str) -> bool:
    """A session id or task name `sh` can use as a file name as it is."""
    return 0 < len(name) <= 128 and name[0] != "." and all(c in _SAFE for c in name)


def paths(layout: Layout, session: str) -> tuple[str, str]:
    base = os.path.join(layout.root, *FOLDER)
    return os.path.join(base, "owner", session), os.path.join(base, "due", session)


def put(path: str, data: bytes, mtime_ns: int) -> None:
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


def started(layout: Layout) -> int:
    """A moment before the task files are read, for a stamp (or offer_cache.py's copy): 1 ns before
    the mtime of a new file, made and removed here. File times come from a clock that may lag the
    wall clock by a tick; a file written later has this mtime or a later one, so `-nt` sees it.
    0 when taskproto's root is not a folder or no file can be made (then leave nothing)."""
    if not os.path.isdir(layout.root):
        return 0
    folder = os.path.join(layout.root, *FOLDER)
    marker = os.path.join(folder, f".tmp-started.{os.getpid()}.{os.urandom(4).hex()}")
    try:
        os.makedirs(folder, exist_ok=True)
        fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    except OSError:
        return 0
    try:
        return os.fstat(fd).st_mtime_ns - 1
    finally:
        os.close(fd)
        try:
            os.unlink(marker)
        except OSError:
            pass


def write(
    layout: Layout,
    session: str,
    task: str | None,
    pid: int | None,
    made_ns: int,
    due_at: datetime | None = None,
) -> None:
    """As read after `made_ns` (`started`), `session` owns `task` (None: no task) from client
    process `pid`, and its next heartbeat is due at `due_at`."""
    if not plain(session) or (task is not None and not (plain(task) and pid and pid > 1)):
        return
    if not made_ns or not os.path.isdir(layout.root):
        return  # not a repository taskproto was set up in: leave no trace
    owner, due = paths(layout, session)
    try:
        if task is not None and due_at is not None:
            put(due, b"", int(due_at.timestamp() * 1e9))
        line = f"{task} {pid}\n" if task is not None else "- -\n"
        put(owner, line.encode(), made_ns)
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

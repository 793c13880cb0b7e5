"""The per-task file lock held around every read-modify-write.

An exclusive `flock()` on `<task>/.lock`, the lock filelock took before (the same system call,
so a process of an older taskproto and this one exclude each other). The standard library does
it: importing filelock cost a transition about 10 ms (it brings `logging`, `inspect` and
asyncio support).
"""

from __future__ import annotations

import errno
import fcntl
import os
import time

from taskproto.errors import LockHeld, TaskprotoError
from taskproto.layout import LOCK_NAME

# Each poll is one non-blocking flock() call, so polling every millisecond costs little CPU
# and a waiter never sleeps through many hand-overs (50 ms polls once made a wait of a second).
POLL_INTERVAL = 0.001


def lock_path(task_dir: str | os.PathLike[str]) -> str:
    """The lock file of the task in `task_dir` (a str: the quick write path imports no pathlib)."""
    return os.path.join(task_dir, LOCK_NAME)


class task_lock:  # noqa: N801 - used as a function: `with task_lock(folder, task, timeout) as waited`
    """Hold the task's lock; `with` gives the seconds spent waiting for it (LockHeld after
    `timeout`).

    The lock file is kept on release: the hooks' lock-free readers wait on the same file with
    flock() when a save is in flight (state/integrity.py), which an unlinked file cannot offer.
    A link planted in its place is never followed. (A class, not `contextlib.contextmanager`:
    contextlib and what it imports cost every quick change about 2 ms.)
    """

    def __init__(self, task_dir: str | os.PathLike[str], task: str, timeout: float) -> None:
        self.path, self.task, self.timeout = lock_path(task_dir), task, timeout
        self.fd = -1

    def __enter__(self) -> float:
        path, task = self.path, self.task
        start = time.monotonic()
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        except OSError as exc:  # a planted link (ELOOP), a read-only or full disk, a folder
            raise TaskprotoError(
                f"cannot take the lock of task {task!r}: {path}: {exc.strerror or exc}; "
                "remove whatever is in its place or fix the folder's permissions, then retry"
            ) from None
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except OSError as exc:
                    if exc.errno not in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES):
                        raise TaskprotoError(
                            f"cannot take the lock of task {task!r}: {path}: {exc.strerror or exc}"
                        ) from None
                waited = time.monotonic() - start
                if self.timeout >= 0 and waited >= self.timeout:
                    from taskproto.state.lock_holder import holder

                    raise LockHeld(task, waited, holder(fd))
                time.sleep(POLL_INTERVAL)
        except BaseException:
            os.close(fd)
            raise
        self.fd = fd
        return time.monotonic() - start

    def __exit__(self, *exc: object) -> None:
        fd, self.fd = self.fd, -1
        try:
            fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

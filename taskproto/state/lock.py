"""The per-task file lock held around every read-modify-write."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from taskproto.errors import LockHeld, TaskprotoError
from taskproto.layout import LOCK_NAME

# filelock polls every 50 ms by default; under contention a waiter can then sleep
# through many hand-overs (a wait of a full second was seen). Each poll is one
# non-blocking flock() call, so polling every millisecond costs little CPU.
POLL_INTERVAL = 0.001


def lock_path(task_dir: Path) -> Path:
    return task_dir / LOCK_NAME


def _file_lock(path: str) -> FileLock:
    """The lock file is kept on release: the hooks' lock-free readers wait on the same file with
    flock() when a save is in flight (state/integrity.py), which an unlinked file cannot offer.
    (filelock before 4.x never unlinked it and has no such option.)"""
    try:
        return FileLock(path, thread_local=False, preserve_lock_file=True)  # type: ignore[call-arg,unused-ignore]
    except TypeError:
        return FileLock(path, thread_local=False)


@contextmanager
def task_lock(task_dir: Path, task: str, timeout: float) -> Iterator[float]:
    """Hold the task's lock; yields the seconds spent waiting for it."""
    lock = _file_lock(str(lock_path(task_dir)))
    start = time.monotonic()
    try:
        lock.acquire(timeout=timeout, poll_interval=POLL_INTERVAL)
    except Timeout:
        raise LockHeld(task, time.monotonic() - start) from None
    except (
        OSError
    ) as exc:  # a planted link (ELOOP: filelock never follows one), a read-only or full disk
        raise TaskprotoError(
            f"cannot take the lock of task {task!r}: {lock_path(task_dir)}: {exc.strerror or exc}; "
            "remove whatever is in its place or fix the folder's permissions, then retry"
        ) from None
    try:
        yield time.monotonic() - start
    finally:
        lock.release()

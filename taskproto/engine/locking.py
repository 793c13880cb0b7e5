"""What the write path needs beside the core: the task's lock held around a change, as context
managers (`Core.lock` yields task.json's path, `Core.locked` the task loaded fresh under the lock;
classes, not `contextlib`, whose import costs every change a share of the interpreter's start-up),
and the small readings of a task and of an error that the core makes. `core` is the engine's Core,
not imported: it imports this module."""

from __future__ import annotations

import os

from taskproto.errors import MISSING_TASK_FILE, CorruptState, GitError
from taskproto.state import store
from taskproto.state.lock import task_lock

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from taskproto.state.models import Task


class Lock:
    """The task's lock held, as a context manager (no `contextlib` on the write path); `enter`
    makes what the `with` gets."""

    def __init__(self, core: Any, name: str) -> None:
        self.core, self.name = core, name
        self.held: Any = None

    def __enter__(self) -> Path:
        from pathlib import Path

        return Path(self._take())

    def _take(self) -> str:
        """Take the lock; task.json's path."""
        core, name = self.core, self.name
        path: str = core.task_file(name)
        self.held = task_lock(os.path.dirname(path), name, core.config.lock_timeout)
        core.last_lock_wait = self.held.__enter__()
        core._held.add(name)
        return path

    def __exit__(self, *exc: object) -> None:
        core = self.core
        try:
            core._held.discard(self.name)
            if self.held is not None:
                self.held.__exit__(*exc)
        finally:
            if core.offer.due and not core._held:  # every lock released: a save is complete
                core.offer.renew()


class LockedTask(Lock):
    """The lock held, and the task loaded fresh under it (see `Core.locked`)."""

    def __init__(self, core: Any, name: str, verify: bool) -> None:
        super().__init__(core, name)
        self.verify = verify

    def __enter__(self) -> Task:  # type: ignore[override]
        path = self._take()
        core, name = self.core, self.name
        try:
            core.touched.add(name)
            try:
                data = store.read_bytes(path)
            except FileNotFoundError:
                raise CorruptState(path, MISSING_TASK_FILE, None) from None
            task: Task
            task, raw = core._parse(name, path, data, move_aside=True)
            if self.verify:
                core.verify(task, data, core._problem(task, data, raw))
            return task
        except BaseException:
            self.__exit__(None, None, None)
            raise


def bytes_or_none(path: str) -> bytes | None:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None


def log_view(task: Task) -> dict[str, object]:
    """What the integrity check reads of a task (integrity.check, log_state_problem), without
    dumping all of it: its state, revision, and the log from its last entry that vouches for a
    state (the check reads no further back)."""
    tail: list[dict[str, object]] = []
    for e in reversed(task.transition_log):
        tail.append({"kind": e.kind, "from": e.from_state, "to": e.to_state})
        if e.kind != "repair" or e.from_state is None:
            break
    tail.reverse()
    return {"state": task.state, "revision": task.revision, "transition_log": tail}


def short_reason(exc: BaseException) -> str:
    """The first line of what a failed git command (or any error) said."""
    if isinstance(exc, GitError) and exc.stderr.strip():
        return exc.stderr.strip().splitlines()[0].removeprefix("fatal: ")
    text = str(exc).strip().splitlines()
    return text[-1] if text else type(exc).__name__

"""task.json's bytes for a process that saves tasks again and again (the engine's `Core`).

`dump` makes the bytes of a task and refuses, before anything is written, one that a load of
those bytes would not accept (records do not check assignments). `remember`, after a save
succeeded, keeps that task with its bytes; `take` hands it out when task.json holds exactly
those bytes again, so the next load of a task this process just saved does not parse it again.
Nothing else is skipped: the caller still reads the file and checks it against its journal.
Different bytes (another process saved, a hand edit) are parsed and validated as always.
"""

from __future__ import annotations

from taskproto.errors import TaskprotoError
from taskproto.state import store
from taskproto.state.models import Task
from taskproto.state.record import RecordError


class TaskFiles:
    """The last saved copy of each task this process saves (see the module)."""

    def __init__(self) -> None:
        self._dumped: dict[str, tuple[bytes, Task]] = {}
        self._saved: dict[str, tuple[bytes, Task]] = {}

    def dump(self, task: Task) -> bytes:
        """`store.dump(task)`, refused when a load of the bytes would refuse them."""
        self._dumped.pop(task.name, None)
        data = store.dump(task)
        try:
            loaded = Task.model_validate_json(data)
        except RecordError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "the task"
            raise TaskprotoError(
                f"refused to save task {task.name}: it does not validate ({where}: "
                f"{first['msg']}); nothing was written"
            ) from None
        self._dumped[task.name] = (data, loaded)
        return data

    def remember(self, name: str, data: bytes) -> None:
        """task.json of `name` now holds `data` (a save of `dump`'s bytes succeeded)."""
        self._saved.pop(name, None)
        dumped = self._dumped.pop(name, None)
        if dumped is not None and dumped[0] == data:
            self._saved[name] = dumped

    def take(self, name: str, data: bytes) -> Task | None:
        """The task a load of `data` makes, when `data` is exactly what this process last saved
        for `name` (once: the caller may change what it gets)."""
        saved = self._saved.pop(name, None)
        if saved is None or saved[0] != data:
            return None
        return saved[1]

    def forget(self, name: str) -> None:
        self._saved.pop(name, None)
        self._dumped.pop(name, None)

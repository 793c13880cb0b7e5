"""task.json's bytes for a process that saves tasks again and again (the engine's `Core`).

A task's transition log grows by one entry per change, and its entries are frozen: once
written, an entry never changes. Dumping the whole task (`store.dump`) and, at the next change,
parsing and validating the whole file again cost time in proportion to the log (about 2 ms at
550 entries). `TaskFiles` does the same work in proportion to what changed:

- `dump` writes each log entry's JSON once (by identity: copies of a task share their entries)
  and the rest of the task as before; the bytes are exactly `store.dump`'s (a test compares them).
- `dump` also validates the task as a load of those bytes would (the log's entries are validated
  models already) and refuses one that does not validate, before anything is written (the models
  do not validate assignments); `remember`, after a save succeeded, keeps that task with the
  bytes; `take` hands that model out when task.json holds exactly those bytes again. Nothing
  else is skipped: the caller still reads the file and checks it against its journal. Different
  bytes (another process saved, a hand edit) are parsed and validated as always.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

from pydantic import ValidationError
from pydantic_core import PydanticSerializationError

from taskproto import plainjson as json
from taskproto.errors import TaskprotoError
from taskproto.state import store
from taskproto.state.models import LogEntry, Task

# The log's place in the dump of a task whose log is empty. Raw newlines occur in the dump only
# between items (strings escape theirs), and only the task's own keys are indented by two spaces.
_EMPTY_LOG = '\n  "transition_log": [],\n'
_INDENT = "\n    "  # a log entry's lines in the task's dump (indent=2, two levels down)


@dataclass
class _Dumped:
    data: bytes
    head: Task  # the task less its log, as a load of the bytes makes it
    log: list[LogEntry]


@dataclass
class _Saved:
    data: bytes
    task: Task


class TaskFiles:
    """The bytes of the tasks this process saves, and the last saved copy of each (see the
    module)."""

    def __init__(self) -> None:
        # per task: the log last dumped, and its entries' JSON in the task's dump, joined
        self._entries: dict[str, tuple[list[LogEntry], bytes]] = {}
        self._dumped: dict[str, _Dumped] = {}
        self._saved: dict[str, _Saved] = {}

    def dump(self, task: Task) -> bytes:
        """`store.dump(task)`, with each log entry's JSON made once."""
        self._dumped.pop(task.name, None)
        log = list(task.transition_log)
        if not set(map(type, log)) <= {LogEntry}:
            return store.dump(task)  # not what a load makes: the whole task, as always
        if store.too_deep(task):
            return store.dump(task)  # refuses it, in its own words
        shell = task.model_copy(update={"transition_log": []})
        try:
            head = shell.model_dump_json(by_alias=True, indent=2) + "\n"
        except PydanticSerializationError:
            return store.dump(task)
        if head.count(_EMPTY_LOG) != 1:
            return store.dump(task)
        before, after = head.encode().split(_EMPTY_LOG.encode())
        entries, joined = self._entries.get(task.name, ([], b""))
        # the entries this process dumped before, as long as they are the same objects
        if not (len(entries) <= len(log) and all(map(operator.is_, entries, log))):
            entries, joined = [], b""
        texts = [joined] if joined else []
        for entry in log[len(entries) :]:
            try:
                text = entry.model_dump_json(by_alias=True, indent=2)
            except PydanticSerializationError:
                return store.dump(task)  # refuses it, in its own words
            texts.append(("    " + text.replace("\n", _INDENT)).encode())
        joined = b",\n".join(texts)  # the bytes so far are copied, never made again
        self._entries[task.name] = (log, joined)
        if joined:
            data = b'%s\n  "transition_log": [\n%s\n  ],\n%s' % (before, joined, after)
        else:
            data = head.encode()
        # refused before anything is written: a field set wrong (models do not validate
        # assignments) would make a task.json the next load quarantines
        try:
            loaded = Task.model_validate(json.loads(head))
        except (ValidationError, ValueError, RecursionError) as exc:
            raise TaskprotoError(
                f"refused to save task {task.name}: it does not validate ({_first(exc)}); "
                "nothing was written"
            ) from None
        self._dumped[task.name] = _Dumped(data, loaded, log)
        return data

    def remember(self, name: str, data: bytes) -> None:
        """task.json of `name` now holds `data` (a save of `dump`'s bytes succeeded): keep the task
        as a load of them would make it. Anything unexpected keeps nothing (the next load
        parses)."""
        self._saved.pop(name, None)
        dumped = self._dumped.pop(name, None)
        if dumped is None or dumped.data != data:
            return
        task = dumped.head
        task.transition_log = list(dumped.log)  # its own list: `_entries` keeps this one
        self._saved[name] = _Saved(data, task)

    def take(self, name: str, data: bytes) -> Task | None:
        """The task a load of `data` makes, when `data` is exactly what this process last saved
        for `name` (once: the caller may change what it gets)."""
        saved = self._saved.pop(name, None)
        if saved is None or saved.data != data:
            return None
        return saved.task

    def forget(self, name: str) -> None:
        self._saved.pop(name, None)
        self._dumped.pop(name, None)


def _first(exc: Exception) -> str:
    """The first problem a validation found, in one line."""
    if isinstance(exc, ValidationError) and exc.errors():
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error["loc"]) or "the task"
        return f"{where}: {error['msg']}"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__

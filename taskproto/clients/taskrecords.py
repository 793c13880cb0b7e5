"""The tasks' own records of the client hook files `init` copied into their worktrees:
`<root>/tasks/<task>/agent-hooks.json`, `{"files": {path: entry}}`, each path (and each folder an
entry made) relative to the task's folder.

clients/settings.py keeps every recorded file in one mapping of absolute paths; a task worktree's
files are read from, and written to, their task's record here, so a new worktree reads and writes
its own task's record and no other: a `task create` costs the same at ten tasks or ten thousand,
and the record goes with the task's folder. Relative paths never name an old place when the
repository moves (clients/moved.py renames the main record's).
"""

from __future__ import annotations

import os
from pathlib import Path

from taskproto import plainjson as json
from taskproto.state.files import atomic_write

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

RECORD = "agent-hooks.json"  # in the task's folder, as the main record is in the root


def task_of(tasks: str, path: str) -> str | None:
    """The task whose folder (under `tasks`, which ends with a separator) holds `path`."""
    if not path.startswith(tasks):
        return None
    task, sep, _ = path[len(tasks) :].partition(os.sep)
    return task if sep and task else None


def read(tasks: str, task: str, files: dict[str, Any]) -> bytes | None:
    """Task `task`'s record merged into `files` (absolute paths; an entry there already wins); the
    record's bytes, None when there is none that reads."""
    folder = tasks + task
    try:
        raw = Path(folder, RECORD).read_bytes()
        found = json.loads(raw)["files"]
    except (OSError, ValueError, TypeError, KeyError):
        return None
    for name, entry in found.items() if isinstance(found, dict) else ():
        if isinstance(entry, dict) and isinstance(entry.get("created_dirs"), list):
            dirs = [os.path.join(folder, str(d)) for d in entry["created_dirs"]]
            entry = {**entry, "created_dirs": dirs}
        files.setdefault(os.path.join(folder, name), entry)
    return raw


def split(tasks: str, files: dict[str, Any]) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """(the entries of the main record, each task's entries named relative to its folder)."""
    main: dict[str, Any] = {}
    per_task: dict[str, dict[str, Any]] = {}
    for name, entry in files.items():
        task = task_of(tasks, name)
        if task is None:
            main[name] = entry
            continue
        folder = tasks + task + os.sep
        if isinstance(entry, dict) and isinstance(entry.get("created_dirs"), list):
            dirs = [
                d[len(folder) :] if str(d).startswith(folder) else str(d)
                for d in entry["created_dirs"]
            ]
            entry = {**entry, "created_dirs": dirs}
        per_task.setdefault(task, {})[name[len(folder) :]] = entry
    return main, per_task


def write(
    tasks: str,
    per_task: dict[str, dict[str, Any]],
    read_before: dict[str, bytes | None],
    sync: bool,
) -> None:
    """Each task's record that changed since it was read (`read_before`: the tasks whose records
    were read, and their bytes then) written again; one left with no entry removed; a task whose
    folder is gone skipped (its worktrees went with it)."""
    for task in sorted(set(read_before) | set(per_task)):
        where = Path(tasks + task)
        if not where.is_dir():
            continue
        entries = per_task.get(task)
        if not entries:
            if read_before.get(task) is not None:
                (where / RECORD).unlink(missing_ok=True)
            continue
        # unsorted: sorted keys would cost `json`'s import (plainjson.py)
        text = (json.dumps({"files": entries}, indent=1) + "\n").encode()
        if text != read_before.get(task):
            atomic_write(where / RECORD, text, sync=sync)

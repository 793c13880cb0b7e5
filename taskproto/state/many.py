"""Many tasks read at once: the one rule every reader of all tasks follows (`task list`, `ready`,
the board's cards, SessionStart's offer, the tasks' index rows, the heartbeat renewal).

- A task still being created (its folder holds a live `task create`'s intent, `creating.json`,
  and no task.json yet) is left out: no task yet, and no broken one either. A create that died
  half-way is read like any task, and so reported broken, for doctor or `task abort`.
- The journal heads of the others are read with one git process (`integrity.prefetch`), whatever
  their number, then each task is loaded by the caller's `load`.
- A task whose load fails (task.json corrupt, unreadable or missing, its journal missing or not
  vouching for it) is reported in `broken` with the one line its error says, never raised: one
  task never hides the others. No git on PATH is no task's fault: that is raised, so each door
  says so in its own uniform line (git/files.py `GIT_MISSING`). The standard-library readers
  (hooks/tasks.py) pass `raising` instead: what they cannot read only the engine can judge, so
  they hand the whole reading to it, and the engine reports that task by this same rule.

Standard library only: the hooks' quick reads use it.
"""

from __future__ import annotations

import os

from taskproto import bulk
from taskproto import plainjson as json
from taskproto.git.files import git_missing
from taskproto.state import integrity

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any, TypeVar

    from taskproto.layout import Layout
    from taskproto.names import TaskName

    T = TypeVar("T")

CREATING = "creating.json"  # the intent of a `task create` in progress, in the task's folder


def names_of(folders: Sequence[str]) -> list[TaskName]:
    """Those of the tasks' `folders` whose names are task names (another folder is no task)."""
    from taskproto.errors import InvalidName
    from taskproto.names import task_name

    found = []
    for folder in folders:
        try:
            found.append(task_name(folder))
        except InvalidName:
            continue
    return found


def read_intent(task_dir: str) -> dict[str, Any] | None:
    """The intent a `task create` left in the task's folder, or None when it finished."""
    try:
        with open(os.path.join(task_dir, CREATING), "rb") as fh:
            data = json.loads(fh.read())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def creator_alive(intent: dict[str, Any]) -> bool:
    """Whether the `task create` that wrote `intent` still runs (same host, its pid alive)."""
    from taskproto.sessions import hostname, pid_alive

    pid = intent.get("pid")
    return intent.get("host") == hostname() and isinstance(pid, int) and pid_alive(pid)


def being_created(layout: Layout, name: str) -> bool:
    """Whether a live `task create` is still making task `name` (its task.json not written yet)."""
    if os.path.exists(layout.task_file(name)):
        return False
    intent = read_intent(layout.task_dir(name))
    return intent is not None and creator_alive(intent)


def listed(layout: Layout, names: Sequence[str]) -> list[str]:
    """Those of `names` that are tasks to read: all but the ones still being created."""
    return [name for name in names if not being_created(layout, name)]


def load_many(
    layout: Layout, names: Sequence[str], load: Callable[[str], T], raising: bool = False
) -> tuple[dict[str, T], dict[str, str]]:
    """({name: task}, {name: why it cannot be read}) for `names`, by the rule above, in their
    order; a task still being created is in neither. With `raising`, a load's error is raised."""
    names = listed(layout, names)
    tasks: dict[str, T] = {}
    broken: dict[str, str] = {}
    try:
        if len(names) > 1 and layout.dirs is not None:
            try:
                integrity.prefetch(layout.dirs, names)  # their journals through one git process
            except Exception:  # noqa: BLE001 - only the speed is lost: each check reads its own
                pass
        with bulk.paused():  # records with no cycles among them: no collector passes
            for name in names:
                try:
                    tasks[name] = load(name)
                except Exception as exc:  # noqa: BLE001 - one unreadable task never hides others
                    if raising or git_missing(exc):  # no git: no task is unreadable, git is gone
                        raise
                    broken[name] = str(exc) or type(exc).__name__
    finally:
        integrity.forget()  # the heads this reading did not take are not kept for a later one
    return tasks, broken

"""A task named that is no task here any more: landed or removed, its journal archived."""

from __future__ import annotations

from typing import TYPE_CHECKING

from taskproto.errors import TaskNotFound, TaskprotoError

if TYPE_CHECKING:
    from taskproto.engine.core import Core


def no_longer_here(engine: Core | None, exc: TaskNotFound) -> TaskprotoError:
    """A task with no folder here whose journal is archived here (landed, or removed) said so,
    with where its history is, instead of "create one" (or "sync"); any other missing task as it
    was. Every door's refusal goes through this: the CLI's one error handler, the board's, the MCP
    tools' (mcp/base.py), and a new dependency on such a task (engine/deps.py)."""
    from taskproto.state import journal

    if engine is None:
        return exc
    try:
        archives = engine.repo.refs(journal.ARCHIVE_PREFIX + exc.task)  # <task>/<UTC stamp>
        if not archives:
            return exc
        data = journal.task_json_at(engine.repo, archives[max(archives)])
    except TaskprotoError:
        return exc  # the archive cannot be read: the refusal as it was
    what = "landed" if data and data.get("landed") else "was removed"
    return TaskprotoError(
        f"task {exc.task!r} {what}: it is no task here any more, its journal is kept "
        f"(`taskproto log {exc.task}` shows its history)"
    )

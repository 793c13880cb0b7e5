"""The stable JSON shape of a task, shared by `task list/show --json` and the MCP server: the
engine's side of state/summary.py (which the quick read path uses on task.json itself)."""

from __future__ import annotations

from taskproto.state import summary

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.engine.core import Core
    from taskproto.state.models import Task


def task_summary(task: Task, engine: Core) -> dict[str, Any]:
    """The stable JSON shape of a task in list/show output."""
    states = engine.workflow(task).state_table()
    return summary.task_summary(
        task.model_dump(mode="json"),
        states,
        engine.agent_statuses(task),
        str(engine.config.task_dir(task.name)),
    )

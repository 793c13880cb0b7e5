"""The stable JSON shape of a task, shared by `task list/show --json` and the MCP server."""

from __future__ import annotations

from typing import Any

from taskproto.engine.core import Core
from taskproto.state.models import Task


def task_summary(task: Task, engine: Core) -> dict[str, Any]:
    """The stable JSON shape of a task in list/show output."""
    wf = engine.workflow(task)
    state = wf.state(task.state)
    owner = task.owner
    return {
        "name": task.name,
        "workflow": task.workflow,
        "state": task.state,
        "revision": task.revision,
        "description": task.description,
        "owner": None
        if owner is None
        else {
            "session": owner.session,
            "host": owner.host,
            "pid": owner.pid,
            "claimed_at": owner.claimed_at.isoformat(),
            "heartbeat_at": owner.heartbeat_at.isoformat(),
        },
        "agents": engine.agent_statuses(task),
        "allows_edits": state.allows_edits,
        "allows_commits": state.allows_commits,
        "next": [
            {"trigger": t.trigger, "to": t.dest, "guards": t.guards}
            for t in wf.triggers_from(task.state)
        ],
        "priority": task.priority,
        "depends_on": list(task.depends_on),
        "created_at": task.created_at.isoformat(),
        "updated_at": task.updated_at.isoformat(),
    }

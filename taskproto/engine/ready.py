"""The ready queue: which tasks a session can start now, most urgent first.

A task is ready when nobody holds it (no owner here, or one provably gone; with a shared remote,
no live claim there either), it is in its workflow's initial state or a resumable one, the user
has not paused it with a question, no escalation of it waits for the user, and every task it
depends on has reached a final state.
Ready tasks are ordered by priority (0 first), then age, then name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from taskproto.engine.core import Core
from taskproto.engine.deps import Resolver, Waiting, describe, load_all
from taskproto.errors import TaskprotoError
from taskproto.remote import RemoteClaim
from taskproto.sessions import owner_gone
from taskproto.state.models import Task, utcnow


@dataclass
class Entry:
    """One task's place in the queue: ready, or why not."""

    task: Task
    waits: list[Waiting]
    blocked_by: str | None  # None: ready

    @property
    def ready(self) -> bool:
        return self.blocked_by is None

    def to_dict(self) -> dict[str, Any]:
        t = self.task
        return {
            "name": t.name,
            "workflow": t.workflow,
            "state": t.state,
            "priority": t.priority,
            "created_at": t.created_at.isoformat(),
            "depends_on": list(t.depends_on),
            "waits_for": [w.to_dict() for w in self.waits],
            "ready": self.ready,
            "not_ready": self.blocked_by,
        }


@dataclass
class Queue:
    entries: list[Entry]  # every readable task, ready ones first in queue order
    broken: dict[str, str] = field(default_factory=dict)  # unreadable tasks and why
    # what the sync before it left undone for the user (engine/sync.py SyncReport.conflicts)
    sync_conflicts: dict[str, str] = field(default_factory=dict)

    @property
    def ready(self) -> list[Entry]:
        return [e for e in self.entries if e.ready]


def order_key(task: Task) -> tuple[int, datetime, str]:
    return (task.priority, task.created_at, task.name)


def why_not_ready(
    core: Core,
    task: Task,
    waits: list[Waiting],
    now: datetime,
    claims: Mapping[str, RemoteClaim],
) -> str | None:
    try:
        wf = core.workflow(task)
    except TaskprotoError as exc:
        return f"its workflow cannot be read ({exc})"
    if wf.is_final(task.state):
        return f"done ({task.state})"
    if (
        task.owner is not None
        and owner_gone(task.owner, now, core.config.lease_minutes, core.config.task_dir(task.name))
        is None
    ):
        return f"owned by {task.owner.session}"
    held = claims.get(task.name)
    if held is not None and not held.expired(now):
        remote = core.remote.name if core.remote is not None else "the remote"
        return f"claimed on {remote} by {held.session}"
    if not wf.can_start(task.state):
        state = wf.state(task.state)
        if state.checkpoint:
            return f"waits for the user in {task.state}"
        return f"in {task.state}, which only its owner resumes"
    if task.paused_by() is not None:
        return "paused: the user asked a question (`taskproto resume`)"
    if task.escalations:
        reasons = ", ".join(e.reason for e in task.escalations)
        return (
            f"escalated to the user ({reasons}): the user resumes it "
            f"(`taskproto resume {task.name}`)"
        )
    if waits:
        return f"waits for {describe(waits)}"
    return None


def queue(core: Core, claims: Mapping[str, RemoteClaim] | None = None) -> Queue:
    """Every task with what it waits for and whether it is ready; ready ones first, in order."""
    tasks, broken = load_all(core)
    resolver = Resolver(core, tasks, broken)
    now = utcnow()
    entries = []
    for task in tasks.values():
        waits = resolver.waits_for(task)
        entries.append(Entry(task, waits, why_not_ready(core, task, waits, now, claims or {})))
    entries.sort(key=lambda e: (not e.ready, *order_key(e.task)))
    return Queue(entries, broken)


def waits_for(core: Core, task: Task) -> list[Waiting]:
    """What one task waits for (reads only its dependencies)."""
    return Resolver(core).waits_for(task)

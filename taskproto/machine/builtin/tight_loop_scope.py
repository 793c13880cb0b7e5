"""What tight-loop's prompts may see.

A handoff prompt carries the decision and the results of the handoff that
started the phase, plus the phase's workflow context loaded fresh (this
iteration's subtasks, the discovered tasks, the task chosen for this
iteration). It never sees the earlier phase's questions: nothing of
`task.context` or `task.interruptions` reaches a template except the named
items below, so a template that asks for anything else fails to render
(StrictUndefined) and the handoff is refused. Pure: no IO.
"""

from __future__ import annotations

from taskproto.machine.builtin.tight_loop import GATE, summary, waiting

# Standard library only: the quick path (hooks/move.py) renders a handoff's prompt on task.json's
# JSON (machine/steps.py `Record`) with this scope, as the engine does on the models.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.state.models import Task

HANDOFF_KEYS = ("from", "to", "decision", "results", "iteration")


def _item(d: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: d.get(k) for k in keys}


def handoff_scope(task: Task) -> dict[str, Any]:
    """The names a tight-loop template sees."""
    handoffs = task.context.get("handoffs") or []
    last = handoffs[-1] if handoffs else None
    iteration = task.counters.iteration
    subtasks = [
        _item(s, "id", "title", "status", "note")
        for s in task.context.get("subtasks") or []
        if s.get("iteration") == iteration
    ]
    discovered = [
        _item(d, "id", "title", "iteration")
        for d in task.context.get("discovered") or []
        if not d.get("dropped")
    ]
    focus = task.context.get("focus") or {
        "id": None,
        "title": task.description or None,
        "iteration": iteration,
    }
    return {
        "task": {"name": task.name, "description": task.description, "state": task.state},
        "state": task.state,
        "iteration": iteration,
        "gate": GATE.get(task.state),
        "handoff": _item(last, *HANDOFF_KEYS) if last else None,
        "subtasks": subtasks,
        "discovered": discovered,
        "discovered_now": [d for d in discovered if d["iteration"] == iteration],
        "waiting": [_item(d, "id", "title") for d in waiting(task)],
        "focus": focus,
        "summary": task.context.get("summary") or summary(task),
    }

"""What a new task of each workflow starts with (context, counters), checked where it enters."""

from __future__ import annotations

from typing import Any

from taskproto.engine import Engine
from taskproto.errors import TaskprotoError


def settings_for(
    engine: Engine,
    workflow: str,
    max_rounds: int | None = None,
    backend: str | None = None,
    parent: str | None = None,
    session: str | None = None,
    path: str | None = None,
) -> tuple[dict[str, Any], dict[str, int], list[str]]:
    """(context, counters, warnings) for a new task; refuses options its workflow does not take."""
    from taskproto.machine.builtin.phone_a_team import NAME as TEAM
    from taskproto.machine.builtin.tight_loop import NAME as LOOP

    if workflow == TEAM:
        from taskproto.ops import phone_a_team as team

        return team.creation(engine, max_rounds, backend, parent, session, path)
    if max_rounds is not None or backend is not None:
        raise TaskprotoError(f"--max-rounds and --backend apply to {TEAM} tasks, not {workflow}")
    context: dict[str, Any] = {}
    counters: dict[str, int] = {}
    if workflow == LOOP:
        from taskproto.ops import tight_loop as tightloop

        context, counters = tightloop.creation()
    if parent:
        engine.load(parent)  # must exist
        context["parent"] = parent
    return context, counters, []

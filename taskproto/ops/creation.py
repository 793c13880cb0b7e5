"""Creating a task as `taskproto task create` does, for every door that creates one (the CLI, the
board): what a new task of each workflow starts with (context, counters), checked where it enters,
then the engine's create."""

from __future__ import annotations

from taskproto.errors import TaskprotoError
from taskproto.state.models import DEFAULT_PRIORITY

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from taskproto.engine import Engine
    from taskproto.state.models import Task


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


def no_description(what: str) -> str:
    """Refuses a phone-a-team task with no description where nobody can be asked (the board)."""
    raise TaskprotoError(f"{what} needs a task description and none was given: write one")


def create(
    engine: Engine,
    name: str,
    agents: Sequence[str] = (),
    base: str | None = None,
    workflow: str = "task-protocol",
    description: str = "",
    session: str | None = None,
    after: Sequence[str] = (),
    priority: int = DEFAULT_PRIORITY,
    max_rounds: int | None = None,
    backend: str | None = None,
    parent: str | None = None,
    ask: Callable[[str], str] = no_description,
) -> Task:
    """`taskproto task create`: the workflow's settings checked, then the task made whole (or
    nothing). A phone-a-team task without a description gets one from `ask` (the CLI asks in a
    terminal), or is refused."""
    from taskproto.machine.builtin.phone_a_team import NAME as TEAM

    if workflow == TEAM and not description.strip():
        description = " ".join(ask(f"a {workflow} task").split())
    context, counters, warnings = settings_for(
        engine, workflow, max_rounds, backend, parent, session
    )
    engine.warnings.extend(warnings)
    return engine.create_task(
        name,
        agents,
        base,
        workflow,
        description,
        session,
        context=context,
        counters=counters,
        after=after,
        priority=priority,
    )

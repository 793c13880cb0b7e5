"""tight-loop's operations: who holds the turn, handoffs, subtasks and discovered tasks."""

from __future__ import annotations

from taskproto.engine import Engine
from taskproto.errors import TaskprotoError, TransitionRejected
from taskproto.machine.builtin import tight_loop_subtasks as subtasks
from taskproto.machine.builtin.tight_loop import GATE, NAME, PHASES, turn_holder
from taskproto.machine.workflow import transition_to
from taskproto.state.models import Task, utcnow

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def creation() -> tuple[dict[str, Any], dict[str, int]]:
    """The context and counters a new tight-loop task starts with."""
    return (
        {
            "turn": {"phase": "PLAN", "since": utcnow().isoformat(), "session": None},
            "handoffs": [],
            "subtasks": [],
            "discovered": [],
        },
        {"iteration": 1},
    )


def _require(task: Task) -> None:
    if task.workflow != NAME:
        raise TaskprotoError(f"task {task.name!r} is a {task.workflow} task, not {NAME}")


def turn(engine: Engine, name: str, phase: str | None = None) -> Task:
    """The tight-loop task `name`; with `phase`, refused unless that phase holds the turn."""
    task = engine.load(name)
    _require(task)
    holder = turn_holder(task)
    if phase is not None:
        phase = phase.upper()
        if phase not in PHASES:
            raise TaskprotoError(f"{phase} is not a phase of {NAME} ({', '.join(PHASES)})")
        if phase != holder:
            raise TransitionRejected(
                name,
                task.state,
                f"turn for {phase}",
                f"{phase} does not hold the turn; {holder} does: wait for its handoff",
            )
    return task


def handoff(
    engine: Engine,
    name: str,
    to: str,
    decision: str,
    results: Any = None,
    from_phase: str | None = None,
    session: str | None = None,
    force: bool = False,
) -> Task:
    """End the holder's turn and start `to`'s, firing the transition that leads there."""
    decision = decision.upper()
    if decision not in ("YES", "NO"):
        raise TaskprotoError(f"--decision must be YES or NO, not {decision!r}")
    to = to.upper()
    task = engine.load(name)
    _require(task)
    if decision == "YES":  # the log records it as the user's answer to the phase's gate
        gate = GATE.get(task.state, "the gate")
        engine.require_user(f"answering YES to {gate!r} for task {name!r} (--decision YES)")
    trigger = transition_to(engine.workflow(task), name, task.state, to)
    params: dict[str, Any] = {"decision": decision, "results": results}
    if from_phase is not None:
        params["from"] = from_phase.upper()
    return engine.fire(
        name,
        trigger=trigger,
        session=session,
        params=params,
        force=force,
        note=f"handoff {task.state} -> {to}: {decision}",
    )


def _subtask_change(
    engine: Engine, name: str, session: str | None, force: bool, message: str, apply: Any
) -> Task:
    def change(task: Task) -> tuple[Task, str]:
        _require(task)
        engine.check_mover(task, session, force, "change its subtasks")
        new = task.model_copy(deep=True)
        note = apply(new)
        new.record(
            trigger="subtask",
            time=utcnow(),
            session=session,
            kind="note",
            note=note,
        )
        return new, f"{message}: {note}"

    return engine.mutate(name, change)


def add(
    engine: Engine, name: str, title: str, session: str | None = None, force: bool = False
) -> dict[str, Any]:
    """Add a subtask (PLAN, EXECUTE) or a discovered task (REVIEW; refused if its title exists)."""
    title = " ".join(title.split())
    if not title:
        raise TaskprotoError("a subtask needs a title")
    added: dict[str, Any] = {}

    def apply(task: Task) -> str:
        item, note = subtasks.add(task, title)
        added.update(item)
        return note

    _subtask_change(engine, name, session, force, "subtask add", apply)
    return added


def finish(
    engine: Engine,
    name: str,
    ident: str,
    ok: bool,
    note: str | None = None,
    session: str | None = None,
    force: bool = False,
) -> dict[str, Any]:
    """Mark a pending subtask done or failed; only in EXECUTE."""
    result: dict[str, Any] = {}

    def apply(task: Task) -> str:
        item, text = subtasks.finish(task, ident, ok, note)
        result.update(item)
        return text

    _subtask_change(engine, name, session, force, "subtask", apply)
    return result

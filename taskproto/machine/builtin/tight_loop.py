"""tight-loop: PLAN → EXECUTE → REVIEW → PLAN (next iteration) or → FULL_AUTO (loop ends).

One phase at a time holds the interactive ("ask the user") turn: it is the
phase the task is in, recorded in `context.turn`. A handoff ends the holder's
turn and starts the next phase's; its record keeps only the decision and the
results (`context.handoffs`), never the earlier phase's questions. Only REVIEW
decides loop (YES → PLAN) or break (NO → FULL_AUTO).
"""

from __future__ import annotations

from taskproto.machine.steps import effect, guard

# Standard library only (machine/steps.py `LIGHT`): the models are imported by `definition()`, so
# a handoff is made on the quick path (hooks/move.py), its prompt rendered there too.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.machine.steps import FireContext
    from taskproto.machine.workflow import Workflow
    from taskproto.state.models import Task

NAME = "tight-loop"
PHASES = ["PLAN", "EXECUTE", "REVIEW", "FULL_AUTO"]
# The one question that gates each phase's exit; YES hands off (REVIEW: YES loops, NO breaks).
GATE = {"PLAN": "Ready to execute?", "EXECUTE": "Ready for review?", "REVIEW": "Continue the loop?"}


def turn_holder(task: Task) -> str:
    turn = task.context.get("turn") or {}
    return str(turn.get("phase") or task.state)


def next_phase(state: str, decision: str) -> str | None:
    if state == "PLAN":
        return "EXECUTE"
    if state == "EXECUTE":
        return "REVIEW"
    if state == "REVIEW":
        return "PLAN" if decision == "YES" else "FULL_AUTO"
    return None


def summary(task: Task) -> dict[str, Any]:
    """The session summary FULL_AUTO shows: iterations, subtasks done and failed, discovered
    tasks."""
    subtasks = task.context.get("subtasks") or []
    discovered = [d for d in task.context.get("discovered") or [] if not d.get("dropped")]
    return {
        "iterations": task.counters.iteration,
        "subtasks_completed": sum(1 for s in subtasks if s.get("status") == "done"),
        "subtasks_failed": sum(1 for s in subtasks if s.get("status") == "failed"),
        "subtasks_skipped": sum(1 for s in subtasks if s.get("status") == "skipped"),
        "subtasks_pending": sum(1 for s in subtasks if s.get("status") == "pending"),
        "discovered": [d["title"] for d in discovered],
        "waiting": [d["title"] for d in waiting(task)],
        "handoffs": len(task.context.get("handoffs") or []),
    }


def session_summary(task: Task) -> dict[str, Any]:
    """The summary FULL_AUTO kept, or the one it would keep now."""
    kept: dict[str, Any] | None = task.context.get("summary")
    return kept or summary(task)


def turn_report(task: Task) -> dict[str, Any]:
    """What `taskproto turn` says: the phase that holds the turn, the iteration, its gate, the last
    handoff received, and the session summary once the loop has ended."""
    phase = turn_holder(task)
    handoffs = task.context.get("handoffs") or []
    report = {
        "task": task.name,
        "phase": phase,
        "iteration": task.counters.iteration,
        "gate": GATE.get(phase),
        "last_handoff": handoffs[-1] if handoffs else None,
    }
    if phase == "FULL_AUTO":
        report["summary"] = session_summary(task)
    return report


def waiting(task: Task) -> list[dict[str, Any]]:
    """Discovered tasks still waiting to be planned (not planned, chosen or dropped), oldest
    first."""
    return [
        d
        for d in task.context.get("discovered") or []
        if d.get("planned_as") is None and d.get("selected_in") is None and not d.get("dropped")
    ]


@guard("turn_held")
def turn_held(task: Task, ctx: FireContext) -> str | None:
    phase = ctx.params.get("from")
    holder = turn_holder(task)
    if phase is not None and phase != holder:
        return f"{phase} does not hold the turn; {holder} does (only the holder hands off)"
    return None


def _decision(task: Task, ctx: FireContext) -> str | None:
    value = ctx.params.get("decision")
    return str(value).upper() if value is not None else None


@guard("decision_yes")
def decision_yes(task: Task, ctx: FireContext) -> str | None:
    decision = _decision(task, ctx)
    if decision is None:
        return (
            f"a handoff needs the user's answer to {GATE.get(task.state, 'the gate')!r}: "
            "--decision YES|NO"
        )
    if decision == "YES":
        return None
    if task.state == "REVIEW":
        return "the decision NO breaks the loop: hand off --to FULL_AUTO"
    return (
        f"the user answered NO to {GATE.get(task.state, 'the gate')!r}: {task.state} keeps the "
        "turn; "
        "hand off when the user says YES"
    )


@guard("decision_no")
def decision_no(task: Task, ctx: FireContext) -> str | None:
    decision = _decision(task, ctx)
    if decision is None:
        return "the loop-or-break decision needs --decision YES|NO"
    if decision != "NO":
        return "the decision YES continues the loop: hand off --to PLAN"
    return None


@effect("record_handoff")
def record_handoff(task: Task, ctx: FireContext) -> None:
    decision = _decision(task, ctx) or ""
    dest = next_phase(task.state, decision) or task.state
    # Only the decision and the results cross a handoff: the receiving phase starts a fresh ask_user
    # cycle.
    task.context.setdefault("handoffs", []).append(
        {
            "from": task.state,
            "to": dest,
            "decision": decision,
            "results": ctx.params.get("results"),
            "iteration": task.counters.iteration,
            "time": ctx.time.isoformat(),
        }
    )
    task.context["turn"] = {"phase": dest, "since": ctx.time.isoformat(), "session": ctx.session}


@effect("next_iteration")
def next_iteration(task: Task, ctx: FireContext) -> None:
    task.counters.iteration += 1


@effect("select_next_task")
def select_next_task(task: Task, ctx: FireContext) -> None:
    """The start of iteration N+1: the oldest waiting discovered task becomes its focus.

    A task chosen once is never chosen again, so iteration N+1 plans another task
    than iteration N. With none waiting the focus is empty and PLAN asks the user.
    """
    queue = waiting(task)
    focus: dict[str, Any] = {"id": None, "title": None, "iteration": task.counters.iteration}
    if queue:
        queue[0]["selected_in"] = task.counters.iteration
        focus.update(id=queue[0]["id"], title=queue[0]["title"])
    task.context["focus"] = focus


@effect("end_session")
def end_session(task: Task, ctx: FireContext) -> None:
    task.context["summary"] = summary(task)


def definition() -> Workflow:
    from taskproto.machine.workflow import StateDef, Workflow
    from taskproto.machine.workflow import TransitionDef as _T

    return Workflow(
        name=NAME,
        description="Plan, execute, review in a loop; one phase holds the ask-the-user turn; "
        "REVIEW loops or breaks.",
        initial="PLAN",
        states=[
            StateDef(
                name="PLAN",
                description="Plan the next task; confirm its subtasks with the user.",
                resume="Holder of the turn: plan, add subtasks, then hand off --to EXECUTE "
                "--decision YES.",
            ),
            StateDef(
                name="EXECUTE",
                resumable=True,
                description="Carry out the subtasks one by one.",
                allows_edits=True,
                allows_commits=True,
                resume="Holder of the turn: mark each subtask done or failed, then hand off --to "
                "REVIEW.",
            ),
            StateDef(
                name="REVIEW",
                resumable=True,
                description="Analyse results, add discovered tasks, decide loop or break.",
                resume="Holder of the turn: add discovered tasks, then hand off --to PLAN (YES) or "
                "FULL_AUTO (NO).",
            ),
            StateDef(
                name="FULL_AUTO",
                terminal=True,
                description="The loop ended; show the session summary.",
                resume="The loop has ended; show the session summary (`taskproto turn`).",
            ),
        ],
        transitions=[
            _T(
                trigger="execute",
                source=["PLAN"],
                dest="EXECUTE",
                guards=["turn_held", "decision_yes"],
                effects=["record_handoff"],
            ),
            _T(
                trigger="review",
                source=["EXECUTE"],
                dest="REVIEW",
                guards=["turn_held", "decision_yes"],
                effects=["record_handoff"],
            ),
            _T(
                trigger="loop",
                source=["REVIEW"],
                dest="PLAN",
                guards=["turn_held", "decision_yes"],
                effects=["record_handoff", "next_iteration", "select_next_task"],
                description="Continue: the next iteration starts in PLAN.",
            ),
            _T(
                trigger="break_loop",
                source=["REVIEW"],
                dest="FULL_AUTO",
                guards=["turn_held", "decision_no"],
                effects=["record_handoff", "end_session"],
                description="Stop: the session summary is kept in context.summary.",
            ),
        ],
    )

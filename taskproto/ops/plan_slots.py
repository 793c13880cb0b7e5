"""`taskproto plan-task to-tasks`: a VERIFIED plan's SLOTs become taskproto tasks.

Each SLOT becomes task `<plan>-<slot_id>` (its title and spec as the description, the SLOT in
its context). Dependencies follow the plan: a SLOT that lists `depends_on` waits for those SLOTs;
when no SLOT of a list declares any, the list's order is the order of work (each SLOT waits for
the one before it). A delegated SLOT waits for its sub-SLOTs, which start once the SLOT's own
dependencies are done. Tasks are made in plan order, so the ready queue takes them in that order
within a priority. All of them, or none: a failure removes the tasks made so far.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from taskproto.engine import Engine
from taskproto.errors import TaskprotoError
from taskproto.machine.builtin.plan_artifacts import SLOT, ExecutionPlanArtifact
from taskproto.machine.builtin.plan_task import NAME
from taskproto.names import MAX_NAME, task_name
from taskproto.state.models import Task, utcnow

CONTEXT_KEY = "slot_tasks"  # in the plan task's context: slot id -> task name


@dataclass(frozen=True)
class SlotTask:
    slot_id: str
    name: str
    after: list[str]
    description: str
    slot: SLOT
    parent: str | None  # the delegated SLOT this one is a part of


def _task_for(plan: str, slot_id: str) -> str:
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", slot_id).strip(".-") or "slot"
    return task_name(f"{plan}-{safe}"[:MAX_NAME].rstrip(".-"))


def layout(plan: str, slots: list[SLOT]) -> list[SlotTask]:
    """The tasks a plan's SLOTs become, in plan order, with their dependencies (pure)."""
    out: list[SlotTask] = []
    names: dict[str, str] = {}

    def walk(level: list[SLOT], inherited: list[str], parent: str | None) -> list[str]:
        """Lay out one list of SLOTs; returns the task names of this level."""
        declared = any(s.depends_on for s in level)
        mine: list[str] = []
        for i, slot in enumerate(level):
            if slot.slot_id in names:
                raise TaskprotoError(f"the plan has two SLOTs with slot_id {slot.slot_id!r}")
            name = _task_for(plan, slot.slot_id)
            if name in names.values():
                raise TaskprotoError(
                    f"SLOTs {slot.slot_id!r} and another both become task {name!r}; "
                    "rename one slot_id"
                )
            names[slot.slot_id] = name
            if declared:
                after = list(inherited) + [f"slot:{d}" for d in slot.depends_on]
            else:
                after = list(inherited) + ([mine[-1]] if i and mine else [])
            entry = SlotTask(slot.slot_id, name, after, f"{slot.title}: {slot.spec}", slot, parent)
            out.append(entry)
            mine.append(name)
            if slot.delegation and slot.delegation.sub_slots:
                subs = walk(slot.delegation.sub_slots, list(after), slot.slot_id)
                entry.after.extend(subs)
                out.remove(entry)  # the delegated SLOT comes after its parts
                out.append(entry)
        return mine

    walk(slots, [], None)
    resolved: list[SlotTask] = []
    for entry in out:
        after: list[str] = []
        for dep in entry.after:
            if dep.startswith("slot:"):
                sid = dep[len("slot:") :]
                if sid not in names:
                    raise TaskprotoError(
                        f"SLOT {entry.slot_id!r} depends on {sid!r}, which is no SLOT of the plan"
                    )
                dep = names[sid]
            if dep not in after:
                after.append(dep)
        resolved.append(
            SlotTask(entry.slot_id, entry.name, after, entry.description, entry.slot, entry.parent)
        )
    ordered: list[SlotTask] = []
    placed: set[str] = set()
    pending = list(resolved)
    while pending:  # dependencies first (declared ones may point forward), else plan order
        for entry in pending:
            if all(d in placed for d in entry.after):
                break
        else:
            stuck = ", ".join(e.slot_id for e in pending)
            raise TaskprotoError(f"the plan's SLOT dependencies form a cycle among {stuck}")
        ordered.append(entry)
        placed.add(entry.name)
        pending.remove(entry)
    return ordered


def to_tasks(
    engine: Engine, plan: str, session: str | None, workflow: str = "task-protocol"
) -> list[Task]:
    """Create the tasks of VERIFIED plan-task `plan`'s SLOTs; recorded in the plan's context."""
    task = engine.load(plan)
    if task.workflow != NAME:
        raise TaskprotoError(f"task {plan!r} is a {task.workflow} task, not a {NAME} task")
    if not engine.workflow(task).is_final(task.state):
        raise TaskprotoError(
            f"task {plan!r} is in {task.state}; its plan becomes tasks once it is VERIFIED"
        )
    if task.context.get(CONTEXT_KEY):
        before = ", ".join(task.context[CONTEXT_KEY].values())
        raise TaskprotoError(f"the plan of {plan!r} already became tasks ({before})")
    raw = task.artifacts.get("execution_plan_artifact")
    try:
        artifact = ExecutionPlanArtifact.model_validate(raw)
    except Exception:  # noqa: BLE001 - a VERIFIED plan without a valid artifact: doctor's case
        raise TaskprotoError(
            f"task {plan!r} holds no valid execution_plan_artifact; run `taskproto doctor`"
        ) from None
    entries = layout(plan, artifact.slots)
    existing = set(engine.task_names())
    clash = [e.name for e in entries if e.name in existing]
    if clash:
        raise TaskprotoError(
            f"task(s) {', '.join(clash)} already exist; remove them or rename the SLOTs"
        )
    made: list[Task] = []
    try:
        for e in entries:
            context: dict[str, object] = {"plan": plan, "slot": e.slot.model_dump(mode="json")}
            if e.parent:
                context["part_of_slot"] = e.parent
            made.append(
                engine.create_task(
                    e.name,
                    base=task.base,
                    workflow=workflow,
                    description=e.description,
                    session=session,
                    context=context,
                    after=e.after,
                    priority=task.priority,
                )
            )
        _record(engine, plan, {e.slot_id: e.name for e in entries}, session)
    except BaseException:
        for t in reversed(made):
            try:
                engine.remove_task(t.name)
            except TaskprotoError as exc:
                engine.warnings.append(f"could not remove {t.name} again: {exc}")
        raise
    return made


def _record(engine: Engine, plan: str, made: dict[str, str], session: str | None) -> None:
    def change(task: Task) -> tuple[Task, str]:
        if task.context.get(CONTEXT_KEY):
            raise TaskprotoError(f"the plan of {plan!r} became tasks meanwhile")
        new = task.model_copy(deep=True)
        new.context[CONTEXT_KEY] = made
        new.record(
            trigger="to-tasks",
            time=utcnow(),
            session=session,
            kind="note",
            note=f"the plan became tasks {', '.join(made.values())}",
        )
        return new, f"to-tasks: {', '.join(made.values())}"

    engine.mutate(plan, change)

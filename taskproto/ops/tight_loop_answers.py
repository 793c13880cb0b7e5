"""tight-loop's other answers of the ask-the-user turn, and FULL_AUTO's options.

- EXECUTE, "Execute T1? [YES/NO/HELP]": HELP shows the subtask's help (`help_text`, read-only,
  from the overridable `_help.md.j2`); NO skips it (`skip`).
- REVIEW, "Add discovered tasks? [YES/NO/EDIT]": EDIT renames one (`edit`), NO drops it (`drop`).
- FULL_AUTO, "New session? View results? Edit tasks?": `new_session` starts a fresh tight-loop
  task that carries over the discovered tasks still waiting; `view` is the results; `edit` and
  `drop` edit the waiting tasks before a new session takes them.

Every change is one locked, journaled engine change; a refused answer writes nothing.
"""

from __future__ import annotations

from typing import Any

from taskproto.engine import Engine
from taskproto.errors import TaskprotoError
from taskproto.machine import prompts
from taskproto.machine.builtin import tight_loop_subtasks as subtasks
from taskproto.machine.builtin.tight_loop import NAME, summary, waiting
from taskproto.machine.builtin.tight_loop_scope import handoff_scope
from taskproto.ops.tight_loop import _require, _subtask_change, creation
from taskproto.state.models import Task, utcnow


def help_text(engine: Engine, name: str, ident: str) -> str:
    """The HELP answer to "Execute ID? [YES/NO/HELP]": the subtask's help; changes nothing."""
    task = engine.load(name)
    _require(task)
    if task.state != "EXECUTE":
        raise TaskprotoError(
            f'task {name!r} is in {task.state}; HELP answers EXECUTE\'s "Execute ID?" question'
        )
    subtask = subtasks.find(task, "subtasks", ident)
    if subtask["status"] != "pending":
        raise TaskprotoError(f"subtask {subtask['id']} is already {subtask['status']}")
    names = handoff_scope(task)
    names["subtask"] = {k: subtask.get(k) for k in ("id", "title", "status", "iteration", "note")}
    return prompts.render_named(engine.config, NAME, "_help.md.j2", names)


def skip(
    engine: Engine,
    name: str,
    ident: str,
    reason: str | None = None,
    session: str | None = None,
    force: bool = False,
) -> dict[str, Any]:
    """The NO answer to "Execute ID?": the pending subtask is skipped (EXECUTE only)."""
    result: dict[str, Any] = {}

    def apply(task: Task) -> str:
        item, note = subtasks.skip(task, ident, reason)
        result.update(item)
        return note

    _subtask_change(engine, name, session, force, "subtask", apply)
    return result


def _editable(task: Task, name: str, ident: str, what: str) -> dict[str, Any]:
    if task.state not in ("REVIEW", "FULL_AUTO"):
        raise TaskprotoError(
            f"task {name!r} is in {task.state}; discovered tasks are {what} in REVIEW "
            "(before the loop decision) or in FULL_AUTO"
        )
    d = subtasks.find(task, "discovered", ident)
    if d.get("dropped"):
        raise TaskprotoError(f"discovered task {d['id']} was dropped")
    if d not in waiting(task):
        taken = d.get("planned_as") or f"iteration {d.get('selected_in')}"
        raise TaskprotoError(f"discovered task {d['id']} is already planned ({taken})")
    return d


def edit(
    engine: Engine,
    name: str,
    ident: str,
    title: str,
    session: str | None = None,
    force: bool = False,
) -> dict[str, Any]:
    """The EDIT answer: rename a discovered task that is still waiting (duplicates refused)."""
    title = " ".join(title.split())
    if not title:
        raise TaskprotoError("a discovered task needs a title")
    result: dict[str, Any] = {}

    def apply(task: Task) -> str:
        d = _editable(task, name, ident, "edited")
        for other in [*task.context.get("subtasks", []), *task.context.get("discovered", [])]:
            if (
                other is not d
                and not other.get("dropped")
                and subtasks.norm(other["title"]) == subtasks.norm(title)
            ):
                raise TaskprotoError(
                    f"a task titled {other['title']!r} already exists ({other['id']}); not renamed"
                )
        before, d["title"] = d["title"], title
        result.update(d)
        return f"{d['id']} renamed from {before!r} to {title!r}"

    _subtask_change(engine, name, session, force, "discovered task edit", apply)
    return result


def drop(
    engine: Engine, name: str, ident: str, session: str | None = None, force: bool = False
) -> dict[str, Any]:
    """The NO answer to "Add discovered tasks?" for one of them: it is dropped (kept, marked)."""
    result: dict[str, Any] = {}

    def apply(task: Task) -> str:
        d = _editable(task, name, ident, "dropped")
        d["dropped"] = True
        result.update(d)
        return f"{d['id']} {d['title']!r} dropped"

    _subtask_change(engine, name, session, force, "discovered task drop", apply)
    return result


def view(engine: Engine, name: str) -> dict[str, Any]:
    """FULL_AUTO's "View results": every iteration's subtasks, decisions and discoveries."""
    task = engine.load(name)
    _require(task)
    subtasks = task.context.get("subtasks") or []
    discovered = task.context.get("discovered") or []
    handoffs = task.context.get("handoffs") or []
    iterations = []
    for n in range(1, task.counters.iteration + 1):
        focus = next(
            ({"id": d["id"], "title": d["title"]} for d in discovered if d.get("selected_in") == n),
            {"id": None, "title": task.description or None} if n == 1 else None,
        )
        iterations.append(
            {
                "iteration": n,
                "focus": focus,
                "subtasks": [s for s in subtasks if s.get("iteration") == n],
                "discovered": [d for d in discovered if d.get("iteration") == n],
                "decisions": [
                    f"{h['from']} -> {h['to']}: {h['decision']}"
                    for h in handoffs
                    if h.get("iteration") == n
                ],
            }
        )
    return {
        "task": name,
        "state": task.state,
        "iterations": iterations,
        "summary": task.context.get("summary") or summary(task),
    }


def new_session(
    engine: Engine,
    name: str,
    new_name: str | None = None,
    session: str | None = None,
) -> Task:
    """FULL_AUTO's "New session": a fresh tight-loop task; the waiting discovered tasks carry
    over."""
    old = engine.load(name)
    _require(old)
    if old.state != "FULL_AUTO":
        raise TaskprotoError(
            f"task {name!r} is in {old.state}; a new session starts from FULL_AUTO "
            "(end this loop first: REVIEW hands off --to FULL_AUTO --decision NO)"
        )
    if new_name is None:
        taken = set(engine.task_names())
        new_name = next(f"{name}-{n}" for n in range(2, 10_000) if f"{name}-{n}" not in taken)
    context, counters = creation()
    carried = [
        {
            "id": f"D{i}",
            "title": d["title"],
            "iteration": 0,  # found in the earlier session
            "planned_as": None,
            "from": f"{name}/{d['id']}",
        }
        for i, d in enumerate(waiting(old), 1)
    ]
    context["discovered"] = carried
    context["parent"] = name
    if carried:  # the first waiting task is iteration 1's task
        carried[0]["selected_in"] = 1
        context["focus"] = {"id": "D1", "title": carried[0]["title"], "iteration": 1}
    context["turn"]["since"] = utcnow().isoformat()
    return engine.create_task(
        new_name,
        workflow=NAME,
        description=old.description,
        session=session,
        context=context,
        counters=counters,
        base=engine.branch_head(name) or None,
    )

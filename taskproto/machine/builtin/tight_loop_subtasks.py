"""tight-loop's subtasks and discovered tasks: what `subtask add`, `done`, `fail` and `skip` change
in the task, and the note each leaves in its log. Pure, and standard library only: the engine
applies them to the models (ops/tight_loop.py), the quick write path to task.json's JSON seen as
a task (hooks/quicksave.py `change`, machine/steps.py `Record`). Each refuses with TaskprotoError
before it changes anything."""

from __future__ import annotations

from taskproto.errors import TaskprotoError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.state.models import Task


def norm(title: str) -> str:
    return " ".join(title.split()).casefold()


def find(task: Task, key: str, ident: str) -> dict[str, Any]:
    """The subtask (`key` "subtasks") or discovered task ("discovered") `ident`, any case."""
    items: list[dict[str, Any]] = task.context.get(key) or []
    for item in items:
        if str(item["id"]).casefold() == ident.casefold():
            return item
    kind = "subtask" if key == "subtasks" else "discovered task"
    ids = ", ".join(i["id"] for i in items) or "none"
    raise TaskprotoError(f"task {task.name!r} has no {kind} {ident!r} ({kind}s: {ids})")


def add(task: Task, title: str) -> tuple[dict[str, Any], str]:
    """Add subtask `title` (PLAN, EXECUTE) or a discovered task (REVIEW; refused if its title
    exists); the new item and the log's note. `title` is already collapsed and not empty."""
    subtasks = task.context.setdefault("subtasks", [])
    discovered = task.context.setdefault("discovered", [])
    key = norm(title)
    if task.state in ("PLAN", "EXECUTE"):
        for s in subtasks:
            if s["status"] == "pending" and norm(s["title"]) == key:
                raise TaskprotoError(
                    f"subtask {s['id']} {s['title']!r} is already pending; not added"
                )
        item = {
            "id": f"T{len(subtasks) + 1}",
            "title": title,
            "status": "pending",
            "iteration": task.counters.iteration,
            "note": None,
        }
        subtasks.append(item)
        for d in discovered:  # planning a discovered task links them
            if norm(d["title"]) == key and d.get("planned_as") is None:
                d["planned_as"] = item["id"]
    elif task.state == "REVIEW":
        for s in [*subtasks, *discovered]:
            if norm(s["title"]) == key:
                raise TaskprotoError(
                    f"a task titled {s['title']!r} already exists ({s['id']}); duplicate not added"
                )
        item = {
            "id": f"D{len(discovered) + 1}",
            "title": title,
            "iteration": task.counters.iteration,
            "planned_as": None,
        }
        discovered.append(item)
    else:
        raise TaskprotoError(
            f"task {task.name!r} is in {task.state}; subtasks are added in PLAN or EXECUTE, "
            "discovered tasks in REVIEW"
        )
    return item, f"{item['id']} {title}"


def finish(task: Task, ident: str, ok: bool, note: str | None) -> tuple[dict[str, Any], str]:
    """Mark pending subtask `ident` done (`ok`) or failed; only in EXECUTE."""
    if task.state != "EXECUTE":
        raise TaskprotoError(
            f"task {task.name!r} is in {task.state}; subtasks are marked done or failed in EXECUTE"
        )
    for s in task.context.get("subtasks") or []:
        if s["id"].casefold() == ident.casefold():
            if s["status"] != "pending":
                raise TaskprotoError(f"subtask {s['id']} is already {s['status']}")
            s["status"] = "done" if ok else "failed"
            s["note"] = note
            return s, f"{s['id']} {s['status']}" + (f": {note}" if note else "")
    ids = ", ".join(s["id"] for s in task.context.get("subtasks") or []) or "none"
    raise TaskprotoError(f"task {task.name!r} has no subtask {ident!r} (subtasks: {ids})")


def skip(task: Task, ident: str, reason: str | None) -> tuple[dict[str, Any], str]:
    """The NO answer to "Execute ID?": pending subtask `ident` is skipped (EXECUTE only)."""
    if task.state != "EXECUTE":
        raise TaskprotoError(
            f"task {task.name!r} is in {task.state}; subtasks are skipped in EXECUTE"
        )
    s = find(task, "subtasks", ident)
    if s["status"] != "pending":
        raise TaskprotoError(f"subtask {s['id']} is already {s['status']}")
    s["status"], s["note"] = "skipped", reason
    return s, f"{s['id']} skipped" + (f": {reason}" if reason else "")

"""`taskproto ready`, `taskproto dep add|remove` and `taskproto plan-task to-tasks`: the order of
work (docs/ready.md)."""

from __future__ import annotations

import click

from taskproto.cli.common import (
    AppState,
    emit,
    flush_warnings,
    json_option,
    pass_state,
)
from taskproto.cli.quick_common import split_csv


@click.command("ready")
@click.option(
    "--all", "show_all", is_flag=True, help="Also list the tasks that are not ready, and why."
)
@click.option(
    "--local",
    is_flag=True,
    help="With a shared remote: do not sync first (the queue as this machine last saw it).",
)
@json_option
@pass_state
def ready(state: AppState, show_all: bool, local: bool, as_json: bool) -> None:
    """List the tasks that can start now, most urgent first (priority 0-4, then age).

    A task is ready when nobody holds it (or its owner is provably gone), it is in its
    workflow's first state or a resumable one, and every task it depends on is done.
    With a shared remote this syncs first, so the list is the remote's queue.
    `taskproto claim` without a name takes the first one.
    """
    engine = state.engine
    q = engine.ready(fetch=not local)
    flush_warnings(state)
    rows = [e.to_dict() for e in (q.entries if show_all else q.ready)]
    data: dict[str, object] = {
        "ready": [e.to_dict() for e in q.ready],
        "unreadable": q.broken,
        "sync_conflicts": q.sync_conflicts,
    }
    if show_all:
        data["not_ready"] = [e.to_dict() for e in q.entries if not e.ready]

    def human() -> None:
        if not q.ready:
            waiting = len(q.entries)
            click.echo(
                "no task is ready"
                + (
                    f" ({waiting} not ready: `taskproto ready --all` says why)"
                    if waiting and not show_all
                    else ""
                )
            )
        width = max((len(r["name"]) for r in rows), default=0)
        for r in rows:
            line = f"{r['name']:<{width}}  p{r['priority']}  {r['state']:<16} ({r['workflow']})"
            if not r["ready"]:
                line += f"  not ready: {r['not_ready']}"
            click.echo(line)
        for name, why in q.broken.items():
            click.echo(f"{name:<{width}}  BROKEN  {why}")
        if q.sync_conflicts:
            assert state.engine.remote is not None
            click.echo(f"synced with {state.engine.remote.name}, not all of it:")
        for name, why in q.sync_conflicts.items():
            click.echo(f"  {name}: {why}")  # as `taskproto sync` says it

    emit(as_json, data, human)
    if q.sync_conflicts:  # as `taskproto sync` exits
        raise click.exceptions.Exit(1)


@click.group("dep")
def dep_group() -> None:
    """Add or remove what a task waits for."""


@dep_group.command("add")
@click.argument("task")
@click.option("--on", "on", required=True, metavar="A,B", help="The task(s) TASK waits for.")
@json_option
@pass_state
def dep_add(state: AppState, task: str, on: str, as_json: bool) -> None:
    """Make TASK wait until each task in --on reaches a final state.

    An unknown task, or a dependency that would close a cycle, is refused.
    """
    engine = state.engine
    result = engine.add_dependency(task, split_csv(on), state.session_id())
    flush_warnings(state)
    emit(
        as_json,
        {"task": result.name, "depends_on": result.depends_on},
        lambda: click.echo(f"task {result.name} waits for {', '.join(result.depends_on)}"),
    )


@dep_group.command("remove")
@click.argument("task")
@click.option("--on", "on", required=True, metavar="A,B", help="The task(s) to stop waiting for.")
@json_option
@pass_state
def dep_remove(state: AppState, task: str, on: str, as_json: bool) -> None:
    """Stop TASK waiting for the tasks in --on (the user's: refused to agents)."""
    engine = state.engine
    result = engine.remove_dependency(task, split_csv(on), state.session_id())
    flush_warnings(state)
    rest = ", ".join(result.depends_on) or "nothing"
    emit(
        as_json,
        {"task": result.name, "depends_on": result.depends_on},
        lambda: click.echo(f"task {result.name} now waits for {rest}"),
    )


@click.group("plan-task")
def plan_task_group() -> None:
    """plan-task's plan as work."""


@plan_task_group.command("to-tasks")
@click.argument("task")
@click.option(
    "--workflow",
    default="task-protocol",
    show_default=True,
    help="The workflow of the tasks made from the SLOTs.",
)
@json_option
@pass_state
def to_tasks(state: AppState, task: str, workflow: str, as_json: bool) -> None:
    """Turn VERIFIED plan-task TASK's SLOTs into tasks, one per SLOT, named TASK-<slot_id>.

    Each waits for the SLOTs its `depends_on` names, or, when the plan names none, for the SLOT
    before it; a delegated SLOT waits for its sub-SLOTs. All the tasks are made, or none.
    """
    from taskproto.ops.plan_slots import to_tasks as make

    engine = state.engine
    made = make(engine, task, state.session_id(), workflow)
    flush_warnings(state)
    rows = [
        {
            "name": t.name,
            "slot": t.context["slot"]["slot_id"],
            "depends_on": t.depends_on,
            "priority": t.priority,
        }
        for t in made
    ]

    def human() -> None:
        click.echo(f"plan {task} became {len(rows)} task(s):")
        for r in rows:
            after = f"  after {', '.join(r['depends_on'])}" if r["depends_on"] else ""
            click.echo(f"  {r['name']}{after}")

    emit(as_json, {"plan": task, "tasks": rows}, human)


COMMANDS = [ready, dep_group, plan_task_group]

"""`taskproto task create|list|show|remove`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from taskproto.cli.common import (
    AppState,
    emit,
    flush_warnings,
    json_option,
    pass_state,
)
from taskproto.cli.quick_common import split_csv
from taskproto.errors import TaskprotoError

if TYPE_CHECKING:
    from taskproto.engine import Engine
    from taskproto.hooks.tasks import TaskReader


@click.group("task")
def task_group() -> None:
    """Create, list, show and remove tasks."""


@task_group.command("create")
@click.argument("name")
@click.option(
    "--agents",
    metavar="A,B",
    help="Required agents, comma-separated; each gets branch NAME-A and a worktree.",
)
@click.option("--base", metavar="REV", help="Commit the task branch starts from (default HEAD).")
@click.option(
    "--workflow", "workflow", default="task-protocol", show_default=True, help="Workflow name."
)
@click.option("-d", "--description", default="", help="What the task is about.")
@click.option(
    "--max-rounds",
    type=int,
    metavar="N",
    help="phone-a-team: rounds before a forced stop, 1-5 (default 3).",
)
@click.option(
    "--backend", metavar="B", help="phone-a-team: codex, gemini, ollama or both (default codex)."
)
@click.option(
    "--parent",
    metavar="TASK",
    help="The task this one is started from (recorded; no phone-a-team nesting).",
)
@click.option(
    "--after",
    metavar="A,B",
    help="Tasks this one waits for: it is not ready until each reaches a final state.",
)
@click.option(
    "--priority",
    type=click.IntRange(0, 4),
    default=2,
    show_default=True,
    help="0 (most urgent) to 4; the ready queue takes the most urgent first.",
)
@json_option
@pass_state
def create(
    state: AppState,
    name: str,
    agents: str | None,
    base: str | None,
    workflow: str,
    description: str,
    max_rounds: int | None,
    backend: str | None,
    parent: str | None,
    after: str | None,
    priority: int,
    as_json: bool,
) -> None:
    """Create task NAME: branch NAME, its worktree, and one branch and worktree per agent.

    If any step fails, everything made so far is undone.
    """
    from taskproto.engine.summary import task_summary
    from taskproto.ops.creation import create as create_task

    def ask(what: str) -> str:  # phone-a-team's description, asked in a terminal
        from taskproto.cli.phone_a_team_run import ask_description

        return ask_description(what)

    engine = state.engine
    task = create_task(
        engine,
        name,
        split_csv(agents),
        base,
        workflow,
        description,
        state.session_id(),
        split_csv(after),
        priority,
        max_rounds,
        backend,
        parent,
        ask=ask,
    )
    flush_warnings(state)
    from taskproto.cli.render import created_line

    folder = str(engine.config.task_dir(name))
    emit(as_json, task_summary(task, engine), lambda: click.echo(created_line(task, folder)))


@task_group.command("list")
@click.option(
    "--watch",
    is_flag=True,
    help="Keep the list on screen, with agents' activity and what waits for you, redrawn live.",
)
@json_option
@pass_state
def list_(state: AppState, as_json: bool, watch: bool) -> None:
    """List tasks with their state, owner, priority and what each waits for."""
    from taskproto.cli.render import list_text

    engine = state.engine
    if watch:
        if as_json:
            raise click.UsageError("--watch draws the list for a terminal; it has no --json")
        from taskproto.cli.board import require_web_stack
        from taskproto.cli.watch import watch_tasks

        require_web_stack("`taskproto task list --watch`")
        watch_tasks(engine.config)
        return
    from taskproto.hooks.tasks import TaskReader, Unusual, listing, listing_text

    reader = TaskReader(engine.config)
    try:  # the index's rows (state/index.py), as the quick front reads them
        if not as_json:
            text = listing_text(reader)
            click.echo(text if text is not None else list_text([]), nl=False)
            _warn_moved(reader)
            return
        rows = listing(reader)
    except Unusual:  # a task only the engine reads (or refuses): each read through it
        rows = _engine_rows(engine)
    from taskproto.hooks.flags import warm

    warm(engine.config.layout, {r["workflow"] for r in rows if "workflow" in r})
    emit(as_json, rows, lambda: click.echo(list_text(rows), nl=False))
    _warn_moved(reader)


def _warn_moved(reader: TaskReader) -> None:
    """One line on stderr when the repository was moved and not re-linked (as the quick front)."""
    moved = reader.moved()
    if moved is not None:
        click.echo(f"taskproto: warning: {moved}", err=True)


def _engine_rows(engine: Engine) -> list[dict[str, Any]]:
    """`task list`'s rows, each task read through the engine: a broken one is listed broken."""
    from taskproto.engine.deps import Resolver, describe
    from taskproto.engine.summary import task_summary

    rows: list[dict[str, Any]] = []
    tasks, broken = engine.load_many()  # a task still being created is in neither
    resolver = Resolver(engine, tasks, broken)  # every task here read once, above
    for name in sorted({*tasks, *broken}):  # as the tasks' folder lists them
        if name in broken:
            rows.append({"name": name, "error": broken[name]})
            continue
        try:
            row = task_summary(tasks[name], engine)
            waits = resolver.waits_for(tasks[name])
        except Exception as exc:  # noqa: BLE001 - a broken task is listed, not fatal
            rows.append({"name": name, "error": str(exc)})
            continue
        row["waits_for"] = [w.to_dict() for w in waits]
        row["waiting"] = describe(waits)
        rows.append(row)
    return rows


@task_group.command("show")
@click.argument("name")
@json_option
@pass_state
def show(state: AppState, name: str, as_json: bool) -> None:
    """Show one task: state, owner, agents, approvals, what may happen next, interruptions."""
    from taskproto.cli.render import show_text
    from taskproto.engine.ready import waits_for
    from taskproto.engine.summary import task_summary
    from taskproto.hooks.flags import warm
    from taskproto.sessions import gone_owner
    from taskproto.state.summary import show_details

    engine = state.engine
    task = engine.load(name)  # a landed or removed one: the CLI's handler says so (engine/gone.py)
    data = task_summary(task, engine)
    raw = task.model_dump(mode="json")
    data.update(show_details(raw))
    data["waits_for"] = [w.to_dict() for w in waits_for(engine, task)]
    data["owner_gone"] = gone_owner(
        raw, engine.config.lease_minutes, engine.config.task_dir(task.name)
    )
    if task.workflow == "plan-task":  # the plan a person reads, as Markdown
        from taskproto.ops.plan_task import plan_markdown

        try:
            data["plan_markdown"] = plan_markdown(engine, task)
        except TaskprotoError as exc:  # a broken override template must not hide the task
            data["plan_markdown"], data["plan_error"] = None, str(exc)
    warm(engine.config.layout, {task.workflow})
    states = engine.workflow(task).state_table()
    head = engine.branch_head(task.name) if task.checkpoint.commit_approval else None
    emit(as_json, data, lambda: click.echo(show_text(data, raw, states, head), nl=False))


@task_group.command("remove")
@click.argument("name")
@click.option(
    "--force", is_flag=True, help="Also discard uncommitted changes and unmerged commits."
)
@json_option
@pass_state
def remove(state: AppState, name: str, force: bool, as_json: bool) -> None:
    """Remove task NAME's worktrees, branches and folder (its journal is archived).

    Refuses when a worktree has uncommitted changes or a branch has commits that
    are on no other branch, or when another live session owns the task, unless
    --force (a forced removal of an owned task is logged in its archived journal).
    With a shared remote the removal is published there too, so no other
    machine's sync brings the task back; if the remote cannot be reached, the
    task is removed here and the next `taskproto sync` publishes it.
    """
    plan = state.engine.remove_task(name, force, state.session_id())
    data = plan.report(name, force)
    kept = f"; {len(plan.kept)} kept cop(ies) moved to {plan.kept_in}" if plan.kept_in else ""
    kept += f"; {plan.remote_note}" if plan.remote_note else ""
    emit(
        as_json,
        data,
        lambda: click.echo(
            f"removed task {name}: {len(plan.worktrees)} worktree(s), branches "
            f"{', '.join(plan.branches) or 'none'}{kept}"
        ),
    )


@task_group.command("abort")
@click.argument("name")
@click.option(
    "--force", is_flag=True, help="Also discard changes made since in the half-made worktrees."
)
@json_option
@pass_state
def abort(state: AppState, name: str, force: bool, as_json: bool) -> None:
    """Undo task NAME, half made by a `task create` that was killed: its branches, worktrees and
    folder, whole (a journal already written is archived).

    Refuses a task whose create finished (use `task remove`), one still being created, and,
    unless --force, one where work was done since.
    """
    plan = state.engine.abort_task(name, force)
    data = {
        "name": name,
        "worktrees": [str(p) for p in plan.worktrees],
        "branches": plan.branches,
    }
    emit(
        as_json,
        data,
        lambda: click.echo(
            f"aborted the half-made task {name}: removed {len(plan.worktrees)} worktree(s), "
            f"branches {', '.join(plan.branches) or 'none'}"
        ),
    )


COMMANDS = [task_group]

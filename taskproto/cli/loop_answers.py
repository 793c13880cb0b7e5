"""`taskproto subtask help|skip|edit|drop` and `taskproto loop view|new` (tight-loop's answers)."""

from __future__ import annotations

from typing import Any

import click

from taskproto.cli.common import AppState, emit, flush_warnings, json_option, pass_state

force_option = click.option(
    "--force", is_flag=True, help="Act on a task owned by another live session (logged)."
)


@click.command("help")
@click.argument("name")
@click.argument("ident", metavar="ID")
@json_option
@pass_state
def subtask_help(state: AppState, name: str, ident: str, as_json: bool) -> None:
    """HELP, the answer to "Execute ID? [YES/NO/HELP]": show the subtask's help (EXECUTE)."""
    from taskproto.ops import tight_loop_answers as answers

    text = answers.help_text(state.engine, name, ident)
    emit(
        as_json, {"task": name, "subtask": ident, "help": text}, lambda: click.echo(text, nl=False)
    )


@click.command("skip")
@click.argument("name")
@click.argument("ident", metavar="ID")
@click.option("--reason", help="Why it is skipped.")
@force_option
@json_option
@pass_state
def subtask_skip(
    state: AppState, name: str, ident: str, reason: str | None, force: bool, as_json: bool
) -> None:
    """NO, the answer to "Execute ID? [YES/NO/HELP]": skip the pending subtask (EXECUTE)."""
    from taskproto.ops import tight_loop_answers as answers

    item = answers.skip(state.engine, name, ident, reason, state.session_id(), force)
    flush_warnings(state)
    emit(as_json, item, lambda: click.echo(f"{name}: subtask {item['id']} skipped"))


@click.command("edit")
@click.argument("name")
@click.argument("ident", metavar="ID")
@click.option("--title", required=True, help="The new title.")
@force_option
@json_option
@pass_state
def subtask_edit(
    state: AppState, name: str, ident: str, title: str, force: bool, as_json: bool
) -> None:
    """EDIT: rename a discovered task still waiting to be planned (REVIEW or FULL_AUTO)."""
    from taskproto.ops import tight_loop_answers as answers

    item = answers.edit(state.engine, name, ident, title, state.session_id(), force)
    flush_warnings(state)
    emit(
        as_json,
        item,
        lambda: click.echo(f"{name}: discovered task {item['id']} is now {item['title']!r}"),
    )


@click.command("drop")
@click.argument("name")
@click.argument("ident", metavar="ID")
@force_option
@json_option
@pass_state
def subtask_drop(state: AppState, name: str, ident: str, force: bool, as_json: bool) -> None:
    """NO to "Add discovered tasks?" for one: drop a waiting discovered task (REVIEW, FULL_AUTO)."""
    from taskproto.ops import tight_loop_answers as answers

    item = answers.drop(state.engine, name, ident, state.session_id(), force)
    flush_warnings(state)
    emit(as_json, item, lambda: click.echo(f"{name}: discovered task {item['id']} dropped"))


SUBTASK_COMMANDS = [subtask_help, subtask_skip, subtask_edit, subtask_drop]


@click.group("loop")
def loop_group() -> None:
    """tight-loop's FULL_AUTO options: view the results, start a new session."""


@loop_group.command("view")
@click.argument("name")
@json_option
@pass_state
def loop_view(state: AppState, name: str, as_json: bool) -> None:
    """View results: each iteration's task, subtasks, decisions and discovered tasks."""
    from taskproto.ops import tight_loop_answers as answers

    data = answers.view(state.engine, name)

    def human() -> None:
        click.echo(f"{name}: {data['state']}")
        for it in data["iterations"]:
            focus = it["focus"] or {}
            what = " ".join(x for x in (focus.get("id"), focus.get("title")) if x) or "-"
            click.echo(f"iteration {it['iteration']}: {what}")
            for s in it["subtasks"]:
                note = f" ({s['note']})" if s.get("note") else ""
                click.echo(f"  {s['id']:<4} {s['status']:<8} {s['title']}{note}")
            for d in it["discovered"]:
                mark = "dropped" if d.get("dropped") else "found"
                click.echo(f"  {d['id']:<4} {mark:<8} {d['title']}")
            for decision in it["decisions"]:
                click.echo(f"  {decision}")

    emit(as_json, data, human)


@loop_group.command("new")
@click.argument("name")
@click.option(
    "--name", "new_name", metavar="NEW", help="The new task's name (default NAME-2, ...)."
)
@json_option
@pass_state
def loop_new(state: AppState, name: str, new_name: str | None, as_json: bool) -> None:
    """New session: a new tight-loop task; the discovered tasks still waiting carry over."""
    from taskproto.ops import tight_loop_answers as answers

    task = answers.new_session(state.engine, name, new_name, state.session_id())
    flush_warnings(state)
    carried = [d["title"] for d in task.context.get("discovered") or []]
    data: dict[str, Any] = {
        "task": task.name,
        "parent": name,
        "state": task.state,
        "carried": carried,
        "focus": task.context.get("focus"),
    }

    def human() -> None:
        click.echo(f"created task {task.name} (tight-loop, state PLAN) from {name}")
        if carried:
            click.echo(f"  carried over: {'; '.join(carried)}")

    emit(as_json, data, human)

"""`taskproto turn|handoff|subtask|loop` (tight-loop)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from taskproto.cli.common import AppState, emit, flush_warnings, json_option, pass_state
from taskproto.cli.render import subtask_lines, turn_lines

force_option = click.option(
    "--force", is_flag=True, help="Act on a task owned by another live session (logged)."
)


@click.command("turn")
@click.argument("name")
@click.option("--phase", metavar="PHASE", help="Refuse (exit 1) unless PHASE holds the turn now.")
@json_option
@pass_state
def turn(state: AppState, name: str, phase: str | None, as_json: bool) -> None:
    """Say which phase holds the interactive ("ask the user") turn of tight-loop task NAME."""
    from taskproto.machine.builtin.tight_loop import turn_report
    from taskproto.ops import tight_loop as tightloop

    data = turn_report(tightloop.turn(state.engine, name, phase))

    def human() -> None:
        for line in turn_lines(data):
            click.echo(line)

    emit(as_json, data, human)


@click.command("handoff")
@click.argument("name")
@click.option(
    "--to",
    "to",
    required=True,
    metavar="PHASE",
    help="EXECUTE, REVIEW, PLAN (loop) or FULL_AUTO (break).",
)
@click.option(
    "--decision",
    required=True,
    type=click.Choice(["YES", "NO"], case_sensitive=False),
    help="The user's answer to the phase's gate question (YES is refused to an agent: the user "
    "answers it).",
)
@click.option(
    "--results",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The phase's results (JSON or text) for the next phase.",
)
@click.option(
    "--from",
    "from_phase",
    metavar="PHASE",
    help="The phase handing off; refused unless it holds the turn.",
)
@force_option
@json_option
@pass_state
def handoff(
    state: AppState,
    name: str,
    to: str,
    decision: str,
    results: Path | None,
    from_phase: str | None,
    force: bool,
    as_json: bool,
) -> None:
    """End the current phase's turn and start PHASE's, carrying only the decision and the
    results."""
    from taskproto.cli.loop_results import read_results
    from taskproto.cli.render import handoff_lines, handoff_report
    from taskproto.ops import tight_loop as tightloop

    engine = state.engine
    payload = read_results(results.absolute()) if results else None
    before = engine.load(name).state
    task = tightloop.handoff(
        engine, name, to, decision, payload, from_phase, state.session_id(), force
    )
    flush_warnings(state)
    # the handoff prompt the receiving phase starts from (rendered when it is printed: --json)
    data = handoff_report(name, before, task, engine.last_prompt if as_json else None)
    emit(as_json, data, lambda: click.echo("\n".join(handoff_lines(data))))


@click.group("subtask")
def subtask_group() -> None:
    """tight-loop subtasks: add (PLAN/EXECUTE; REVIEW adds discovered tasks), done, fail, list."""


@subtask_group.command("add")
@click.argument("name")
@click.argument("title")
@force_option
@json_option
@pass_state
def subtask_add(state: AppState, name: str, title: str, force: bool, as_json: bool) -> None:
    """Add subtask TITLE (in REVIEW: a discovered task, refused if its title already exists)."""
    from taskproto.ops import tight_loop as tightloop

    item = tightloop.add(state.engine, name, title, state.session_id(), force)
    flush_warnings(state)
    emit(as_json, item, lambda: click.echo("\n".join(subtask_lines(name, True, item))))


def _finish(
    state: AppState, name: str, ident: str, ok: bool, note: str | None, force: bool, as_json: bool
) -> None:
    from taskproto.ops import tight_loop as tightloop

    item = tightloop.finish(state.engine, name, ident, ok, note, state.session_id(), force)
    flush_warnings(state)
    emit(as_json, item, lambda: click.echo("\n".join(subtask_lines(name, False, item))))


@subtask_group.command("done")
@click.argument("name")
@click.argument("ident", metavar="ID")
@click.option("--note", help="A note kept with the subtask.")
@force_option
@json_option
@pass_state
def subtask_done(
    state: AppState, name: str, ident: str, note: str | None, force: bool, as_json: bool
) -> None:
    """Mark subtask ID done (EXECUTE only)."""
    _finish(state, name, ident, True, note, force, as_json)


@subtask_group.command("fail")
@click.argument("name")
@click.argument("ident", metavar="ID")
@click.option("--reason", help="Why it failed.")
@force_option
@json_option
@pass_state
def subtask_fail(
    state: AppState, name: str, ident: str, reason: str | None, force: bool, as_json: bool
) -> None:
    """Mark subtask ID failed (EXECUTE only)."""
    _finish(state, name, ident, False, reason, force, as_json)


@subtask_group.command("list")
@click.argument("name")
@json_option
@pass_state
def subtask_list(state: AppState, name: str, as_json: bool) -> None:
    """List the subtasks and discovered tasks of task NAME."""
    task = state.engine.load(name)
    subtasks = task.context.get("subtasks") or []
    discovered = task.context.get("discovered") or []

    def human() -> None:
        for s in subtasks:
            click.echo(f"{s['id']:<5} {s['status']:<8} it{s['iteration']}  {s['title']}")
        for d in discovered:
            click.echo(f"{d['id']:<5} {'found':<8} it{d['iteration']}  {d['title']}")
        if not subtasks and not discovered:
            click.echo("no subtasks")

    emit(as_json, {"task": name, "subtasks": subtasks, "discovered": discovered}, human)


# --- the HELP, NO and EDIT answers, and FULL_AUTO's options ---------------------------------


@subtask_group.command("help")
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


@subtask_group.command("skip")
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


@subtask_group.command("edit")
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


@subtask_group.command("drop")
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


COMMANDS = [turn, handoff, subtask_group, loop_group]

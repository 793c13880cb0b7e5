"""`taskproto turn|handoff|subtask` (tight-loop)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from taskproto.cli.common import AppState, emit, flush_warnings, json_option, pass_state
from taskproto.cli.loop_answers import SUBTASK_COMMANDS, loop_group

force_option = click.option(
    "--force", is_flag=True, help="Act on a task owned by another live session (logged)."
)


def _summary_lines(summary: dict[str, Any]) -> list[str]:
    discovered = summary["discovered"]
    return [
        "session summary:",
        f"  iterations          {summary['iterations']}",
        f"  subtasks completed  {summary['subtasks_completed']}",
        f"  subtasks failed     {summary['subtasks_failed']}",
        f"  tasks discovered    {len(discovered)}"
        + (f": {'; '.join(discovered)}" if discovered else ""),
    ]


@click.command("turn")
@click.argument("name")
@click.option("--phase", metavar="PHASE", help="Refuse (exit 1) unless PHASE holds the turn now.")
@json_option
@pass_state
def turn(state: AppState, name: str, phase: str | None, as_json: bool) -> None:
    """Say which phase holds the interactive ("ask the user") turn of tight-loop task NAME."""
    from taskproto.ops import tight_loop as tightloop

    t = tightloop.turn(state.engine, name, phase)
    data: dict[str, Any] = {
        "task": name,
        "phase": t.phase,
        "iteration": t.iteration,
        "gate": t.gate,
        "last_handoff": t.last_handoff,
    }
    if t.phase == "FULL_AUTO":
        data["summary"] = tightloop.session_summary(state.engine.load(name))

    def human() -> None:
        if t.phase == "FULL_AUTO":
            click.echo(f"{name}: the loop has ended (FULL_AUTO)")
            for line in _summary_lines(data["summary"]):
                click.echo(line)
            return
        click.echo(
            f"{name}: {t.phase} holds the turn (iteration {t.iteration}); its gate: {t.gate}"
        )
        if t.last_handoff:
            h = t.last_handoff
            click.echo(
                f"  received from {h['from']}: decision {h['decision']}"
                + (f", results: {h['results']}" if h.get("results") is not None else "")
            )

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
    help="The user's answer to the phase's gate question.",
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
    """End the current phase's turn and start PHASE's, carrying only the decision and the results."""
    from taskproto.ops import tight_loop as tightloop

    engine = state.engine
    payload = tightloop.read_results(results.absolute()) if results else None
    before = engine.load(name).state
    task = tightloop.handoff(
        engine, name, to, decision, payload, from_phase, state.session_id(), force
    )
    flush_warnings(state)
    data: dict[str, Any] = {
        "task": name,
        "from": before,
        "to": task.state,
        "iteration": task.counters.iteration,
        "revision": task.revision,
        "prompt": engine.last_prompt,  # the handoff prompt the receiving phase starts from
    }
    if task.state == "FULL_AUTO":
        data["summary"] = tightloop.session_summary(task)

    def human() -> None:
        click.echo(
            f"{name}: {before} -> {task.state} (iteration {task.counters.iteration}); "
            f"{task.state} holds the turn"
        )
        if "summary" in data:
            for line in _summary_lines(data["summary"]):
                click.echo(line)

    emit(as_json, data, human)


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
    kind = "discovered task" if item["id"].startswith("D") else "subtask"
    emit(as_json, item, lambda: click.echo(f"{name}: {kind} {item['id']} {item['title']!r} added"))


def _finish(
    state: AppState, name: str, ident: str, ok: bool, note: str | None, force: bool, as_json: bool
) -> None:
    from taskproto.ops import tight_loop as tightloop

    item = tightloop.finish(state.engine, name, ident, ok, note, state.session_id(), force)
    flush_warnings(state)
    emit(as_json, item, lambda: click.echo(f"{name}: subtask {item['id']} {item['status']}"))


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


for _command in SUBTASK_COMMANDS:  # HELP, NO and EDIT answers live in cli/loop_answers.py
    subtask_group.add_command(_command)

COMMANDS = [turn, handoff, subtask_group, loop_group]

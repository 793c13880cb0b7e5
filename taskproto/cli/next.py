"""`taskproto next`: the one step the workflow allows next, or a walk to a state."""

from __future__ import annotations

import click

from taskproto.cli.common import AppState, emit, flush_warnings, json_option, pass_state


@click.command("next")
@click.argument("name")
@click.option(
    "--to",
    "target",
    metavar="STATE",
    help="Walk to STATE along the only path ahead, one journaled transition per step.",
)
@click.option(
    "--force",
    is_flag=True,
    help="Move a task owned by another live session, or start one that waits for others (logged).",
)
@json_option
@pass_state
def next_cmd(state: AppState, name: str, target: str | None, force: bool, as_json: bool) -> None:
    """Fire the one transition task NAME's workflow allows next; with --to, walk to STATE.

    The next step is the one transition that goes further along the workflow (never back, as a
    rejection does) and whose guards pass now. `next` stops, naming why and the command that
    acts, at a guard that fails (an approval missing, agents not done), at a step that is the
    user's (an approval in plan-task, the landing in task-protocol), where several steps go
    ahead, and at the workflow's end. Each step is its own transition in the log and journal.
    Exit 0 when it moved (and reached STATE); 1 when it could not, or stopped before STATE,
    after printing the steps it took.
    """
    walked = state.engine.next(name, target.upper() if target else None, state.session_id(), force)
    flush_warnings(state)

    def human() -> None:
        for before, _trigger, after in walked.steps:
            click.echo(f"{walked.task}: {before} -> {after}")
        if not walked.steps and walked.stopped is None:
            click.echo(f"{walked.task}: already in {walked.state}")

    emit(as_json, walked.as_json(), human)
    if walked.stopped is not None:
        click.echo(f"taskproto: {walked.stopped}", err=True)
        raise click.exceptions.Exit(1)


COMMANDS = [next_cmd]

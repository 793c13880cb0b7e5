"""`taskproto log`: what each commit of a task's journal changed, one line each."""

from __future__ import annotations

import click

from taskproto.cli.common import AppState, emit, json_option, pass_state


@click.command("log")
@click.argument("name")
@click.option(
    "--last",
    type=click.IntRange(min=1),
    metavar="N",
    help="Only the N newest changes (read no further back in the journal).",
)
@json_option
@pass_state
def log(state: AppState, name: str, last: int | None, as_json: bool) -> None:
    """Print everything task NAME's journal holds, oldest first: one line per change.

    Every change of a task is a journal commit in git: transitions and rollbacks, claims,
    takeovers and releases, approvals (and an approval gone stale), interruptions, escalations
    and their resolution, agents' statuses, merges, landing, doctor's repairs, a removal. Each
    line: the time, the revision, the kind, the state after it, what changed (with the notes,
    the words of an interruption, a forced move) and [the session that made it]. A removed
    task's archived journal is read. --json gives each change as
    {commit, revision, time, kind, from, to, trigger, session, forced, note, summary, text, log,
    interruptions, agents}.
    """
    from taskproto.names import task_name
    from taskproto.state.changes import changes, line

    engine = state.engine
    task_name(name)
    ref, entries = changes(engine.repo, name, last)

    def human() -> None:
        for entry in entries:
            click.echo(line(entry))

    emit(as_json, {"task": name, "ref": ref, "entries": entries}, human)


COMMANDS = [log]

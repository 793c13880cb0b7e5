"""`taskproto rollback` and `taskproto ack`: the user's corrections, each a journaled step."""

from __future__ import annotations

import click

from taskproto.cli.common import AppState, emit, flush_warnings, json_option, pass_state


@click.command("rollback")
@click.argument("name")
@click.option(
    "--to", "target", metavar="STATE", help="Return to the latest point the log was in STATE."
)
@click.option(
    "--revision",
    type=click.IntRange(min=1),
    metavar="N",
    help="Return to the state the task had at journal revision N.",
)
@json_option
@pass_state
def rollback(
    state: AppState, name: str, target: str | None, revision: int | None, as_json: bool
) -> None:
    """Return task NAME to an earlier point of its own transition log (the user only).

    The rollback is a new step in the log and the journal: nothing is rewritten, and
    `taskproto log NAME` shows it. Approvals recorded after that point are revoked: kept in
    the record, no longer counted by any guard. Branches, worktrees and agents' statuses are
    not touched. An agent is refused.
    """
    if (target is None) == (revision is None):
        raise click.UsageError("name one point to roll back to: --to STATE or --revision N")
    task, revoked = state.engine.rollback(name, target, revision, state.session_id())
    flush_warnings(state)
    entry = task.transition_log[-1]
    data = {
        "task": task.name,
        "from": entry.from_state,
        "to": task.state,
        "revision": task.revision,
        "revoked": [a.kind for a in revoked],
    }

    def human() -> None:
        click.echo(f"task {task.name}: rolled back {entry.from_state} -> {task.state}")
        for a in revoked:
            click.echo(f"  revoked the {a.kind} approval recorded at {a.at:%Y-%m-%dT%H:%M:%SZ}")

    emit(as_json, data, human)


@click.command("ack")
@click.argument("name")
@json_option
@pass_state
def ack(state: AppState, name: str, as_json: bool) -> None:
    """Acknowledge what doctor asked you about task NAME: that you reviewed it after doctor
    rebuilt it (clears needs_review), and that an approval recorded as its owner's session by a
    process with no terminal was yours (doctor's approval-no-terminal then no longer names it).

    The acknowledgement is journaled and logged; only the user gives it (an agent is refused).
    """
    from taskproto.clients.approver import KEPT

    task = state.engine.acknowledge(name, state.session_id())
    flush_warnings(state)
    note = task.transition_log[-1].note  # what was acknowledged, as the log says it
    emit(
        as_json,
        {
            "task": task.name,
            "state": task.state,
            "needs_review": task.needs_review,
            "kept_approvals": task.context.get(KEPT) or [],
        },
        lambda: click.echo(f"task {task.name}: {note}"),
    )


COMMANDS = [rollback, ack]

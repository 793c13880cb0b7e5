"""`taskproto land`: the approved commit onto the base branch, then CLEANUP (the user's alone)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import click

from taskproto.cli.common import AppState, emit, flush_warnings, json_option, pass_state

if TYPE_CHECKING:
    from taskproto.engine.land import Strategy


@click.command("land")
@click.argument("name")
@click.option(
    "--strategy",
    type=click.Choice(["merge", "ff", "squash"]),
    default="merge",
    show_default=True,
    help="merge: a merge commit; ff: fast-forward only; squash: one commit with the task's tree.",
)
@click.option(
    "--push",
    is_flag=True,
    help="Push the base branch (to taskproto's remote, else the branch's upstream or origin). "
    "With `remote` set in taskproto's settings it is always pushed.",
)
@click.option("--onto", metavar="BRANCH", help="The base branch (default: the one at create).")
@click.option(
    "--update",
    "update",
    flag_value="merge",
    help="When the base moved, merge it into the task branch first (`taskproto update`) and "
    "land if the approved change is unchanged (same patch-id); else ask for approval again.",
)
@click.option(
    "--update-rebase",
    "update",
    flag_value="rebase",
    help="As --update, rebasing the task branch onto the base instead of merging it.",
)
@json_option
@pass_state
def land(
    state: AppState,
    name: str,
    strategy: str,
    push: bool,
    onto: str | None,
    update: str | None,
    as_json: bool,
) -> None:
    """Land task NAME: put its approved commit on the base branch, then clean up.

    Only in COMPLETE, with the user's approval of the exact head (a workflow without COMPLETE,
    such as tight-loop, is not landed by taskproto: merge its branch yourself). Refused with
    nothing changed when the base branch moved in a way that conflicts (the message names the
    `taskproto update` command, or use --update), or when the remote refuses the push. The task
    moves to CLEANUP; its worktrees and branches are removed, and its journal archived, only
    when every commit of them is on the base branch (after --strategy squash they are kept:
    `taskproto task remove NAME --force`). When git has a signing key (user.signingkey), a
    signed attestation of what landed is kept as the landed commit's note under
    refs/notes/taskproto (docs/verify.md).

    Landing is the user's: type it in your own terminal.
    """
    engine = state.engine
    report = engine.land(name, cast("Strategy", strategy), push, onto, state.session_id(), update)
    flush_warnings(state)
    r = report.record

    def human() -> None:
        moved = (
            f"{r.base_before[:12]} -> {r.base_after[:12]}"
            if r.base_after != r.base_before
            else f"already at {r.base_after[:12]}"
        )
        click.echo(f"{name}: landed {r.approved[:12]} on {r.base_branch} ({r.strategy}): {moved}")
        if r.pushed_to:
            click.echo(f"{name}: pushed {r.base_branch} to {r.pushed_to}")
        if report.attested:
            click.echo(
                f"{name}: attestation signed: `git notes --ref=taskproto show "
                f"{report.attested[:12]}` (docs/verify.md)"
            )
        if report.removed:
            click.echo(f"{name}: {report.state}; worktrees and branches removed, journal archived")
        else:
            click.echo(f"{name}: {report.state}; {report.kept}")

    emit(as_json, report.as_json(), human)


COMMANDS = [land]

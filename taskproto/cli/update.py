"""`taskproto update`: the base branch's new commits into a task branch (the user's)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import click

from taskproto import plainjson as json
from taskproto.cli.common import AppState, emit, flush_warnings, json_option, pass_state

if TYPE_CHECKING:
    from taskproto.engine.update import Mode


@click.command("update")
@click.argument("name")
@click.option(
    "--rebase",
    "mode",
    flag_value="rebase",
    help="Replay the task's commits onto the base (its merges kept: --rebase-merges).",
)
@click.option(
    "--merge",
    "mode",
    flag_value="merge",
    default=True,
    help="Merge the base into the task branch with a merge commit (the default).",
)
@click.option(
    "--agents",
    is_flag=True,
    help="Also bring the base into each agent's branch, in the agent's worktree.",
)
@json_option
@pass_state
def update(state: AppState, name: str, mode: str, agents: bool, as_json: bool) -> None:
    """Bring the base branch's new commits into task NAME's branch, in its worktree.

    Refused when the worktree has uncommitted changes. A head that moves revokes the commit
    approval (a task past its approval state goes back to it). A conflict changes nothing in the
    worktree: it is journaled, the task goes back to its work state and the owning agent gets it
    as a revision naming the files and hunks (`taskproto prompt NAME`); exit 1. With taskproto's
    shared remote, the base branch here is first fast-forwarded to the remote's.

    Updating is the user's: type it in your own terminal.
    """
    from taskproto.engine.update import UpdateConflict

    engine = state.engine
    try:
        report = engine.update(name, cast("Mode", mode), agents, state.session_id())
    except UpdateConflict as exc:
        flush_warnings(state)
        if as_json:
            click.echo(
                json.dumps(
                    {
                        "task": exc.task,
                        "error": str(exc),
                        "result": "conflict",
                        "files": exc.files,
                        "state": exc.state,
                    },
                    indent=2,
                )
            )
        raise
    flush_warnings(state)
    r = report

    def human() -> None:
        if r.result == "up-to-date":
            click.echo(f"{name}: already has {r.base_branch} ({r.base[:12]})")
        else:
            click.echo(
                f"{name}: brought in {r.base_branch} ({r.base[:12]}, {r.mode}): "
                f"{r.head_before[:12]} -> {r.head[:12]}"
            )
        if r.approval == "revoked":
            click.echo(
                f"{name}: the commit approval is revoked; {r.state}: review and "
                f"`taskproto approve {name} --commit` again"
            )
        elif r.approval == "carried":
            click.echo(
                f"{name}: the approved change is unchanged: approval carried to {r.head[:12]}"
            )
        for agent, result in r.agents.items():
            click.echo(f"{name}: agent {agent}: {result}")

    emit(as_json, r.as_json(), human)


COMMANDS = [update]

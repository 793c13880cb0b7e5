"""`taskproto merge`: the agents' branches into the task branch, one agent at a time."""

from __future__ import annotations

import click

from taskproto import plainjson as json
from taskproto.cli.common import AppState, emit, flush_warnings, json_option, pass_state


@click.command("merge")
@click.argument("name")
@click.option(
    "--agent",
    "agents",
    multiple=True,
    metavar="AGENT",
    help="Merge only this agent's branch (repeatable; default: every agent of the task).",
)
@click.option("--force", is_flag=True, help="Merge a task owned by another live session (logged).")
@json_option
@pass_state
def merge(state: AppState, name: str, agents: tuple[str, ...], force: bool, as_json: bool) -> None:
    """Merge the agents' branches into task NAME's branch, in the task's worktree.

    One agent at a time, in the task's order of agents, each with a merge commit (--no-ff) so
    its work stays visible; each result (the agent commit merged, or the conflict) is recorded
    in task.json and the journal. Allowed in the states the workflow says (task-protocol:
    IMPLEMENTATION and VALIDATION), with a clean task worktree.

    A conflict stops at that agent: exit 1 naming the agent and the files; nothing of that agent
    is left half-merged, and the agents merged before it stay merged.
    """
    from taskproto.errors import MergeConflict

    engine = state.engine
    try:
        report = engine.merge(name, agents, state.session_id(), force)
    except MergeConflict as exc:
        flush_warnings(state)
        if as_json:
            click.echo(
                json.dumps(
                    {
                        "task": exc.task,
                        "error": str(exc),
                        "conflict": {"agent": exc.agent, "files": exc.files},
                        "merged": exc.merged,
                    },
                    indent=2,
                )
            )
        raise
    flush_warnings(state)

    def human() -> None:
        for r in report.results:
            if r.result == "merged":
                click.echo(
                    f"{name}: merged {r.agent} ({r.commit[:12]}) as {(r.merge_commit or '?')[:12]}"
                )
            else:
                click.echo(f"{name}: {r.agent} ({r.commit[:12]}) already merged")
        click.echo(f"{name}: branch {name} {report.head_before[:12]} -> {report.head[:12]}")

    emit(as_json, report.as_json(), human)


COMMANDS = [merge]

"""`taskproto agent set`: an agent's status on a task."""

from __future__ import annotations

import click

from taskproto.cli.common import AppState, emit, flush_warnings, json_option, pass_state


@click.group("agent")
def agent_group() -> None:
    """Agent status: PENDING, WORKING, COMPLETE or ERROR."""


@agent_group.command("set")
@click.argument("name")
@click.argument("agent")
@click.option(
    "--status",
    "status",
    required=True,
    type=click.Choice(["PENDING", "WORKING", "COMPLETE", "ERROR"], case_sensitive=False),
)
@click.option("--message", help="Error message (kept with ERROR).")
@click.option(
    "--force", is_flag=True, help="Update an agent of a task owned by another live session."
)
@json_option
@pass_state
def agent_set(
    state: AppState,
    name: str,
    agent: str,
    status: str,
    message: str | None,
    force: bool,
    as_json: bool,
) -> None:
    """Set AGENT's status on task NAME."""
    from taskproto.state.models import AgentState

    result = state.engine.set_agent_status(
        name, agent, AgentState(status.upper()), message, state.session_id(), force
    )
    flush_warnings(state)
    emit(
        as_json,
        result.model_dump(mode="json"),
        lambda: click.echo(
            f"{name}/{agent}: {result.status.value}" + (f" ({message})" if message else "")
        ),
    )


COMMANDS = [agent_group]

"""`taskproto board`: the live local web page of every task and agent, where the user reviews and
approves."""

from __future__ import annotations

import click

from taskproto.cli.common import AppState, pass_state
from taskproto.errors import TaskprotoError

INSTALL = "pip install 'taskproto[board]'"


def require_web_stack(what: str) -> None:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
        import watchfiles  # noqa: F401
    except ImportError as exc:
        raise TaskprotoError(
            f"{what} needs the board's web stack ({exc.name} is not installed): {INSTALL}"
        ) from None


@click.command("board")
@click.option("--port", type=int, default=8765, show_default=True, help="0: any free port.")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on; anything but loopback is exposed to the network.",
)
@click.option("--no-open", "no_open", is_flag=True, help="Do not open a browser.")
@click.option("--no-doctor", "no_doctor", is_flag=True, help="Do not run doctor for the cards.")
@pass_state
def board(state: AppState, port: int, host: str, no_open: bool, no_doctor: bool) -> None:
    """Serve a live board of every task and agent on http://HOST:PORT.

    Prints the URL with a one-time token (kept only in this process's memory); open it to see
    the tasks by state, the agents' activity, what waits for you, what is blocked, each task's
    diagram, log, plan and diff; to approve, comment, request a revision or resume; and to
    create, claim, release, complete, land and remove tasks, each refused as its CLI command is.
    Your actions are journaled as `board:<you>`; a claim from the board holds while it runs.
    Start it in your own terminal: agents never get the token.
    """
    why = state.agent_context()  # the clients' environment, or a client among the ancestors
    if why:
        raise TaskprotoError(
            "`taskproto board` serves the user's approvals; this process runs inside an agent "
            f"session ({why}): start it in your own terminal"
        )
    if not 0 <= port <= 65535:
        raise click.BadParameter(f"{port} is not a port", param_hint="--port")
    require_web_stack("`taskproto board`")
    engine = state.engine
    from taskproto.board.server import serve

    serve(engine.config, host, port, not no_open, click.echo, doctor=not no_doctor)


COMMANDS = [board]

"""`taskproto mcp`: serve taskproto over MCP (stdio); `taskproto mcp install|uninstall`."""

from __future__ import annotations

import click

from taskproto.cli.common import AppState, emit, json_option, pass_state
from taskproto.errors import TaskprotoError

CLIENTS = ("claude", "codex", "gemini")


@click.group("mcp", invoke_without_command=True)
@click.option(
    "--session",
    "session",
    metavar="ID",
    help="The session these tools act as (default: $TASKPROTO_SESSION). Without one, only "
    "read-only tools work.",
)
@click.pass_context
def mcp_group(ctx: click.Context, session: str | None) -> None:
    """Serve taskproto's operations as MCP tools over stdio (for agent clients).

    Run with no subcommand by the client (see `taskproto mcp install`). Approvals,
    forced takeovers, `doctor --fix` and task removal are not exposed.
    """
    if ctx.invoked_subcommand is not None:
        return
    state = ctx.find_object(AppState)
    assert state is not None
    from taskproto.sessions import resolve_session

    engine = state.engine  # resolve the repository (and refuse outside one) before serving
    import os

    from taskproto.clients.identity import check_session, client_session

    # the session given, else the one the client that started the server runs as (Claude Code
    # passes CLAUDE_CODE_SESSION_ID on to its MCP servers); an agent's client serves its own alone
    own = client_session(os.environ)
    acting = resolve_session(session or state.session) or (own[1] if own else None)
    check_session(acting, "the MCP server's session")
    try:
        from taskproto.mcp.server import build_server, serve_stdio
    except ImportError as exc:
        if exc.name is None or exc.name.split(".")[0] not in ("mcp", "mcp_types", "anyio"):
            raise
        raise TaskprotoError(
            "`taskproto mcp` needs the MCP SDK, which is not installed: "
            "pip install 'taskproto[mcp]'"
        ) from None

    serve_stdio(build_server(engine.config, acting))


@mcp_group.command("install")
@click.option("--client", "client", required=True, type=click.Choice(CLIENTS))
@click.option(
    "--scope",
    type=click.Choice(["project", "user"]),
    default="project",
    show_default=True,
    help="project: this repository's client config; user: the user's (Codex: $CODEX_HOME).",
)
@json_option
@pass_state
def install(state: AppState, client: str, scope: str, as_json: bool) -> None:
    """Register `taskproto mcp` in CLIENT's MCP configuration (merged; other entries are kept)."""
    from taskproto.clients import mcp_servers as mcp_config

    change = mcp_config.register(client, state.engine.config.repo, scope=scope)
    emit(as_json, change.as_dict(), lambda: click.echo(change.describe()))


@mcp_group.command("uninstall")
@click.option("--client", "client", required=True, type=click.Choice(CLIENTS))
@click.option(
    "--scope", type=click.Choice(["project", "user"]), default="project", show_default=True
)
@json_option
@pass_state
def uninstall(state: AppState, client: str, scope: str, as_json: bool) -> None:
    """Remove what `install` added; a file it created is removed, a file it changed is restored."""
    from taskproto.clients import mcp_servers as mcp_config

    change = mcp_config.unregister(client, state.engine.config.repo, scope=scope)
    emit(as_json, change.as_dict(), lambda: click.echo(change.describe()))


COMMANDS = [mcp_group]

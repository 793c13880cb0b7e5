"""`taskproto hook claude|codex|gemini EVENT`: answer one agent-client hook call (payload on stdin).

Installed hooks enter through `taskproto/agent_hooks/entry.py` (no click, no
site-packages on the hot path); this command runs the same code, for hand use
and for clients configured with `taskproto hook ...`.
"""

from __future__ import annotations

import os
import sys

import click

from taskproto.clients.protocols import CLIENTS


def _client_command(client: str) -> click.Command:
    @click.command(
        client,
        help=f"Answer a {client} hook call: EVENT is the client's event name; "
        "its hook JSON comes on stdin.",
    )
    @click.argument("event")
    @click.pass_context
    def run(ctx: click.Context, event: str) -> None:
        from taskproto.hooks.agents.runner import run_agent_hook

        code, out, err = run_agent_hook(client, event, sys.stdin.buffer.read(), dict(os.environ))
        if out:
            click.echo(out, nl=False)
        if err:
            click.echo(err, nl=False, err=True)
        ctx.exit(code)

    return run


AGENT_COMMANDS = [_client_command(c) for c in CLIENTS]


@click.group("hook")
def hook_group() -> None:
    """Run a hook (the installed hooks call these; `taskproto init` installs them)."""


def attach(group: click.Group) -> None:
    for command in AGENT_COMMANDS:
        group.add_command(command)


def _existing_hook_group() -> click.Group | None:
    import importlib

    try:
        git_hook = importlib.import_module(
            "taskproto.cli.hook"
        )  # the git hooks' group, when it exists
    except ImportError:
        return None
    group = getattr(git_hook, "hook_group", None)
    return group if isinstance(group, click.Group) else None


_group = _existing_hook_group()
if _group is None:
    attach(hook_group)
    COMMANDS = [hook_group]
else:
    attach(_group)
    COMMANDS = []

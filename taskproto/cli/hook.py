"""`taskproto hook <name>`: run one hook by hand, the way an installed hook script runs it.

One command per git hook (`hook pre-commit`, ...) and per agent client (`hook claude EVENT`,
payload on stdin). Installed hooks enter through `taskproto/hooks/git/entry.py` and
`taskproto/hooks/agents/entry.py` (no click, no site-packages on the hot path); these
commands run the same code, for hand use and for hooks configured as `taskproto hook ...`.
"""

from __future__ import annotations

import os
import sys

import click

from taskproto.cli.common import AppState, pass_state
from taskproto.clients.protocols import CLIENTS, KINDS
from taskproto.hooks.git.handlers import GIT_HOOKS
from taskproto.hooks.git.help import EXIT, HELP


@click.group("hook")
def hook_group() -> None:
    """Run a hook (installed hook scripts call these; `taskproto init` installs them).

    Git hooks take git's own arguments and input. They exit 1 with one line saying
    what was refused, why and what would allow it; on a branch that is no task's
    they do nothing.
    """


def _git_hook_command(name: str) -> click.Command:
    args, what = HELP[name]

    # -h and --help are the command's own (git never passes them to a hook); every other
    # argument is git's, handed on as it is
    @click.command(
        name,
        context_settings={"ignore_unknown_options": True},
        help=f"{what}\n\n{EXIT}",
        short_help=f"The git {name} hook (git's arguments follow).",
    )
    @click.argument("args", nargs=-1, type=click.UNPROCESSED, metavar=args)
    @pass_state
    @click.pass_context
    def run(ctx: click.Context, state: AppState, args: tuple[str, ...]) -> None:
        from taskproto.hooks.git.handlers import main

        code = main([name, *args], root=state.root, cwd=str(state.cwd) if state.cwd else None)
        ctx.exit(code)

    return run


def _client_command(client: str) -> click.Command:
    events = ", ".join(KINDS[client])

    @click.command(
        client,
        help=f"Answer a {client} hook call: EVENT is the client's event name ({events}); "
        "its hook JSON comes on stdin. What it prints (context for the model, or a tool call "
        "denied with the reason) and its exit status are what the client expects; "
        "docs/agents.md tells what each event does.",
        short_help=f"Answer a {client} hook call (EVENT; its JSON on stdin).",
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


for _name in GIT_HOOKS:
    hook_group.add_command(_git_hook_command(_name))
for _client in CLIENTS:
    hook_group.add_command(_client_command(_client))

COMMANDS = [hook_group]

"""`taskproto hook <name>`: run one hook by hand, the way an installed hook script runs it.

`hook_group` is a plain click Group: git hooks are added below, one command per
hook name; agent-client hooks (`hook claude`, ...) are added to the same group.
"""

from __future__ import annotations

import click

from taskproto.cli.common import AppState, pass_state
from taskproto.hooks.git.handlers import GIT_HOOKS


@click.group("hook")
def hook_group() -> None:
    """Run a hook (installed hook scripts call these; `taskproto init` installs them).

    Git hooks take git's own arguments and input. They exit 1 with one line saying
    what was refused, why and what would allow it; on a branch that is no task's
    they do nothing.
    """


def _git_hook_command(name: str) -> click.Command:
    @click.command(
        name,
        context_settings={"ignore_unknown_options": True},
        add_help_option=False,
        help=f"The git {name} hook (git's arguments follow).",
    )
    @click.argument("args", nargs=-1, type=click.UNPROCESSED)
    @pass_state
    @click.pass_context
    def run(ctx: click.Context, state: AppState, args: tuple[str, ...]) -> None:
        from taskproto.hooks.git.handlers import main

        code = main([name, *args], root=state.root, cwd=str(state.cwd) if state.cwd else None)
        ctx.exit(code)

    return run


for _name in GIT_HOOKS:
    hook_group.add_command(_git_hook_command(_name))

COMMANDS = [hook_group]

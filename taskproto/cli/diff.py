"""`taskproto diff`: a task branch (or an agent branch) against the task's base."""

from __future__ import annotations

import click

from taskproto.cli.common import AppState, emit, json_option, pass_state


@click.command("diff")
@click.argument("name")
@click.option("--agent", metavar="AGENT", help="The agent's branch instead of the task branch.")
@click.option("--stat", "stat", is_flag=True, help="Only the files and line counts.")
@json_option
@pass_state
def diff(state: AppState, name: str, agent: str | None, stat: bool, as_json: bool) -> None:
    """Show what task NAME changes: its branch against the commit it started from.

    Once the base branch was merged into the task (`taskproto update`), against the newest base
    commit it holds: the base's own changes are not shown as the task's.

    With --agent, that agent's branch instead. --stat lists the files with lines added and
    removed; --json gives the same as data (with --stat, without the patch text).
    """
    from taskproto.engine.diff import stat_text

    result = state.engine.diff(name, agent)
    data = result.summary()
    if not stat:
        data["patch"] = result.text

    def human() -> None:
        if stat or not result.files:
            width = max((len(f.path) for f in result.files), default=0)
            for f in result.files:
                counts = "binary" if f.binary else f"+{f.added} -{f.removed}"
                path = f"{f.old_path} -> {f.path}" if f.old_path else f.path
                click.echo(f" {f.status} {path:<{width}}  {counts}")
            click.echo(f"{result.base[:12]}..{result.head[:12]}: {stat_text(result.stat())}")
        else:
            click.echo(result.text, nl=False)
        if result.truncated:
            click.echo("(the diff was cut: it is too large to show whole)", err=True)

    emit(as_json, data, human)


COMMANDS = [diff]

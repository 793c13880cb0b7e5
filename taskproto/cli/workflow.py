"""`taskproto workflow list|show|validate`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from taskproto.cli.common import AppState, emit, json_option, pass_state
from taskproto.errors import TaskprotoError

if TYPE_CHECKING:
    from taskproto.config import Config


@click.group("workflow")
def workflow_group() -> None:
    """List, show and validate workflows (built-in and user-defined)."""


def _config(state: AppState) -> Config | None:
    """The repository's config, or None outside a repository (built-ins only)."""
    try:
        return state.engine.config
    except TaskprotoError:
        return None


@workflow_group.command("list")
@json_option
@pass_state
def workflow_list(state: AppState, as_json: bool) -> None:
    """List the available workflows: built-in and this repository's own."""
    from taskproto.machine.registry import builtin_names, get_workflow, workflow_names

    config = _config(state)
    builtins = set(builtin_names())
    rows = []
    for n in workflow_names(config):
        try:
            rows.append(
                {
                    "name": n,
                    "source": "builtin" if n in builtins else "user",
                    "description": get_workflow(n, config).description,
                }
            )
        except TaskprotoError as exc:  # a broken user workflow is listed with its problem
            rows.append(
                {"name": n, "source": "user", "description": "", "error": str(exc).splitlines()[0]}
            )

    def human() -> None:
        for r in rows:
            click.echo(f"{r['name']:<16} {r['source']:<8} {r.get('error') or r['description']}")

    emit(as_json, rows, human)


@workflow_group.command("show")
@click.argument("name")
@click.option("--mermaid", is_flag=True, help="Print a Mermaid state diagram.")
@json_option
@pass_state
def workflow_show(state: AppState, name: str, mermaid: bool, as_json: bool) -> None:
    """Show workflow NAME: states, transitions and guards."""
    from taskproto.machine.registry import get_workflow
    from taskproto.machine.workflow import describe, to_mermaid

    wf = get_workflow(name, _config(state))
    if mermaid:
        click.echo(to_mermaid(wf), nl=False)
        return

    def human() -> None:
        click.echo(f"{wf.name}: {wf.description}")
        click.echo(f"initial state: {wf.initial}")
        for s in wf.states:
            flags = [
                f
                for f, on in (
                    ("commits", s.allows_commits),
                    ("edits", s.allows_edits),
                    ("checkpoint", s.checkpoint),
                    ("terminal", s.terminal),
                )
                if on
            ]
            click.echo(f"  {s.name:<24} {', '.join(flags)}")
        click.echo("transitions:")
        for t in wf.transitions:
            guards = f"  [guards: {', '.join(t.guards)}]" if t.guards else ""
            click.echo(f"  {'|'.join(t.source):>24} -> {t.dest:<24} {t.trigger}{guards}")

    emit(as_json, describe(wf), human)


@workflow_group.command("validate")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@json_option
def workflow_validate(path: Path, as_json: bool) -> None:
    """Check the workflow file PATH (TOML) without installing it.

    Every problem is listed with the file and its key; exit 1 when there is any.
    """
    from taskproto.machine.registry import load_file

    wf = load_file(path)
    emit(
        as_json,
        {
            "file": str(path.absolute()),
            "name": wf.name,
            "valid": True,
            "states": len(wf.states),
            "transitions": len(wf.transitions),
        },
        lambda: click.echo(
            f"{path}: workflow {wf.name} is valid "
            f"({len(wf.states)} states, {len(wf.transitions)} transitions)"
        ),
    )


COMMANDS = [workflow_group]

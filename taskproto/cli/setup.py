"""`taskproto init` and `taskproto demo`."""

from __future__ import annotations

import click

from taskproto.cli.common import AppState, emit, json_option, pass_state


@click.command("init")
@json_option
@pass_state
def init(state: AppState, as_json: bool) -> None:
    """Prepare this repository: create taskproto's folder and keep it out of git."""
    from taskproto.config import ensure_root

    engine = state.engine
    ensure_root(engine.config)
    data = {"repo": str(engine.config.repo), "root": str(engine.config.root)}
    emit(as_json, data, lambda: click.echo(f"taskproto ready in {engine.config.repo} (state in {engine.config.root})"))


@click.command("demo")
@click.option("--dir", "directory", type=click.Path(file_okay=False), help="Make the demo repository here (default: a temporary folder).")
@click.option("--keep", is_flag=True, help="Keep the temporary repository afterwards.")
def demo(directory: str | None, keep: bool) -> None:
    """Walk one task through the task-protocol workflow in a throwaway repository."""
    from taskproto.demo import run

    run(directory, keep)


COMMANDS = [init, demo]

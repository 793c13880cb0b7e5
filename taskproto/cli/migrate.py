"""`taskproto migrate`: task.json files to this taskproto's schema, or back (`--down`)."""

from __future__ import annotations

import click

from taskproto.cli.common import AppState, emit, flush_warnings, json_option, pass_state


@click.command("migrate")
@click.option(
    "--down",
    is_flag=True,
    help="Write every task.json as schema 1 again (the whole log in it), for an older taskproto.",
)
@json_option
@pass_state
def migrate(state: AppState, down: bool, as_json: bool) -> None:
    """Move every task.json to the schema this taskproto writes (2: the log's last entries in
    task.json, all of them in the journal), each as one journaled change.

    A task moves up at its next change anyway; this does them all now. --down rebuilds each
    log whole from the journal and writes schema 1, which an older taskproto reads. The
    user's alone.
    """
    from taskproto.engine.migrate import migrate as run

    results = run(state.engine, down, state.session_id())
    flush_warnings(state)
    emit(
        as_json,
        [{"task": name, "result": result} for name, result in results],
        lambda: click.echo(
            "\n".join(f"{name}: {result}" for name, result in results) or "no tasks"
        ),
    )
    if any(result.startswith("skipped") for _, result in results):
        raise click.exceptions.Exit(1)


COMMANDS = [migrate]

"""`taskproto log`: a task's transition log, read from its journal."""

from __future__ import annotations

import click

from taskproto.cli.common import AppState, emit, json_option, pass_state


@click.command("log")
@click.argument("name")
@json_option
@pass_state
def log(state: AppState, name: str, as_json: bool) -> None:
    """Print task NAME's transition log, read from its journal in git."""
    from taskproto.names import task_name
    from taskproto.state import journal

    engine = state.engine
    task_name(name)
    ref, entries = journal.transition_log(engine.repo, name)

    def human() -> None:
        for e in entries:
            frm = e.get("from") or "-"
            extra = f"  ({e['note']})" if e.get("note") else ""
            forced = " FORCED" if e.get("forced") else ""
            click.echo(
                f"{e['time'][:19]}Z  {e['kind']:<10} {frm:>22} -> {e['to']:<22} {e['trigger']:<24}"
                f" {e.get('session') or '-'}{forced}{extra}"
            )

    emit(as_json, {"task": name, "ref": ref, "entries": entries}, human)


COMMANDS = [log]

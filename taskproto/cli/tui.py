"""`taskproto tui`: the terminal UI (docs/tui.md), on Textual (`pip install 'taskproto[tui]'`)."""

from __future__ import annotations

import click

from taskproto.cli.common import AppState, pass_state
from taskproto.errors import TaskprotoError


@click.command("tui")
@pass_state
def tui(state: AppState) -> None:
    """A terminal UI over this repository's tasks: the inbox on top, the tasks by state (rows,
    or with c columns per state as the board's), the selected task's agents and diff; keys a
    (approve the head shown), r (revise with a message), u (resume), n (next), l (land), s
    (start an agent: AGENT CLIENT), x (stop one), t (attach to one), c (rows/columns), q
    (quit). Live: a change from any command shows within a tenth of a second. Works over SSH
    (a terminal is all it needs)."""
    try:
        from taskproto.tui.app import TaskprotoApp
    except ImportError:
        raise TaskprotoError("taskproto tui needs Textual: pip install 'taskproto[tui]'") from None
    engine = state.engine
    engine.require_user("the terminal UI")
    session = state.session_id() or f"tui:{_user()}"
    TaskprotoApp(engine, session).run()


def _user() -> str:
    import getpass

    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "user"


COMMANDS = [tui]

"""`taskproto whoami`: the session taskproto would use here, where it came from, what it owns."""

from __future__ import annotations

from typing import Any

import click

from taskproto.cli.common import AppState, emit, json_option, pass_state


@click.command("whoami")
@json_option
@pass_state
def whoami(state: AppState, as_json: bool) -> None:
    """Say which session taskproto would use here, and why.

    The session is --session, else $TASKPROTO_SESSION (an agent client's SessionStart hook
    sets it for its agent), else your terminal's: the shell that leads the terminal, so a
    claim lives as long as that shell. Also: the pid a claim would record and whether it is
    alive, whether this process runs for an agent (and which client), the host, and the
    tasks of this repository the session owns.
    """
    from taskproto.clients.detect import agent_client
    from taskproto.sessions import hostname, pid_alive

    found = state.resolved()
    pid, pid_from = found.owner_pid(None)
    agent = agent_client()
    data: dict[str, Any] = {
        "session": found.session,
        "from": found.origin,
        "why_none": found.why_none,
        "terminal": found.terminal.tty if found.terminal else None,
        "pid": pid,
        "pid_from": pid_from,
        "pid_alive": pid_alive(pid) if pid is not None else None,
        "agent": agent is not None,
        "client": agent[0] if agent else None,
        "agent_why": agent[1] if agent else None,
        "host": hostname(),
        "tasks": _owned(state, found.session),
    }

    def human() -> None:
        if data["session"] is None:
            click.echo(f"session   none: {data['why_none']}")
            click.echo("          pass `taskproto --session ID COMMAND` or set TASKPROTO_SESSION")
        else:
            click.echo(f"session   {data['session']} (from {data['from']})")
        if pid is None:
            click.echo("pid       none: only the heartbeat can show the session gone")
        else:
            alive = "alive" if data["pid_alive"] else "not running"
            click.echo(f"pid       {pid} ({pid_from}; {alive})")
        click.echo(f"agent     {f'yes, {agent[0]}: {agent[1]}' if agent else 'no'}")
        click.echo(f"host      {data['host']}")
        tasks = data["tasks"]
        if tasks is None:
            click.echo("tasks     - (not in a repository)")
        else:
            owned = ", ".join(f"{t['task']} ({t['state']})" for t in tasks)
            click.echo(f"tasks     {owned or 'none'}")

    emit(as_json, data, human)


def _owned(state: AppState, session: str | None) -> list[dict[str, Any]] | None:
    """The tasks of this repository `session` owns; None outside a repository."""
    from taskproto import plainjson
    from taskproto.config import load_config
    from taskproto.errors import TaskprotoError
    from taskproto.state.light import read_bytes, read_task

    try:
        layout = load_config(state.cwd, state.root).layout
    except TaskprotoError:
        return None
    owned = []
    needle = plainjson.dumps(session).encode()
    for name in layout.task_names() if session else []:
        data, _ = read_bytes(layout.task_file(name))
        if data is not None and needle not in data:
            continue  # not this session's: its journal is not read (a git process when packed)
        view = read_task(layout, name)
        if view.owner_session == session:
            owned.append({"task": name, "state": view.state, "error": view.error})
    return owned


COMMANDS = [whoami]

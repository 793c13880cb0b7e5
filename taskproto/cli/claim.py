"""`taskproto claim|release|heartbeat`."""

from __future__ import annotations

import click

from taskproto.cli.common import AppState, emit, flush_warnings, json_option, pass_state


@click.command("claim")
@click.argument("name", required=False)
@click.option(
    "--pid",
    type=int,
    help="Pid of a process that lives as long as the session (default $TASKPROTO_SESSION_PID, "
    "else the shell of your terminal when the session is the terminal's).",
)
@click.option(
    "--force",
    is_flag=True,
    help="Take the task from a live owner, or while it waits for others (logged; the user's).",
)
@json_option
@pass_state
def claim(state: AppState, name: str | None, pid: int | None, force: bool, as_json: bool) -> None:
    """Claim task NAME for this session, or the most urgent ready task when NAME is omitted.

    The ready queue (`taskproto ready`): priority, then age; with a shared remote it is the
    remote's (synced first). A task that waits for others is refused, naming them, unless
    --force (the user's, logged). A task owned by another session is refused with who owns it
    and since when,
    unless that owner is provably gone (its process died on this host, or its
    heartbeat is older than the lease); then the takeover is logged.
    """
    engine = state.engine
    session = state.session_id()
    owner_pid = state.owner_pid(pid)
    result = (
        engine.claim(name, session, owner_pid, force)
        if name
        else engine.claim_next(session, owner_pid)
    )
    flush_warnings(state)
    prev = result.previous
    # the claim's own entries: a task that waited starts from the code it waited for
    log = result.task.transition_log
    started = (
        next((e.note for e in reversed(log[-2:]) if e.trigger == "start_point"), None)
        if result.outcome != "renewed"
        else None
    )
    data = {
        "task": result.task.name,
        "state": result.task.state,
        "session": session,
        "outcome": result.outcome,
        "previous_owner": prev.session if prev else None,
        "reason": result.reason,
        "started_from": result.task.base if started else None,
    }

    def human() -> None:
        msg = {
            "claimed": "claimed",
            "renewed": "already yours; heartbeat renewed",
            "takeover": f"taken over from {prev.session if prev else '?'} ({result.reason})",
            "forced": f"taken over by force from {prev.session if prev else '?'}",
        }[result.outcome]
        click.echo(f"task {result.task.name} ({result.task.state}): {msg}")
        if started:
            click.echo(f"  {started}")

    emit(as_json, data, human)


@click.command("release")
@click.argument("name")
@click.option("--force", is_flag=True, help="Release a task owned by another session (logged).")
@json_option
@pass_state
def release(state: AppState, name: str, force: bool, as_json: bool) -> None:
    """Release this session's claim on task NAME.

    With a shared remote, a task not claimed here is looked up there first: a claim this clone
    has not synced yet is named (whose, and to run `taskproto sync`), and nothing is written.
    """
    task = state.engine.release(name, state.session_id(), force)
    flush_warnings(state)
    emit(
        as_json,
        {"task": name, "state": task.state, "owner": None},
        lambda: click.echo(f"released task {name} ({task.state})"),
    )


@click.command("heartbeat")
@click.argument("name")
@json_option
@pass_state
def heartbeat(state: AppState, name: str, as_json: bool) -> None:
    """Renew this session's claim on task NAME (hooks do this as a side effect).

    Outside any repository, the repository of the session's own task NAME (the session
    registry, written by `claim`), as the client's hooks find it."""
    session = state.session_id()
    if state.cwd is None:
        _registered(state, name, session)
    task = state.engine.heartbeat(name, session)
    flush_warnings(state)
    assert task.owner is not None
    beat = task.owner.heartbeat_at
    emit(
        as_json,
        {
            "task": name,
            "heartbeat_at": beat.isoformat(),
            "set_aside": state.engine.beats_kept.get(name),  # a half-written file, kept
        },
        lambda: click.echo(f"heartbeat {name}: {beat:%H:%M:%S}Z"),
    )


def _registered(state: AppState, name: str, session: str | None) -> None:
    """Run in the repository the session registry names for `session`'s task `name` when the
    working folder is in no repository: a session renews its claim wherever its shell is."""
    import os
    from pathlib import Path

    from taskproto.git.files import find_repo
    from taskproto.state import registry

    try:
        outside = find_repo(os.getcwd()) is None
    except OSError:  # the working folder was deleted
        outside = True
    entry = registry.lookup(session or "") if outside else None
    if entry is not None and entry["task"] == name:
        state.cwd, state.root = Path(entry["main"]), state.root or entry["root"]


COMMANDS = [claim, release, heartbeat]

"""`taskproto queue add|list|remove|run`: the merge queue (ops/queue.py; the user's)."""

from __future__ import annotations

import click

from taskproto.cli.common import AppState, emit, flush_warnings, json_option, pass_state


@click.group("queue")
def queue() -> None:
    """The merge queue: approved tasks landed one at a time, each exactly once (docs/landing.md).

    With taskproto's shared remote set, the queue is the remote's and any machine runs it.
    """


@queue.command("add")
@click.argument("name")
@json_option
@pass_state
def add(state: AppState, name: str, as_json: bool) -> None:
    """Queue task NAME: approved (its head is the approved commit) and in COMPLETE."""
    from taskproto.ops import queue as queueing

    entry = queueing.add(state.engine, name, state.session_id())
    flush_warnings(state)
    emit(
        as_json,
        entry.as_json(),
        lambda: click.echo(
            f"{name}: queued {str(entry.data['approved'])[:12]} for {entry.data['base_branch']}"
        ),
    )


@queue.command("list")
@json_option
@pass_state
def list_(state: AppState, as_json: bool) -> None:
    """The queue, oldest first: each task, its approved commit, whether a worker holds it, and
    whether it waits for git's lock of its journal ref (a killed git's leftover)."""
    from taskproto.ops import queue as queueing
    from taskproto.ops import queue_locks

    entries = queueing.Queue(state.engine).entries()
    locks = {e.task: queue_locks.listed(state.engine, e.task) for e in entries}

    def human() -> None:
        if not entries:
            click.echo("the queue is empty")
        for e in entries:
            taken, lock = e.taken, locks[e.task]
            who = f" by {taken.get('host')}:{taken.get('pid')}" if taken else ""
            click.echo(
                f"{e.task}  {str(e.data.get('approved'))[:12]}  {e.data.get('base_branch')}  "
                f"{e.status()}{who}  added {str(e.data.get('added_at'))[:19]}"
                + (f"  {lock[0]}" if lock else "")
            )

    def data(e: queueing.Entry) -> dict[str, object]:
        lock = locks[e.task]
        return {**e.as_json(), **({"journal_lock": lock[1]} if lock else {})}

    emit(as_json, [data(e) for e in entries], human)


@queue.command("remove")
@click.argument("name")
@json_option
@pass_state
def remove(state: AppState, name: str, as_json: bool) -> None:
    """Take task NAME out of the queue (refused while a worker is landing it)."""
    from taskproto.ops import queue as queueing

    entry = queueing.remove(state.engine, name)
    emit(as_json, entry.as_json(), lambda: click.echo(f"{name}: removed from the queue"))


@queue.command("run")
@click.option(
    "--once",
    is_flag=True,
    help="Take one task only (default: until none is left), and never wait for a journal ref's "
    "lock.",
)
@json_option
@pass_state
def run(state: AppState, once: bool, as_json: bool) -> None:
    """Land the queue: take its oldest free task, merge it onto the base's head, run `[land]
    checks` (.taskproto.toml) in a throwaway worktree, and land it when they pass and the change is
    the approved one; otherwise send it back to its agent (a conflict, the checks' output) or for
    approval again. A task whose journal ref git has locked waits in the queue (reported as
    `waiting`, with the lock's age) until the lock goes or is a minute old, when the worker
    deletes it as `doctor --fix` does; with nothing else to take, a run without --once waits for
    it. Exit 0 when the queue has nothing left to take."""
    from taskproto.ops import queue as queueing
    from taskproto.ops import queue_locks

    outcomes: list[queueing.Outcome | queue_locks.Waiting] = []
    waiting: dict[str, queue_locks.Waiting] = {}

    def report(item: queueing.Outcome | queue_locks.Waiting, result: str) -> None:
        outcomes.append(item)
        if not as_json:
            click.echo(f"{item.task}: {result}: {item.detail}")

    while True:
        outcome = queueing.run_once(state.engine, state.session_id(), waiting)
        for w in waiting.values():  # each reported once a run, when first seen
            if not any(isinstance(o, queue_locks.Waiting) and o.task == w.task for o in outcomes):
                report(w, "waiting")
        if outcome is None:
            if once or not queue_locks.wait(waiting):
                break
            continue
        report(outcome, outcome.result)
        if once:
            break
    flush_warnings(state)
    if as_json:
        emit(True, [o.as_json() for o in outcomes], lambda: None)
    elif not outcomes:
        click.echo("the queue has nothing to take")


COMMANDS = [queue]

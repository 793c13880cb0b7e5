"""`taskproto inbox` (what waits for you) and `taskproto notify flush` (send the outbox):
docs/notifications.md."""

from __future__ import annotations

from typing import Any

import click

from taskproto.cli.common import AppState, emit, json_option, pass_state


def _deliver(state: AppState, wait: bool) -> Any:
    from taskproto.ops import notify

    return notify.flush(state.engine.config.layout, wait=wait)


@click.command("inbox")
@click.option(
    "--all",
    "everywhere",
    is_flag=True,
    help="Every repository registered on this machine (`taskproto init` registers one), "
    "not only this one.",
)
@json_option
@pass_state
def inbox(state: AppState, everywhere: bool, as_json: bool) -> None:
    """List what waits for you: approvals, answered revisions, stale approvals, questions,
    escalations, agents past their retries, merge conflicts; each with the command that acts
    on it.

    An approval names the head it is of: `approve --commit` refuses a head that has moved
    since. Undelivered notifications of this repository are sent on the way (`notify flush`).
    """
    from taskproto.ops import inbox as box

    problems: list[str] = []
    if everywhere:
        from taskproto.layout import find_layout

        here = find_layout(str(state.cwd) if state.cwd else ".", state.root)
        found, problems = box.everywhere(here)
    else:
        layout = state.engine.config.layout
        found = box.items(layout)
        from taskproto.engine import attention

        attention.deliver_detached(layout)  # what is still unsent, off this command's path
    for problem in problems:
        click.echo(f"taskproto: warning: {problem}", err=True)

    def human() -> None:
        if not found:
            click.echo("nothing waits for you")
            return
        repo = None
        for item in found:
            if everywhere and item["repository"] != repo:
                repo = item["repository"]
                click.echo(f"{repo}:")
            click.echo(
                f"{'  ' if everywhere else ''}{item['task']}  {item['reason']}: {item['text']}"
            )
            click.echo(f"{'  ' if everywhere else ''}  -> {item['command']}")

    emit(as_json, {"items": found, "problems": problems}, human)


@click.group("notify")
def notify() -> None:
    """Notifications: the outbox of events that need you, sent to the [notify] channels."""


@notify.command("flush")
@click.option(
    "--background",
    is_flag=True,
    help="Do not wait for a flush already running (what the detached delivery runs).",
)
@json_option
@pass_state
def flush(state: AppState, background: bool, as_json: bool) -> None:
    """Send every event of the outbox not yet delivered to each configured channel.

    A channel that fails keeps its events for the next flush; one that took an event never
    gets it again. Exits 1 when a channel failed.
    """
    _report(_deliver(state, wait=not background), as_json)


def _report(report: Any, as_json: bool) -> None:
    def human() -> None:
        if not report.channels:
            click.echo("no notification channel is set: see [notify] in docs/notifications.md")
            return
        click.echo(f"delivered {len(report.delivered)}, failed {len(report.failed)}")
        for event, channel, error in report.failed:
            click.echo(f"  {channel}: {event}: {error}")

    emit(as_json, report.as_json(), human)
    if report.failed:
        raise click.exceptions.Exit(1)


@notify.command("test")
@json_option
@pass_state
def test(state: AppState, as_json: bool) -> None:
    """Send a made-up event to every configured channel now, to check the [notify] settings
    (the outbox is not touched). Exits 1 when a channel failed."""
    from taskproto.ops import notify as sending

    report = sending.send_test(state.engine.config.layout)
    _report(report, as_json)


@notify.command("list")
@json_option
@pass_state
def listing(state: AppState, as_json: bool) -> None:
    """List the outbox's events, oldest first."""
    from taskproto.ops import notify as sending

    found = sending.events(state.engine.config.layout)

    def human() -> None:
        for event in found:
            where = f"{event.get('time')}  {event.get('task')}"
            click.echo(f"{where}  {event.get('reason')}: {event.get('text')}")

    emit(as_json, {"events": found}, human)


COMMANDS = [inbox, notify]

"""`taskproto task list --watch`: the board's information in the terminal, redrawn on each change.

The same cards as the board (snapshot.py) and the same watcher (file-system notifications, not a
timer); relative times are redrawn every few seconds as well.
"""

from __future__ import annotations

import sys
import time
from datetime import UTC, datetime
from typing import Any

import click

from taskproto.cli.render import NO_TASKS
from taskproto.config import Config

REDRAW_EVERY = 5.0  # seconds: heartbeat ages move even when no file does
DOCTOR_EVERY = 60.0  # doctor's findings are refreshed at most this often (as on the board)


def _ago(iso: str | None, now: datetime) -> str:
    if not iso:
        return "-"
    seconds = max(0, int((now - datetime.fromisoformat(iso)).total_seconds()))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m"
    return f"{seconds // 3600}h"


def _run(run: dict[str, Any] | None) -> str:
    """What `taskproto agent start`'s run of an agent is doing (board/agents_view.py)."""
    if run is None:
        return ""
    pid = f", pid {run['pid']}" if run["pid"] else ""
    return f" [{run['state']}: {run['client']} {run['mode']}{pid}]"


def frame(data: dict[str, Any], color: bool) -> list[str]:
    """The lines of one screen: a line per task, then its agents and sessions indented."""
    now = datetime.now(UTC)

    def style(text: str, **kw: Any) -> str:
        return click.style(text, **kw) if color else text

    lines = [
        style(f"taskproto tasks — {now:%H:%M:%S}Z — {len(data['tasks'])} task(s)", bold=True)
        + "  (Ctrl-C to stop)"
    ]
    if not data["tasks"]:
        lines.append(NO_TASKS)
    width = max([len(t["name"]) for t in data["tasks"]] + [4])
    for t in data["tasks"]:
        if "error" in t:
            lines.append(f"{t['name']:<{width}}  " + style(f"BROKEN  {t['error']}", fg="red"))
            continue
        owner = t["owner"]
        who = (
            f"owner {owner['session']} (beat {_ago(owner['heartbeat_at'], now)} ago)"
            + (" GONE" if owner["gone"] else "")
            if owner
            else "free"
        )
        flags = []
        if t["waiting_for"]:
            flags.append(style(f"waits for {t['waiting_for']}", fg="magenta", bold=True))
        if t["stale_approval"]:
            flags.append(style("stale approval", fg="yellow"))
        if t["interruption"]:
            flags.append(style(f"interrupted ({t['interruption']['type']})", fg="blue"))
        flags += [style(f"doctor: {f['check']}", fg="yellow") for f in t["findings"]]
        lines.append(
            f"{t['name']:<{width}}  {t['state']:<22} {who}"
            + (f"  [{', '.join(flags)}]" if flags else "")
        )
        agents = ", ".join(f"{a['name']} {a['status']}{_run(a.get('run'))}" for a in t["agents"])
        if agents:
            lines.append(f"{'':<{width}}    agents: {agents}")
        for s in t["sessions"]:
            where = s["agent"] or ("owner" if s["owner"] else "")
            lines.append(
                f"{'':<{width}}    {s['status']:<8} {s['client']} {where} "
                f"({s['event']}, {_ago(s['time'], now)} ago)"
            )
    return lines


def watch_tasks(config: Config) -> None:
    """Redraw on every change (and every few seconds) until Ctrl-C."""
    import watchfiles

    from taskproto.board import snapshot
    from taskproto.board.cards import Cards
    from taskproto.board.watch import classify, polling, watched
    from taskproto.doctor import run
    from taskproto.engine import Engine

    tty = sys.stdout.isatty()
    stop = False
    report: dict[str, Any] | None = None
    checked = 0.0
    kept = Cards()  # a redraw reads again only the tasks that changed
    polls = polling(config)  # on a shared file system another machine's changes: board.md
    while not stop:
        if time.monotonic() - checked >= DOCTOR_EVERY:
            report, checked = run(config).as_json(), time.monotonic()
        data = snapshot.board(Engine(config), report, kept=kept)
        if tty:
            click.echo("\x1b[H\x1b[2J", nl=False)
        click.echo("\n".join(frame(data, color=tty)))
        if not tty:
            click.echo("")  # frames are separated by a blank line when piped
        sys.stdout.flush()
        folders = watched(config)
        deadline = time.monotonic() + REDRAW_EVERY
        try:
            for batch in watchfiles.watch(
                *folders,
                recursive=False,
                debounce=150,
                step=50,
                rust_timeout=1000,
                yield_on_timeout=True,
                force_polling=polls,
                raise_interrupt=False,
            ):
                change, rebuild = classify(config, (p for _, p in batch))
                if change or rebuild or time.monotonic() >= deadline:
                    break
            else:
                stop = True  # interrupted (Ctrl-C)
        except KeyboardInterrupt:
            stop = True

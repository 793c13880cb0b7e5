"""Delivering the notification outbox (engine/attention.py writes it) to the user's channels.

The channels are the `[notify]` tables of the user's config (`$XDG_CONFIG_HOME/taskproto/
config.toml`, else `~/.config/...`) and of the repository's settings (`.taskproto.toml`), the
repository's keys winning: `command` (the event on stdin), `webhook` (a POST of JSON:
`format` "json", "slack" or "ntfy"), `desktop` (notify-send, or osascript on macOS). Each event is
sent once per channel: a delivery is appended to `<root>/notify/delivered.jsonl` only after the
channel took it, so a channel that failed gets the event at the next flush, and one that took it
never again. One flush runs at a time (`<root>/notify/flush.lock`).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import urllib.request
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from taskproto.engine import attention
from taskproto.errors import TaskprotoError
from taskproto.layout import Layout

DELIVERED = "delivered.jsonl"
TIMEOUT = 10.0  # seconds a command or a webhook may take
MAX_AGE = timedelta(days=1)  # an event older than this is not sent any more (a channel set later)
FORMATS = ("json", "slack", "ntfy")


@dataclass
class Report:
    """What one flush did: (event id, channel) delivered, and the failures with their reasons."""

    channels: list[str]
    delivered: list[tuple[str, str]] = field(default_factory=list)
    failed: list[tuple[str, str, str]] = field(default_factory=list)
    busy: bool = False  # another flush held the lock (background flushes do not wait)
    trimmed: dict[str, int] = field(default_factory=dict)  # past the bounds: ops/notify_trim.py

    def as_json(self) -> dict[str, Any]:
        return {
            "channels": self.channels,
            "delivered": [{"id": i, "channel": c} for i, c in self.delivered],
            "failed": [{"id": i, "channel": c, "error": e} for i, c, e in self.failed],
            "busy": self.busy,
            "trimmed": self.trimmed,
        }


def user_config_file() -> str:
    home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(home, "taskproto", "config.toml")


def _table(path: str, section: bool = False) -> dict[str, Any]:
    import tomllib

    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        return {}
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise TaskprotoError(f"{path}: not valid TOML ({exc}); fix the file") from None
    if section:
        data = data.get("tool", {}).get("taskproto", {})
    found = data.get("notify", {})
    if not isinstance(found, dict):
        raise TaskprotoError(f"{path}: [notify] must be a table")
    return found


def settings(layout: Layout) -> dict[str, Any]:
    """The `[notify]` settings: the user's, then the repository's over them."""
    merged = dict(_table(user_config_file()))
    repo = os.path.join(layout.main, ".taskproto.toml")
    merged.update(
        _table(repo)
        if os.path.exists(repo)
        else _table(os.path.join(layout.main, "pyproject.toml"), True)
    )
    fmt = merged.get("format", "json")
    if fmt not in FORMATS:
        raise TaskprotoError(f"[notify] format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    return merged


def channels(conf: dict[str, Any]) -> list[str]:
    found = []
    if conf.get("command"):
        found.append("command")
    if conf.get("webhook"):
        found.append("webhook")
    if conf.get("desktop") is True:
        found.append("desktop")
    return found


BOARD_FILE = "board-address.json"  # in <root>: a running board's address, never its token


def publish_board(layout: Layout, url: str) -> str | None:
    """Record a running board's address (`http://host:port`, no token) for the events' links;
    the file's path, for `withdraw_board`. Never fails the board: a repository with no task yet
    has no taskproto folder to hold it (its events have no link then)."""
    from taskproto.state.files import atomic_write

    path = os.path.join(layout.root, BOARD_FILE)
    if not os.path.isdir(layout.root):
        return None
    try:
        atomic_write(path, json.dumps({"url": url, "pid": os.getpid()}).encode())
    except TaskprotoError:
        return None
    return path


def withdraw_board(path: str) -> None:
    """Remove the address `publish_board` wrote, if it is still this process's."""
    try:
        with open(path, "rb") as fh:
            if json.loads(fh.read()).get("pid") == os.getpid():
                os.unlink(path)
    except (OSError, ValueError, AttributeError):
        pass


def board_url(layout: Layout, conf: dict[str, Any]) -> str | None:
    """The board's address for the links: `[notify] board` (a board run with a fixed --port,
    or behind your own proxy), else the board running now for this repository, else None."""
    fixed = conf.get("board")
    if fixed:
        url = str(fixed)
        if not url.startswith(("https://", "http://")):
            raise TaskprotoError(f"[notify] board must be an http(s) URL, not {url!r}")
        return url.rstrip("/")
    try:
        with open(os.path.join(layout.root, BOARD_FILE), "rb") as fh:
            found = json.loads(fh.read())
        os.kill(int(found["pid"]), 0)  # a board that is gone leaves no link
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    url = found.get("url")
    return str(url).rstrip("/") if isinstance(url, str) else None


def with_link(event: dict[str, Any], base: str | None) -> dict[str, Any]:
    """The event with `link`: the board's page of its task. The link carries no token: the
    board asks for it, or uses the cookie this browser already has (board/security.py)."""
    if base is None or not event.get("task"):
        return event
    from urllib.parse import quote

    return {**event, "link": f"{base}/tasks/{quote(str(event['task']), safe='')}"}


def title(event: dict[str, Any]) -> str:
    return f"taskproto: {event.get('task')} needs you ({event.get('reason')})"


def line(event: dict[str, Any]) -> str:
    where = f" (in {event['repository']})" if event.get("repository") else ""
    link = f" Board: {event['link']}" if event.get("link") else ""
    return f"{event.get('text')}. Run: {event.get('command')}{where}{link}"


def body(event: dict[str, Any], conf: dict[str, Any]) -> dict[str, Any]:
    """The webhook's JSON: Slack's incoming webhooks read `text`; ntfy's JSON publishing (POST to
    the server's root) reads `topic`, `title`, `message`; plain `json` is the event itself."""
    fmt = conf.get("format", "json")
    if fmt == "slack":
        return {"text": f"*{title(event)}*\n{line(event)}"}
    if fmt == "ntfy":
        published = {
            "topic": str(conf.get("topic") or "taskproto"),
            "title": title(event),
            "message": line(event),
            "tags": ["bell"],
        }
        if event.get("link"):
            published["click"] = event["link"]  # ntfy opens it when the notification is tapped
        return published
    return {**event, "title": title(event), "message": line(event)}


def _send(channel: str, event: dict[str, Any], conf: dict[str, Any]) -> None:
    """Deliver `event` to `channel`; raises OSError or ValueError with the reason on failure."""
    if channel == "command":
        proc = subprocess.run(  # the user's command line, as [worktree] setup runs its own
            ["sh", "-c", str(conf["command"])],
            input=json.dumps(event).encode() + b"\n",  # one line: `read` sees it
            capture_output=True,
            timeout=TIMEOUT,
            check=False,
        )
        if proc.returncode != 0:
            raise ValueError(f"exit status {proc.returncode}: {proc.stderr.decode()[-200:]}")
    elif channel == "webhook":
        url = str(conf["webhook"])
        if not url.startswith(("https://", "http://")):
            raise ValueError(f"the webhook {url!r} is not an http(s) URL")
        request = urllib.request.Request(
            url,
            data=json.dumps(body(event, conf)).encode(),
            headers={"Content-Type": "application/json", "User-Agent": "taskproto"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:  # noqa: S310 - http(s) checked
            response.read()
    elif channel == "desktop":
        if sys.platform == "darwin":
            text, head = json.dumps(line(event)), json.dumps(title(event))
            script = f"display notification {text} with title {head}"
            argv = ["osascript", "-e", script]
        else:
            if shutil.which("notify-send") is None:
                raise ValueError("notify-send is not on PATH")
            argv = ["notify-send", "--app-name=taskproto", title(event), line(event)]
        proc = subprocess.run(argv, capture_output=True, timeout=TIMEOUT, check=False)
        if proc.returncode != 0:
            raise ValueError(f"{argv[0]} exit status {proc.returncode}")


def _read_lines(path: str) -> list[dict[str, Any]]:
    from taskproto.ops.notify_trim import json_lines

    return [value for _, value in json_lines(path)]


def events(layout: Layout) -> list[dict[str, Any]]:
    """Every event in the outbox, oldest first."""
    return _read_lines(os.path.join(attention.folder(layout), attention.OUTBOX))


def flush(layout: Layout, wait: bool = True, now: datetime | None = None) -> Report:
    """Send every event of the outbox not yet delivered to each configured channel."""
    from taskproto.ops import notify_trim

    conf = settings(layout)
    notify_trim.bounds(conf)  # a bad bound is refused before anything is sent
    report = Report(channels(conf))
    base = attention.folder(layout)
    if not report.channels and not os.path.isdir(base):
        return report
    os.makedirs(base, exist_ok=True)
    with open(os.path.join(base, "flush.lock"), "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            report.busy = True
            return report
        _send_all(layout, conf, report, now)
        report.trimmed = notify_trim.trim(layout, conf, report.channels, now or datetime.now(UTC))
    return report


def _send_all(layout: Layout, conf: dict[str, Any], report: Report, now: datetime | None) -> None:
    """Every event not delivered to a channel, to that channel (flush.lock held)."""
    if report.channels:
        base = attention.folder(layout)
        done_path = os.path.join(base, DELIVERED)
        done = {(d.get("id"), d.get("channel")) for d in _read_lines(done_path)}
        oldest = (now or datetime.now(UTC)) - MAX_AGE
        down: set[str] = set()  # a channel that failed is not tried again in this flush
        base_url = board_url(layout, conf)
        for event in events(layout):
            if str(event.get("time") or "") < oldest.isoformat():
                continue
            event.setdefault("repository", layout.main)  # a channel of yours hears every one
            event = with_link(event, base_url)
            for channel in report.channels:
                if (event.get("id"), channel) in done:
                    continue
                if channel in down:
                    report.failed.append((str(event.get("id")), channel, "not tried: down"))
                    continue
                try:
                    _send(channel, event, conf)
                except (OSError, ValueError, subprocess.SubprocessError) as exc:
                    report.failed.append((str(event.get("id")), channel, str(exc)[:200]))
                    down.add(channel)
                    continue
                with open(done_path, "a", encoding="utf-8") as fh:
                    fh.write(json.dumps({"id": event.get("id"), "channel": channel}) + "\n")
                done.add((event.get("id"), channel))
                report.delivered.append((str(event.get("id")), channel))


def test_event(layout: Layout) -> dict[str, Any]:
    """A made-up event, for `notify test`: what the channels would get."""
    return {
        "id": "test",
        "task": "example",
        "state": "AWAITING_USER_APPROVAL",
        "reason": "test",
        "head": None,
        "about": "test",
        "key": "example|test|test",
        "text": f"a test of taskproto's notifications from {layout.main}",
        "command": "taskproto inbox",
        "time": datetime.now(UTC).isoformat(),
    }


def send_test(layout: Layout) -> Report:
    """Send a test event to every configured channel now; the outbox is not touched."""
    conf = settings(layout)
    report = Report(channels(conf))
    event = with_link(test_event(layout), board_url(layout, conf))
    for channel in report.channels:
        try:
            _send(channel, event, conf)
        except (OSError, ValueError, subprocess.SubprocessError) as exc:
            report.failed.append(("test", channel, str(exc)[:200]))
        else:
            report.delivered.append(("test", channel))
    return report

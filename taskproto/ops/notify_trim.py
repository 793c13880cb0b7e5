"""Keeping the notification outbox bounded: `<root>/notify/outbox.jsonl`, `delivered.jsonl` and
the `seen/` markers (engine/attention.py writes them, ops/notify.py sends them).

The bounds (docs/notifications.md), each settable in `[notify]`:

- an event older than `keep_days` (7) is dropped: past a day it is not sent any more anyway;
- past `keep` events (1000), the oldest that every configured channel took go first; only when
  that is not enough, the oldest not yet delivered (a channel down that long is past the bound);
- a `seen/` marker is removed when its key no longer waits for the user and it is older than
  `keep_days`, or, beyond `keep_markers` (5000), the oldest such first. A marker whose key still
  waits is never removed: that would notify it again.

Runs inside a flush, under `flush.lock` (no delivery is recorded meanwhile) and the outbox's
own lock (no event is appended meanwhile); each file is replaced atomically.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
from datetime import datetime, timedelta
from typing import Any

from taskproto.engine import attention
from taskproto.errors import TaskprotoError
from taskproto.layout import Layout
from taskproto.state.files import atomic_write

KEEP = 1000
KEEP_DAYS = 7
KEEP_MARKERS = 5000


def _bound(conf: dict[str, Any], key: str, default: int) -> int:
    value = conf.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise TaskprotoError(f"[notify] {key} must be a whole number of at least 1, not {value!r}")
    return value


def bounds(conf: dict[str, Any]) -> tuple[int, int, int]:
    """(keep, keep_days, keep_markers) from the `[notify]` settings."""
    return (
        _bound(conf, "keep", KEEP),
        _bound(conf, "keep_days", KEEP_DAYS),
        _bound(conf, "keep_markers", KEEP_MARKERS),
    )


def json_lines(path: str) -> list[tuple[bytes, dict[str, Any]]]:
    """Each JSON object line of a file (the outbox, the deliveries) with its bytes; a line cut by
    a crash is left out."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        return []
    out = []
    for raw in data.splitlines():
        try:
            value = json.loads(raw)
        except ValueError:
            continue  # a line cut by a crash: the rest stands (and a trim drops it)
        if isinstance(value, dict):
            out.append((raw, value))
    return out


def trim(
    layout: Layout, conf: dict[str, Any], channels: list[str], now: datetime
) -> dict[str, int]:
    """Drop what is past the bounds; how many events, deliveries and markers went. The caller
    holds `flush.lock`."""
    keep, days, markers = bounds(conf)
    oldest = (now - timedelta(days=days)).isoformat()
    base = attention.folder(layout)
    outbox = os.path.join(base, attention.OUTBOX)
    done_path = os.path.join(base, "delivered.jsonl")
    dropped = {"events": 0, "deliveries": 0, "markers": 0}
    with open(outbox + ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        events = json_lines(outbox)
        kept = [(raw, e) for raw, e in events if str(e.get("time") or "") >= oldest]
        if len(kept) > keep:
            done = {(d.get("id"), d.get("channel")) for _, d in json_lines(done_path)}
            taken = [
                n
                for n, (_, e) in enumerate(kept)
                if all((e.get("id"), c) in done for c in channels)
            ]
            first = set(taken[: len(kept) - keep])  # the oldest every channel took
            kept = [k for n, k in enumerate(kept) if n not in first]
            kept = kept[-keep:]  # still over: the oldest undelivered go too
        if len(kept) != len(events):
            dropped["events"] = len(events) - len(kept)
            atomic_write(outbox, b"".join(raw + b"\n" for raw, _ in kept))
    ids = {e.get("id") for _, e in kept}
    deliveries = json_lines(done_path)
    left = [(raw, d) for raw, d in deliveries if d.get("id") in ids]
    if len(left) != len(deliveries):
        dropped["deliveries"] = len(deliveries) - len(left)
        atomic_write(done_path, b"".join(raw + b"\n" for raw, _ in left))
    dropped["markers"] = _trim_markers(layout, now.timestamp() - days * 86400, markers)
    return dropped


def _trim_markers(layout: Layout, before: float, keep: int) -> int:
    folder = os.path.join(attention.folder(layout), attention.SEEN)
    try:
        entries = [(e.stat().st_mtime, e.name, e.path) for e in os.scandir(folder)]
    except FileNotFoundError:
        return 0
    if len(entries) <= keep and not any(mtime < before for mtime, _, _ in entries):
        return 0
    from taskproto.ops import inbox

    waiting = {hashlib.sha1(i["key"].encode()).hexdigest() for i in inbox.items(layout)}
    candidates = sorted(e for e in entries if e[1] not in waiting)
    over = len(entries) - keep
    removed = 0
    for n, (mtime, _, path) in enumerate(candidates):
        if mtime < before or n < over:
            try:
                os.unlink(path)
            except FileNotFoundError:
                continue
            removed += 1
    return removed

"""Whether an agent taskproto runs has stalled (`[agents] stall_minutes` in `.taskproto.toml`; no
limit when unset): nothing from its hooks (`<root>/activity/<session>*`, hooks/agents/activity.py)
for that long and, for an interactive agent, no change of its tmux pane either. An interactive
agent whose last hook call says it waits for its user (a permission prompt, or its turn ended)
has not stalled: it may rightly wait that long. The supervisor (ops/supervisor.py) asks at every
look and kills a stalled agent, which it then restarts as a crash, within the retry budget."""

from __future__ import annotations

import glob
import hashlib
import time

from taskproto.clients.protocols import IDLE, WAITING, activity_status
from taskproto.errors import TaskprotoError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.config import Config

PANE_EVERY = 5.0  # seconds between two captures of a pane, at most (a tmux process each)


def stall_minutes(config: Config) -> float | None:
    """`[agents] stall_minutes` (None: no limit)."""
    section = config.raw.get("agents", {})
    value = section.get("stall_minutes") if isinstance(section, dict) else None
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        return None
    return float(value)


class Stalls:
    """What the supervisor last saw of each interactive agent's pane, and since when."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.minutes = stall_minutes(config)
        self.panes: dict[tuple[str, str], tuple[str, float, float]] = {}  # digest, changed, looked

    def reload(self, config: Config) -> None:
        self.config, self.minutes = config, stall_minutes(config)

    def forget(self, task: str, agent: str) -> None:
        """A new start: its pane is a new one."""
        self.panes.pop((task, agent), None)

    def stalled(self, record: dict[str, Any]) -> bool:
        if self.minutes is None:
            return False
        limit = self.minutes * 60
        now = time.time()
        last, event = self.hooks(record)
        if not record.get("headless"):
            if event is not None and activity_status(event) in (IDLE, WAITING):
                return False  # it waits for its user
            if now - last > limit:  # only then is the pane looked at
                last = max(last, self.pane_changed(record, now, min(PANE_EVERY, limit / 4)))
        return now - last > limit

    def hooks(self, record: dict[str, Any]) -> tuple[float, str | None]:
        """When the agent's hooks last reported (its start, if never since), and their last
        event (None: none since the start). Only its sessions' records are looked at."""
        from taskproto import plainjson as json

        last: float = record.get("started_at") or 0.0
        newest = None
        folder = self.config.root / "activity"  # <session>.json, <session>.sh, <session>+N.sh
        for session in (record["session"], record.get("client_session")):
            for found in folder.glob(f"{glob.escape(session)}[.+]*") if session else ():
                try:
                    mtime = found.stat().st_mtime
                except OSError:
                    continue
                if mtime > last:
                    last, newest = mtime, found
        if newest is None:
            return last, None
        try:
            data = json.loads(newest.read_bytes()[:8192])
        except (OSError, ValueError):
            return last, None
        event = data.get("event") if isinstance(data, dict) else None
        return last, event if isinstance(event, str) else None

    def pane_changed(self, record: dict[str, Any], now: float, every: float) -> float:
        """When the agent's pane last changed, as far as the supervisor saw."""
        key = (record["task"], record["agent"])
        digest, changed, looked = self.panes.get(key, ("", 0.0, 0.0))
        if now - looked < every:
            return changed
        from taskproto.ops.agent_tmux import pane_text

        try:
            text = "\n".join(pane_text(self.config, *key, 500))
        except TaskprotoError:
            return changed
        new = hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()
        if new != digest:
            changed = now
        self.panes[key] = (new, changed, now)
        return changed

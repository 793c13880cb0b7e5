"""What the board and `agent ps` show of the agents taskproto runs: each one's run record with
what its session's hooks said last (hooks/agents/activity.py), the command that attaches to an
interactive one, and the tail of a headless one's log. No web stack here: `agent ps` uses it."""

from __future__ import annotations

import time
from typing import Any

from taskproto.config import Config
from taskproto.hooks.agents.activity import read_all
from taskproto.hooks.agents.activity import status as activity_of
from taskproto.ops import agent_records as rec
from taskproto.ops.agent_backoff import note

TAIL = 12  # lines of a headless agent's log on the board


def with_activity(rows: list[dict[str, Any]], config: Config) -> list[dict[str, Any]]:
    """`rows` (ops/agent_control.py `rows`) with `hook_activity`, and `activity` saying it first:
    the hooks of the agent's session (or of the client's own, once bound)."""
    seen = read_all(str(config.root))
    for r in rows:
        hook = seen.get(r["session"]) or seen.get(r.get("client_session") or "")
        r["hook_activity"] = (
            None
            if hook is None
            else {
                "status": activity_of(hook["event"]),
                "event": hook["event"],
                "at": hook["time"],
                "tool": hook.get("tool"),  # the last tool it called
            }
        )
        if hook is not None:
            r["activity"] = f"{said(hook)}, {r['activity']}"
    return rows


def said(hook: dict[str, Any]) -> str:
    """What the hooks said last, in words: `working (PreToolUse, last tool Read)`."""
    tool = f", last tool {hook['tool']}" if hook.get("tool") else ""
    return f"{activity_of(hook['event'])} ({hook['event']}{tool})"


def run_view(config: Config, task: str, agent: str) -> dict[str, Any] | None:
    """An agent's run on its card, or None when taskproto never ran it."""
    record = rec.read(config, task, agent)
    if record is None:
        return None
    live = rec.running(record)
    headless = bool(record.get("headless"))
    view: dict[str, Any] = {
        "state": record["state"] if live or record["state"] != rec.RUNNING else "down",
        "client": record["client"],
        "mode": "headless" if headless else "tmux",
        "pid": record.get("pid") if live else None,
        "session": record["session"],
        "restarts": record.get("restarts", 0),
        "sandbox": record.get("sandbox", "none"),
        "unconfined": record.get("unconfined"),  # why `auto` runs it as you (agent ps says it)
        "live": live,
        "attach": None if headless else f"taskproto agent attach {task} {agent}",
        "log_tail": rec.tail(rec.log_file(config, task, agent), TAIL) if headless else [],
        "activity": None,
        "note": note(record, time.time()),  # a restart backing off, or failed past its budget
    }
    seen = read_all(str(config.root))
    hook = seen.get(record["session"]) or seen.get(record.get("client_session") or "")
    if hook is not None:
        view["activity"] = said(hook)
    return view

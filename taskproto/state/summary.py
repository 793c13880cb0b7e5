"""The stable JSON shape of a task in `task list/show --json` and the MCP server, built from
task.json's JSON and its workflow's state table (`Workflow.state_table`).

Standard library only: the engine builds it from a loaded task (engine/summary.py) and the quick
read path (cli/quick.py) from the file itself, with the same code, so the two cannot drift.
"""

from __future__ import annotations

from taskproto.sessions import later_heartbeat
from taskproto.state.pause import paused_type

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SCHEMA_VERSION = 2  # of task.json (state/models.py); 2: the log's tail (state/bound.py)
STATUS_SCHEMA_VERSION = 1  # of an agent's status.json
DEFAULT_PRIORITY = 2  # 0 most urgent .. 4 least

# The keys of a task.json the current models write, nested where a value is an object (or a list
# of objects). A file of another shape (an older version's, before a field was added) is read
# through the models, which fill in defaults; tests/state/test_summary.py derives this table from
# the models and fails when they drift apart.
_APPROVAL = {
    "sha": None,
    "by": None,
    "at": None,
    "stale": None,
    "stale_reason": None,
    "diffstat": {"base": None, "head": None, "files": None, "added": None, "removed": None},
    "kind": None,
    "revoked_at": None,
    "revoked_reason": None,
    "seen": {"terminal": None, "processes": None, "variables": None, "pid": None},
}
TASK_SHAPE: dict[str, Any] = {
    "schema_version": None,
    "name": None,
    "workflow": None,
    "state": None,
    "description": None,
    "base": None,
    "base_branch": None,
    "created_at": None,
    "updated_at": None,
    "revision": None,
    "owner": {"session": None, "host": None, "pid": None, "claimed_at": None, "heartbeat_at": None},
    "required_agents": None,
    "transition_log": {
        "from": None,
        "to": None,
        "trigger": None,
        "time": None,
        "session": None,
        "kind": None,
        "forced": None,
        "note": None,
    },
    "interruptions": {
        "type": None,
        "time": None,
        "state": None,
        "rule": None,
        "session": None,
        "text": None,
    },
    "checkpoint": {
        "commit_sha": None,
        "plan_approval": _APPROVAL,
        "commit_approval": _APPROVAL,
        "revoked": _APPROVAL,
    },
    "counters": {"iteration": None, "round": None, "retries": None},
    "artifacts": None,
    "context": None,
    "needs_review": None,
    "depends_on": None,
    "priority": None,
    "merges": {
        "agent": None,
        "commit": None,
        "result": None,
        "merge_commit": None,
        "files": None,
        "at": None,
        "session": None,
    },
    "landed": {
        "approved": None,
        "base_branch": None,
        "base_before": None,
        "base_after": None,
        "strategy": None,
        "pushed_to": None,
        "at": None,
    },
    "escalations": {"reason": None, "detail": None, "tried": None, "at": None, "session": None},
    "log_count": None,
    "interruption_counts": None,
    "reached": None,
}


# Keys a file written before they came may lack, where the standard-library reads need none of
# them: an approval's `seen` (the approver's context, schema 2). Without this, every task.json
# approved by an older version went to the models on each read, a session's start at 1,000 tasks
# included, until the task was saved again.
LATER_KEYS = frozenset({"seen"})


def conforms(data: Any, shape: dict[str, Any] = TASK_SHAPE) -> bool:
    """Whether `data` has exactly the keys of `shape`, at every level that `shape` describes
    (a key of LATER_KEYS may be missing)."""
    if not isinstance(data, dict):
        return False
    if data.keys() != shape.keys() and (
        not data.keys() <= shape.keys() or not shape.keys() - data.keys() <= LATER_KEYS
    ):
        return False
    for key, inner in shape.items():
        if inner is None or data.get(key) is None:
            continue
        value = data[key]
        for item in value if isinstance(value, list) else [value]:
            if not conforms(item, inner):
                return False
    return True


def fill_later(data: dict[str, Any]) -> dict[str, Any]:
    """`data` (conforming) with each LATER_KEYS key it lacks set to None, as the models read it."""
    checkpoint = data.get("checkpoint")
    if isinstance(checkpoint, dict):
        for key in ("plan_approval", "commit_approval"):
            approval = checkpoint.get(key)
            if isinstance(approval, dict):
                approval.setdefault("seen", None)
        for approval in checkpoint.get("revoked") or []:
            if isinstance(approval, dict):
                approval.setdefault("seen", None)
    return data


def iso(value: str) -> str:
    """A stored time as `datetime.isoformat()` writes it (`+00:00`, where the file says `Z`)."""
    from datetime import datetime  # here: `task list` prints no time, and the import costs it

    return datetime.fromisoformat(value).isoformat()


def task_summary(
    data: dict[str, Any],
    states: dict[str, dict[str, Any]],
    agents: dict[str, str],
    task_dir: str | None = None,
) -> dict[str, Any]:
    """The summary of task.json's JSON `data`; `states` is its workflow's state table and `agents`
    each required agent's status. The owner's `heartbeat_at` is its last sign of life: with
    `task_dir`, the later of task.json's (the claim's time) and the task's heartbeat file."""
    state = states[data["state"]]
    owner = data["owner"]
    if owner is not None:
        from datetime import datetime

        beat_at = datetime.fromisoformat(owner["heartbeat_at"])
        beat_at = later_heartbeat(owner["session"], beat_at, task_dir)
    return {
        "name": data["name"],
        "workflow": data["workflow"],
        "state": data["state"],
        "revision": data["revision"],
        "description": data["description"],
        "owner": None
        if owner is None
        else {
            "session": owner["session"],
            "host": owner["host"],
            "pid": owner["pid"],
            "claimed_at": iso(owner["claimed_at"]),
            "heartbeat_at": beat_at.isoformat(),
        },
        "agents": agents,
        "allows_edits": state["allows_edits"],
        "allows_commits": state["allows_commits"],
        "next": [
            {"trigger": t["trigger"], "to": t["to"], "guards": list(t["guards"])}
            for t in state["triggers"]  # in this order, whatever the cache's
        ],
        "priority": data["priority"],
        "depends_on": list(data["depends_on"]),
        "created_at": iso(data["created_at"]),
        "updated_at": iso(data["updated_at"]),
        "escalations": [{**e, "at": iso(e["at"])} for e in data["escalations"]],
        "paused": paused_by(data),
    }


def show_details(data: dict[str, Any]) -> dict[str, Any]:
    """What `task show` adds to the summary: approvals, counters, interruptions, the review note,
    how many log entries the task has had (task.json holds the latest: bound.py)."""
    interruptions = data["interruptions"]
    counts: dict[str, int] = {}
    for i in interruptions:
        counts[i["type"]] = counts.get(i["type"], 0) + 1
    kept = data.get("interruption_counts")  # every one: task.json holds the tail (bound.py)
    if isinstance(kept, dict) and sum(kept.values()) >= len(interruptions):
        counts = dict(kept)
    return {
        "checkpoint": data["checkpoint"],
        "counters": data["counters"],
        "interruptions": {
            "count": sum(counts.values()),
            "by_type": counts,
            "last": interruptions[-5:],
        },
        "needs_review": data["needs_review"],
        "log_count": max(int(data.get("log_count") or 0), len(data["transition_log"])),
        "merges": shown_merges(data),
        "landed": data.get("landed"),
    }


def shown_merges(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The merge records `task show` shows: the latest, one per required agent."""
    merges = list(data.get("merges") or [])
    return merges[-len(data["required_agents"]) :] if merges and data["required_agents"] else []


def describe(waits: list[dict[str, Any]]) -> str:
    """What a task waits for, in one line: `a (in PLANNING), b (not on this machine)`."""
    return ", ".join(f"{w['task']} ({w['why']})" for w in waits)


def paused_by(data: dict[str, Any]) -> str | None:
    """The type of the user's interruption the task's work waits on (state/pause.py), from
    task.json's JSON or, without its interruptions, from an index row's `paused`."""
    if "interruptions" not in data:
        found = data.get("paused")
        return found if isinstance(found, str) else None
    return paused_type(data)


def list_line(
    name: str,
    width: int,
    state: str,
    priority: int,
    owner: str | None,
    workflow: str,
    waiting: str,
    escalated: list[str],
    paused: str | None = None,
) -> str:
    """One task's line of `task list` (what it waits for: summary.describe's words; `paused`:
    the type of the user's interruption its work waits on, `paused_by`)."""
    waits = f"  waits for {waiting}" if waiting else ""
    if paused:
        waits += f"  PAUSED ({paused}) until `taskproto resume {name}`"
    if escalated:
        waits += f"  ESCALATED ({', '.join(escalated)})"
    # ljust, not a format spec: a third of the time, on every line of a listing
    shown = f"{name.ljust(width)}  {state.ljust(22)}  p{priority}"
    return f"{shown}  owner {owner or '-'}  ({workflow}){waits}\n"


def stat_text(stat: dict[str, Any]) -> str:
    """A diff stat in one line for people: `3 files changed, +12 -4 (a.py, b.py, c.py)`."""
    files = stat["files"]
    names = ", ".join(files[:5]) + (f", … {len(files) - 5} more" if len(files) > 5 else "")
    plural = "file" if len(files) == 1 else "files"
    text = f"{len(files)} {plural} changed, +{stat['added']} -{stat['removed']}"
    return f"{text} ({names})" if files else text

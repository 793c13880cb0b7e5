"""What each commit of a task's journal changed, told in one line: `taskproto log`.

Every change of a task is one journal commit (state/journal.py), whatever made it: a transition, a
claim, a release, an approval, an interruption, an escalation, an agent's status, a merge, a land,
doctor's repair, a removal (its journal is then archived). Each commit's message names the change
(the summary its save wrote); what the commit's task.json and status files hold beside the previous
commit's adds who made it and the details: the log entries it appended (their notes, forced moves),
the interruptions it recorded (their words), the agents whose status it changed.
"""

from __future__ import annotations

from taskproto import plainjson as json
from taskproto.errors import TaskprotoError
from taskproto.state import integrity, journal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from taskproto.git.repo import JournalCommit, Repo

QUOTE = 80  # characters of an interruption's words in the line


def _json(data: bytes | None) -> dict[str, Any]:
    try:
        loaded = json.loads(data) if data is not None else None
    except ValueError:
        return {}
    return loaded if isinstance(loaded, dict) else {}


def _list(data: dict[str, Any], key: str) -> list[dict[str, Any]]:
    value = data.get(key)
    return [e for e in value if isinstance(e, dict)] if isinstance(value, list) else []


def _statuses(commit: JournalCommit) -> dict[str, dict[str, Any]]:
    found = {}
    for name, data in commit.files.items():
        if name.startswith("status-") and name.endswith(".json"):
            found[name[len("status-") : -len(".json")]] = _json(data)
    return found


def _latest(times: list[str]) -> str | None:
    """The latest of stored times (as the models write them), as stored."""
    from datetime import datetime

    found: list[tuple[datetime, str]] = []
    for t in times:
        try:
            found.append((datetime.fromisoformat(t), t))
        except ValueError:
            continue
    return max(found)[1] if found else None


def _agent_line(agent: str, status: dict[str, Any]) -> str:
    error = status.get("error_message")
    return f"{agent} {status.get('status')}" + (f" ({error})" if error else "")


def _log_count(data: dict[str, Any]) -> int:
    """How many log entries a task.json's task had logged (schema 1 held them all)."""
    count = data.get("log_count")
    held = len(_list(data, "transition_log"))
    return max(count, held) if isinstance(count, int) else held


def _interruption_count(data: dict[str, Any]) -> int:
    counts = data.get("interruption_counts")
    held = len(_list(data, "interruptions"))
    if isinstance(counts, dict):
        return max(sum(v for v in counts.values() if isinstance(v, int)), held)
    return held


def appended(
    task: dict[str, Any], old: dict[str, Any], key: str, count: Callable[[dict[str, Any]], int]
) -> list[dict[str, Any]]:
    """The items of list `key` a commit's task.json added beside the commit before it: task.json
    holds a list's tail, and how many items there have been (state/bound.py)."""
    items = _list(task, key)
    added = count(task) - (count(old) if old else 0)
    if added <= 0:
        return []
    return items[-added:] if added <= len(items) else items


def change(commit: JournalCommit, before: JournalCommit | None) -> dict[str, Any]:
    """One journal commit's change, beside the commit before it (None: the journal's first)."""
    task = _json(commit.files.get(journal.TASK_FILE))
    old = _json(before.files.get(journal.TASK_FILE)) if before is not None else {}
    summary = commit.message.split("\n", 1)[0]
    revision, _ = integrity.parse(commit.message.encode())
    entries = appended(task, old, "transition_log", _log_count)
    interruptions = appended(task, old, "interruptions", _interruption_count)
    was = _statuses(before) if before is not None else {}
    agents = {
        agent: {"from": was[agent].get("status") if agent in was else None, **status}
        for agent, status in _statuses(commit).items()
        if was.get(agent) != status
    }
    details = []
    for e in entries:
        if e.get("forced"):
            details.append(f"FORCED {e.get('trigger')}")
        note = str(e.get("note") or "")
        if note and note.split(": ", 1)[-1] not in summary:  # not what the summary says already
            details.append(note)
    for i in interruptions:
        words = " ".join(str(i.get("text") or "").split())
        quoted = words[:QUOTE] + ("..." if len(words) > QUOTE else "")
        details.append(f'{i.get("type")}: "{quoted}"' if quoted else str(i.get("type")))
    times = [str(task.get("updated_at") or "")]
    if before is not None:  # the first commit's statuses are the agents' first ones
        for agent, status in agents.items():
            times.append(str(status.get("updated_at") or ""))
            if f"agent {agent}:" not in summary:
                details.append(f"agent {_agent_line(agent, status)}")
            elif status.get("error_message"):
                details.append(str(status["error_message"]))
    last = entries[-1] if entries else None
    who = [x.get("session") for x in (*entries, *interruptions) if x.get("session")]
    if last is not None:
        kind = str(last.get("kind") or "transition")
    elif interruptions:
        kind = "interruption"
    elif agents:
        kind = "agent"
    else:
        kind = "change"
    return {
        "commit": commit.sha,
        "revision": revision,
        "time": _latest(times),  # an agent's status may change with task.json as it was
        "kind": kind,
        "from": old.get("state"),
        "to": task.get("state"),
        "trigger": last.get("trigger") if last is not None else None,
        "session": who[-1] if who else None,
        "forced": any(bool(e.get("forced")) for e in entries),
        "note": last.get("note") if last is not None else None,
        "summary": summary,
        "text": summary + (f" ({'; '.join(details)})" if details else ""),
        "log": entries,
        "interruptions": interruptions,
        "agents": agents,
    }


def changes(repo: Repo, task: str, last: int | None = None) -> tuple[str, list[dict[str, Any]]]:
    """(ref, each journal commit's change, oldest first; with `last`, the newest `last` of them).
    A removed task's journal is read from its newest archive."""
    ref = journal.ref_for(task)
    if not repo.refs(ref):
        ref = journal.latest_archive(repo, task) or ref
    commits = journal.history(repo, ref, None if last is None else last + 1)
    if not commits:
        raise TaskprotoError(
            f"task {task!r} has no journal ({journal.ref_for(task)}); run `taskproto doctor`"
        )
    commits.reverse()
    found = [change(c, commits[i - 1] if i else None) for i, c in enumerate(commits)]
    if last is not None and len(commits) > last:
        found = found[1:]  # read only to tell what the oldest one shown changed
    return ref, found


def line(entry: dict[str, Any]) -> str:
    """The change as `taskproto log` prints it."""
    time = str(entry["time"] or "")[:19] + "Z" if entry["time"] else "-"
    revision = f"r{entry['revision']}" if entry["revision"] is not None else "r?"
    return (
        f"{time}  {revision:<5} {entry['kind']:<12} {entry['to'] or '-':<22} {entry['text']}"
        f"  [{entry['session'] or '-'}]"
    )

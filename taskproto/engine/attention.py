"""What waits for the user on a task, and the notification outbox those moments are written to.

`items` reads a task's JSON (as saved) and names what needs the user now: a checkpoint waiting for
an approval, a revision answered, an approval gone stale, an open question, an escalation, an
agent past its retries, a task doctor rebuilt, a merge conflict. `inbox` and the board's "Needs
you" both list these items and nothing else: a doctor finding alone is not one (what doctor cannot
fix it escalates, and that is an item). Each item carries the one command that acts on it and
a key (task, reason, the head or moment it is about): `inbox` lists the items, and `note`, which
every save runs, appends an item to `<root>/notify/outbox.jsonl` the first time its key is seen
(a marker file made with O_EXCL: exactly once, however many processes save). Delivery is not
here: `ops/notify.py` sends the outbox, from a detached `taskproto notify flush` started at this
process's exit or from the next `notify flush`/`inbox` (docs/notifications.md).

Standard library only, no `re`, `pathlib`, `typing` at run time: every transition runs it.
"""

from __future__ import annotations

import os
import time

from taskproto import plainjson as json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.layout import Layout

FOLDER = "notify"
OUTBOX = "outbox.jsonl"
SEEN = "seen"
MAX_RETRIES = 3  # config.py's default max_retries: an agent in ERROR with this many is escalated
# Set to 0 to keep a process from starting the detached delivery (tests, scripts that flush).
NO_DETACH = "TASKPROTO_NOTIFY_DETACH"

_pending: list[tuple[str, str]] = []  # (root, main) this process appended to: delivered at exit
_at_exit: list[bool] = []  # the delivery at exit is registered
_STARTED = time.monotonic()
# seconds: a process older than this (a server) starts the delivery at once, not at its exit
LONG_RUNNING = 5.0


def folder(layout: Layout) -> str:
    return os.path.join(layout.root, FOLDER)


# what the user said, by its interruption type, in words (a resumption pauses nothing)
_SAID = {"QUESTION": "question", "STATUS_REQUEST": "status request", "AUDIT": "audit request"}


def _last(values: object) -> dict[str, Any] | None:
    if isinstance(values, list) and values and isinstance(values[-1], dict):
        return values[-1]
    return None


_BUILTIN: dict[str, dict[str, Any]] = {}  # the built-in workflows' tables, read once a process


def _flags(layout: Layout, workflow: str) -> dict[str, Any]:
    if workflow in _BUILTIN:
        return _BUILTIN[workflow]
    try:
        from taskproto.hooks.flags import builtin_table, state_flags

        shipped = builtin_table(workflow)
        if shipped is not None:
            _BUILTIN[workflow] = shipped
            return shipped
        return state_flags(layout, workflow)
    except Exception:  # noqa: BLE001 - an unknown workflow waits for nothing here; doctor says why
        return {}


def max_retries(layout: Layout) -> int:
    """The repository's retry budget (`max_retries` in its settings, as config.py reads it), read
    only when an agent failed: the settings file is parsed only when it names the key."""
    try:
        from taskproto.layout import read_settings

        value = read_settings(layout.main, need=(b"max_retries",))[0].get("max_retries")
    except Exception:  # noqa: BLE001 - settings that cannot be read are doctor's; the default holds
        return MAX_RETRIES
    return value if isinstance(value, int) and not isinstance(value, bool) else MAX_RETRIES


RETRIES_EXHAUSTED = "agent-retries-exhausted"  # the supervisor's escalation past an agent's budget


def escalated_agent(escalation: dict[str, Any]) -> str | None:
    """The agent an `agent-retries-exhausted` escalation is of: its detail names it first
    ("agent dev crashed past its restart budget ...", ops/agent_budget.py)."""
    detail = str(escalation.get("detail") or "").split(" ")
    if escalation.get("reason") != RETRIES_EXHAUSTED or len(detail) < 2 or detail[0] != "agent":
        return None
    return detail[1]


def _failed_agents(layout: Layout, name: str, agents: object) -> list[tuple[str, int, str]]:
    found = []
    budget: int | None = None
    for agent in agents if isinstance(agents, list) else []:
        try:
            with open(layout.status_file(name, str(agent)), "rb") as fh:
                status = json.loads(fh.read())
        except (OSError, ValueError):
            continue
        if not isinstance(status, dict) or status.get("status") != "ERROR":
            continue
        retries = status.get("retry_count")
        budget = max_retries(layout) if budget is None else budget
        if isinstance(retries, int) and retries >= budget:
            found.append((str(agent), retries, str(status.get("updated_at") or "")))
    return found


def items(layout: Layout, data: dict[str, Any], head: str | None = None) -> list[dict[str, Any]]:
    """What task `data` (task.json's JSON) waits for the user for, oldest reason first. `head`: the
    task branch's head (read from the repository when None)."""
    name, state = str(data.get("name")), str(data.get("state"))
    if head is None and layout.dirs is not None:
        head = layout.dirs.branch_sha(name)
    short = (head or "")[:12]
    out: list[dict[str, Any]] = []

    def add(reason: str, about: str, text: str, command: str) -> None:
        out.append(
            {
                "task": name,
                "state": state,
                "reason": reason,
                "head": head,
                "about": about,
                "key": f"{name}|{reason}|{about}",
                "text": text,
                "command": command,
            }
        )

    flags = _flags(layout, str(data.get("workflow"))).get(state) or {}
    checkpoint = data.get("checkpoint") or {}
    approval = checkpoint.get("commit_approval") or {}
    reached = str((data.get("reached") or {}).get(state) or "")
    stale = bool(approval.get("sha")) and bool(approval.get("stale"))
    if stale:
        add(
            "stale-approval",
            f"{approval.get('sha')}>{head}",
            f"the approval of {str(approval.get('sha'))[:12]} went stale: "
            f"{approval.get('stale_reason') or 'the branch moved'}; the head is now {short}",
            f"taskproto approve {name} --commit {short}"
            if flags.get("approval") == "commit"
            else f"taskproto diff {name}",
        )
    waiting = None
    bound = f" --head {short}" if short else ""  # the head shown: a move since is refused
    if flags.get("approval") == "commit" and not stale:
        if not (approval.get("sha") == head and head and not approval.get("stale")):
            waiting = ("commit-approval", head or "", f"commit {short} waits for your approval")
            command = f"taskproto approve {name} --commit {short}"
    elif flags.get("approval") == "plan" and not checkpoint.get("plan_approval"):
        waiting = ("plan-approval", reached, f"the plan waits for your approval in {state}")
        command = f"taskproto approve {name} --plan{bound}"
    elif any(t.get("trigger") == "approve" for t in flags.get("triggers") or ()):
        waiting = ("review", reached, f"{state} waits for your review")
        command = f"taskproto approve {name}{bound}"
    if waiting is not None:
        sent = _last(((data.get("context") or {}).get("review") or {}).get("sent"))
        answered = (
            sent is not None
            and sent.get("from_state") == state
            and str(sent.get("time") or "") < reached
        )
        reason, about, text = waiting
        if answered:
            reason, text = "revision-answered", f"your revision was answered: {text}"
        add(reason, about, text, command)
    paused = _last(data.get("interruptions"))
    if paused and paused.get("type") != "RESUMPTION" and paused.get("state") == state:
        text = str(paused.get("text") or "")[:120]
        add(
            "question",
            str(paused.get("time")),
            f"paused by your {_SAID.get(str(paused.get('type')), 'message')}: {text}",
            f"taskproto resume {name}",
        )
    failed = _failed_agents(layout, name, data.get("required_agents"))
    down = {agent for agent, _, _ in failed}
    for escalation in data.get("escalations") or ():
        if escalated_agent(escalation) in down:
            continue  # the agent's own item below: one thing to do, one command
        add(
            "escalation",
            str(escalation.get("at")),
            f"escalated ({escalation.get('reason')}): {str(escalation.get('detail'))[:160]}",
            f"taskproto resume {name}",
        )
    for agent, retries, at in failed:
        add(
            "agent-retries",
            f"{agent}@{at}",
            f"agent {agent} failed after {retries} retries",
            f"taskproto recover {name}",
        )
    back = (data.get("context") or {}).get("update")
    if isinstance(back, dict) and back.get("trigger") and back.get("state") == state:
        add(
            "sent-back",
            str(back.get("time")),
            f"came back from landing onto {back.get('base_branch')} ({back.get('trigger')}"
            + (
                f": {', '.join(str(f) for f in back.get('files') or ())}"
                if back.get("files")
                else ""
            )
            + ")",
            f"taskproto prompt {name}",
        )
    if data.get("needs_review"):  # doctor rebuilt the task: only a person can say its state holds
        add(
            "needs-review",
            reached,
            f"doctor rebuilt the task; review state {state}, then acknowledge it",
            f"taskproto ack {name}",
        )
    merge = _last(data.get("merges"))
    if merge and merge.get("result") == "conflict":
        add(
            "conflict",
            str(merge.get("at")),
            f"agent {merge.get('agent')} conflicts with the task branch in "
            f"{', '.join(str(f) for f in merge.get('files') or ())}",
            f"taskproto merge {name}",
        )
    return out


def _marker(layout: Layout, key: str) -> str:
    import hashlib

    return os.path.join(folder(layout), SEEN, hashlib.sha1(key.encode()).hexdigest())


def note(layout: Layout, data: dict[str, Any]) -> int:
    """Append to the outbox each item of task `data` whose key was never noted; how many. Never
    raises: a notification is never worth a failed save."""
    try:
        found = items(layout, data)
        if not found:
            return 0
        from datetime import UTC, datetime

        count = 0
        for item in found:
            marker = _marker(layout, item["key"])
            os.makedirs(os.path.dirname(marker), exist_ok=True)
            try:
                os.close(os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
            except FileExistsError:
                continue  # noted before: de-duplicated per task, reason and head
            item = {"id": os.path.basename(marker)[:16], **item}
            item["time"] = datetime.now(UTC).isoformat()
            append(layout, item)
            count += 1
        if count and _detach(layout):
            _pending.append((layout.root, layout.main))
            if time.monotonic() - _STARTED > LONG_RUNNING:
                _deliver_detached()  # the board, the MCP server: their exit may be hours away
            elif not _at_exit:
                import atexit

                atexit.register(_deliver_detached)
                _at_exit.append(True)
        return count
    except Exception:  # noqa: BLE001 - see the docstring
        return 0


def append(layout: Layout, item: dict[str, Any]) -> None:
    """One line of the outbox, appended under its lock."""
    import fcntl

    path = os.path.join(folder(layout), OUTBOX)
    with open(path + ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        try:
            os.write(fd, (json.dumps(item) + "\n").encode())
        finally:
            os.close(fd)


def configured(main: str) -> bool:
    """Whether a notification channel may be set: a `[notify]` table in the repository's settings
    or the user's config (read for real by ops/notify.py)."""
    home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    for path in (
        os.path.join(main, ".taskproto.toml"),
        os.path.join(main, "pyproject.toml"),
        os.path.join(home, "taskproto", "config.toml"),
    ):
        try:
            with open(path, "rb") as fh:
                if b"notify" in fh.read():
                    return True
        except OSError:
            continue
    return False


def _detach(layout: Layout) -> bool:
    """Whether this process starts a delivery at its exit for `layout` (once per root)."""
    if os.environ.get(NO_DETACH) == "0" or any(root == layout.root for root, _ in _pending):
        return False
    return configured(layout.main)


def deliver_detached(layout: Layout) -> None:
    """Start the detached delivery for `layout` now, when a channel may be set."""
    if os.environ.get(NO_DETACH) != "0" and configured(layout.main):
        _pending.append((layout.root, layout.main))
        _deliver_detached()


def _deliver_detached() -> None:
    """Start `taskproto notify flush` for the roots this process noted to, detached: the command
    or hook that caused the events returns without waiting for any channel."""
    import subprocess
    import sys

    for root, main in _pending:
        try:
            subprocess.Popen(
                [sys.executable, "-m", "taskproto", "--root", root, "-C", main, "notify", "flush"]
                + ["--background"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                close_fds=True,
            )
        except OSError:
            continue
    _pending.clear()

"""What the board shows: every task as a card, and one task in detail. Read-only.

A card is read from task.json, the agents' status files, the task branch's head (no git
process), the agents' activity files and the latest doctor report; the detail adds the log, the
diagram, the plan and the diff (two git processes). Nothing here writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from taskproto import plainjson as json
from taskproto.board import diagram
from taskproto.board.agents_view import run_view
from taskproto.board.cards import Cards, read_statuses
from taskproto.engine import Engine, attention
from taskproto.engine.deps import Resolver, Waiting, describe
from taskproto.engine.diff import Diff, task_diff
from taskproto.errors import TaskprotoError
from taskproto.hooks.agents import activity
from taskproto.machine.builtin.plan_task import NAME as PLAN_TASK
from taskproto.machine.registry import workflow_names
from taskproto.ops import controls, plan_task
from taskproto.ops import review as actions
from taskproto.sessions import last_heartbeat, liveness
from taskproto.state import review
from taskproto.state.models import AgentStatus, Task

PLAN_FILES = ("PLAN.md", "plan.md")  # a task-protocol plan kept on the task branch
MAX_PLAN_CHARS = 200_000
FORGET_AFTER = 24 * 3600.0  # seconds: a session silent this long is no longer shown
FORGET_ENDED_AFTER = 600.0  # a session that ended, after this long


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def _ts(value: float) -> str:
    return datetime.fromtimestamp(value, UTC).isoformat()


def waiting_for(engine: Engine, task: Task, head: str | None) -> str | None:
    """What the task waits on the user for, if anything."""
    wf = engine.workflow(task)
    state = wf.state(task.state)
    if state.approval == "plan" and task.checkpoint.plan_approval is None:
        return "plan approval"
    if state.approval == "commit" and not actions.approval_stands(task, head):
        return "commit approval"
    if state.checkpoint and any(t.trigger == "approve" for t in wf.triggers_from(task.state)):
        return "review"
    if task.paused_by() is not None:
        return "resume"
    if task.escalations:
        return "your decision (escalated)"
    return None


def stale_approval(task: Task, head: str | None) -> str | None:
    approval = task.checkpoint.commit_approval
    if approval is None or approval.sha is None:
        return None
    if approval.stale:
        return approval.stale_reason or "marked stale"
    if head != approval.sha:
        return f"approved {approval.sha[:12]}, branch now at {(head or 'nothing')[:12]}"
    return None


def sessions_by_task(engine: Engine, seen: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """{task: {session: its agent or None}} of the sessions working in a task's worktrees, worked
    out once per board."""
    layout = engine.config.layout
    found: dict[str, dict[str, Any]] = {}
    for session, rec in seen.items():
        kind, name, agent = layout.where(str(rec.get("cwd") or ""))
        if kind == "worktree" and name is not None:
            found.setdefault(name, {})[session] = agent
    return found


def _sessions(
    task: Task,
    seen: dict[str, dict[str, Any]],
    here: dict[str, Any],
    waiting: bool,
    now: float,
) -> list[dict[str, Any]]:
    """The sessions working in the task's worktrees (`here`: their agents) or owning it, heard
    from recently."""
    owner = task.owner.session if task.owner else None
    out: list[dict[str, Any]] = []
    for session in sorted({*here, *([owner] if owner in seen else [])}):
        rec = seen[session]
        if forgotten(rec, now):
            continue
        out.append(
            {
                "session": session,
                "client": rec.get("client"),
                "event": rec.get("event"),
                "detail": rec.get("detail") or "",
                "time": _ts(float(rec["time"])),
                "status": activity.status(str(rec["event"]), waiting),
                "agent": here.get(session),
                "owner": session == owner,
            }
        )
    return out


def forgotten(rec: dict[str, Any], now: float) -> bool:
    """Whether a session's activity `rec` is too old to show."""
    age = now - float(rec["time"])
    return age > FORGET_AFTER or (rec["event"] == "SessionEnd" and age > FORGET_ENDED_AFTER)


def dependencies(task: Task) -> list[str]:
    """The tasks this one waits for, where the task records them."""
    found = getattr(task, "depends_on", None) or task.context.get("depends_on") or []
    return [str(d) for d in found] if isinstance(found, list) else []


def blocked(
    engine: Engine, task: Task, waits: list[Waiting], agents: list[dict[str, Any]]
) -> str | None:
    """Why the task cannot go on by itself, or None: the tasks it waits for, or an escalation (an
    agent failed with its retries used up, or `taskproto escalate` since the last transition)."""
    if waits:
        return f"waits for {describe(waits)}"
    limit = engine.config.max_retries
    for a in agents:
        if a["status"] == "ERROR" and a["retries"] >= limit:
            error = f": {a['error']}" if a.get("error") else ""
            return f"escalated: agent {a['name']} failed after {a['retries']} retries{error}"
    for entry in reversed(task.transition_log):
        if entry.kind == "transition":
            break
        if entry.trigger == "escalate":
            return entry.note or "escalated"
    return None


@dataclass
class Live:
    """What a card shows besides its task's files, worked out on every request: the branch head,
    the owner's liveness (why it is gone or None, its last heartbeat), the sessions, what it waits
    for, the doctor's findings. With the task's files' keys, the key of a kept card (cards.py)."""

    head: str | None
    gone: str | None
    beat: datetime | None
    sessions: list[dict[str, Any]]
    unfinished: list[dict[str, str | None]]
    findings: list[dict[str, Any]]
    viewer: tuple[str, int | None] | None


def live(
    engine: Engine,
    task: Task,
    seen: dict[str, dict[str, Any]],
    here: dict[str, Any],
    findings: list[dict[str, Any]],
    resolver: Resolver,
    viewer: controls.Viewer | None,
    now: datetime,
    kept: Cards | None = None,
) -> Live:
    """A card's inputs besides its task's files; with `kept`, its head and the owner's heartbeat
    from what a running board keeps, and each owner's liveness worked out once per request."""
    head = kept.head(engine, task.name) if kept is not None else engine.branch_head(task.name)
    gone, beat = None, None
    owner = task.owner
    if owner is not None:
        folder = engine.config.layout.task_dir(task.name)
        if kept is None:
            gone, beat = liveness(owner, now, engine.config.lease_minutes, folder)
            beat = beat or last_heartbeat(owner, folder)
        else:
            last = kept.heartbeat(engine, task.name, owner)
            gone, beat = kept.alive(owner, last, now, engine.config.lease_minutes)
    waiting = waiting_for(engine, task, head) is not None
    return Live(
        head,
        gone,
        beat,
        _sessions(task, seen, here, waiting, now.timestamp()),
        [w.to_dict() for w in resolver.waits_for(task)],
        findings,
        None if viewer is None else (viewer.session, viewer.pid),
    )


def card(
    engine: Engine,
    task: Task,
    statuses: dict[str, AgentStatus | str | None],
    now: Live,
    viewer: controls.Viewer | None = None,
) -> dict[str, Any]:
    """A task's card from its agents' `statuses` (a string: why one is unreadable) and what
    `now` holds; `viewer`, who acts from the board, decides the controls offered."""
    wf = engine.workflow(task)
    state = wf.state(task.state)
    head = now.head
    waits = waiting_for(engine, task, head)
    owner = task.owner
    agents: list[dict[str, Any]] = []
    for name in task.required_agents:
        status = statuses.get(name)
        if isinstance(status, str):
            agents.append({"name": name, "status": "corrupt", "error": status})
            continue
        agents.append(
            {
                "name": name,
                "status": status.status.value if status else "missing",
                "updated_at": _iso(status.updated_at) if status else None,
                "retries": status.retry_count if status else 0,
                "error": status.error_message if status else None,
                "run": run_view(engine.config, task.name, name),  # `taskproto agent start`'s
            }
        )
    interruption = task.paused_by()
    pending = review.pending(task)
    approvals = task.checkpoint
    unfinished = [Waiting(w["task"] or "", w["state"], w["why"] or "") for w in now.unfinished]
    return {
        "name": task.name,
        "workflow": task.workflow,
        "state": task.state,
        "description": task.description,
        "revision": task.revision,
        "updated_at": _iso(task.updated_at),
        "terminal": state.terminal,
        "checkpoint": state.checkpoint,
        "head": head,
        "base_branch": task.base_branch,
        "owner": None
        if owner is None
        else {
            "session": owner.session,
            "host": owner.host,
            "pid": owner.pid,
            "heartbeat_at": _iso(now.beat),
            "mine": viewer is not None and owner.session == viewer.session,
            "gone": now.gone,
        },
        "agents": agents,
        "sessions": now.sessions,
        "waiting_for": waits,
        "plan_approval": None
        if approvals.plan_approval is None
        else {"by": approvals.plan_approval.by, "at": _iso(approvals.plan_approval.at)},
        "commit_approval": None
        if approvals.commit_approval is None
        else {
            "sha": approvals.commit_approval.sha,
            "by": approvals.commit_approval.by,
            "at": _iso(approvals.commit_approval.at),
        },
        "stale_approval": stale_approval(task, head),
        "interruption": None
        if interruption is None
        else {
            "type": interruption.type,
            "time": _iso(interruption.time),
            "text": interruption.text or "",
        },
        "review": {
            "drafts": len(review.drafts(task)),
            "pending": None
            if pending is None
            else {
                "batch": pending.get("batch"),
                "trigger": pending.get("trigger"),
                "comments": len(pending.get("comments") or []),
            },
        },
        "dependencies": dependencies(task),
        # the dependencies not done yet, with why (engine/deps.py), as `task list` shows them
        "blocked_by": now.unfinished,
        "blocked": blocked(engine, task, unfinished, agents),
        "findings": now.findings,
        "needs_review": task.needs_review,
        # what waits for the user: `taskproto inbox`'s items (engine/attention.py), the one reading
        "needs_you": attention.items(
            engine.config.layout, task.model_dump(mode="json", by_alias=True), head
        ),
        "escalations": [
            {
                "reason": e.reason,
                "detail": e.detail,
                "tried": e.tried,
                "at": _iso(e.at),
                "session": e.session,
            }
            for e in task.escalations
        ],
        "actions": actions.choices(engine, task).as_json(),
        "controls": None
        if viewer is None
        else controls.offer(engine, task, viewer, head, live=now.gone is None).as_json(),
    }


def findings_by_task(report: dict[str, Any] | None) -> dict[str, list[dict[str, Any]]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for f in (report or {}).get("findings", []):
        groups.setdefault(f.get("task") or "", []).append(
            {"check": f["check"], "severity": f["severity"], "message": f["message"]}
        )
    return groups


def board(
    engine: Engine,
    report: dict[str, Any] | None = None,
    viewer: controls.Viewer | None = None,
    kept: Cards | None = None,
) -> dict[str, Any]:
    """Every task's card, the columns (each workflow's states in order), the doctor summary, and
    the workflows a new task can take. `kept`: what a running board read and built before, used
    again where nothing it was made from changed (cards.py); without it every card is built."""
    now = datetime.now(UTC)
    seen = activity.read_all(engine.config.layout.root)
    here = sessions_by_task(engine, seen)
    found = findings_by_task(report)
    kept = kept if kept is not None else Cards(notices=False)
    reads = kept.read(engine, kept.listed(engine))  # a task still being created is not shown
    shown = frozenset(s for s, rec in seen.items() if not forgotten(rec, now.timestamp()))
    made_from = (report, None if viewer is None else (viewer.session, viewer.pid), seen, shown)
    same = kept.same_board(made_from, now, engine.config.lease_minutes)
    if same is not None:  # nothing any card is made from changed: the last pass's cards
        return board_data(engine, now, same.tasks, same.columns, found)
    loaded = {name: r.task for name, r in reads.items() if r.task is not None}
    broken = {name: r.error or "" for name, r in reads.items() if r.task is None}
    resolver = Resolver(engine, loaded, broken)
    tasks: list[dict[str, Any]] = []
    columns: dict[str, list[str]] = {}
    for name, read in reads.items():
        findings = found.get(name, [])
        try:
            if read.task is None:
                raise TaskprotoError(read.error or "unreadable")
            task = read.task
            columns.setdefault(task.workflow, engine.workflow(task).state_names())
            inputs = live(
                engine, task, seen, here.get(name, {}), findings, resolver, viewer, now, kept
            )
            key = (read.key, inputs)
            built = kept.card(name, key)
            if built is None:
                built = card(engine, task, read.statuses, inputs, viewer)
                kept.keep(name, key, built)
            tasks.append(built)
        except TaskprotoError as exc:  # a broken task is shown, never fatal
            tasks.append({"name": name, "error": str(exc), "findings": findings})
    kept.remember(made_from, tasks, columns)
    return board_data(engine, now, tasks, columns, found)


def board_data(
    engine: Engine,
    now: datetime,
    tasks: list[dict[str, Any]],
    columns: dict[str, Any],
    found: dict[str, list[dict[str, Any]]],
) -> dict[str, Any]:
    return {
        "time": now.isoformat(),
        "tasks": tasks,
        "columns": columns,
        "repository_findings": found.get("", []),
        "workflows": workflow_names(engine.config),
        "problem": None,  # why no task could be read at all (board/state.py), else None
    }


def plan_sections(engine: Engine, task: Task, head: str | None) -> list[dict[str, Any]]:
    """The plan as numbered lines: each stored artifact, and a plan file on the task branch."""
    sections: list[dict[str, Any]] = []
    if task.workflow == PLAN_TASK and task.artifacts:
        try:  # the plan as a person reads it (the same Markdown as `task show`)
            text = plan_task.plan_markdown(engine, task)[:MAX_PLAN_CHARS]
            return [{"file": "plan.md", "lines": text.splitlines()}]
        except TaskprotoError:
            pass  # a broken template: the artifacts as they are stored
    for key, value in task.artifacts.items():
        text = value if isinstance(value, str) else json.dumps(value, indent=2, ensure_ascii=False)
        sections.append({"file": key, "lines": text[:MAX_PLAN_CHARS].splitlines()})
    if head is not None:
        for path in PLAN_FILES:
            data = engine.git.show_file(head, path)
            if data is not None:
                text = data.decode("utf-8", "replace")[:MAX_PLAN_CHARS]
                sections.append({"file": path, "lines": text.splitlines()})
                break
    return sections


def detail(
    engine: Engine,
    name: str,
    report: dict[str, Any] | None = None,
    with_diff: bool = True,
    viewer: controls.Viewer | None = None,
) -> tuple[dict[str, Any], Diff | None]:
    """One task: its card, log, interruptions, review, plan, diagram; and its diff."""
    task = engine.load(name)
    seen = activity.read_all(engine.config.layout.root)
    statuses = read_statuses(engine, task)
    findings = findings_by_task(report).get(name, [])
    here = sessions_by_task(engine, seen).get(name, {})
    inputs = live(engine, task, seen, here, findings, Resolver(engine), viewer, datetime.now(UTC))
    data = card(engine, task, statuses, inputs, viewer)
    wf = engine.workflow(task)
    log = [e.model_dump(mode="json", by_alias=True) for e in task.transition_log]
    visited = set(task.reached) | {e.to_state for e in task.transition_log} | {wf.initial}
    last = next((e.trigger for e in reversed(task.transition_log) if e.kind == "transition"), None)
    data["log"] = log  # the log's tail task.json holds; `taskproto log` reads it all
    data["log_offset"] = task.log_offset
    data["interruptions"] = [i.model_dump(mode="json") for i in task.interruptions[-20:]]
    data["review_drafts"] = review.drafts(task)
    data["review_sent"] = review.batches(task)
    data["plan"] = plan_sections(engine, task, data["head"])
    data["svg"] = diagram.render(wf, task.state, visited, last)
    data["mermaid"] = diagram.mermaid(wf, task.state)
    data["base"] = task.base
    diff = task_diff(engine, task) if with_diff else None
    data["diff"] = diff.summary() if diff is not None else None
    return data, diff


def queue(engine: Engine) -> list[dict[str, Any]]:
    """The merge queue as this machine last saw it (ops/queue.py; `queue list` fetches it from the
    shared remote), oldest first; [] when it cannot be read."""
    from taskproto.ops import queue as queueing

    try:
        return [e.as_json() for e in queueing.Queue(engine).entries(fetch=False)]
    except TaskprotoError:
        return []

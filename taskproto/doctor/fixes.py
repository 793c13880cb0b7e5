"""The safe fixes, one per check id. Each holds the task's lock, re-checks what it saw, and logs a
repair entry.

A fix returns what it did, or raises TaskprotoError (WorkAtRisk when going on
could lose a commit or an uncommitted change); it never deletes work.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from taskproto.config import ensure_root
from taskproto.doctor.checks import ref_lock_stale, tmp_stale
from taskproto.doctor.model import Finding, Option
from taskproto.doctor.repair import (
    journal_task,
    reconstruct,
    repair_entry,
    repairing,
)
from taskproto.engine import Engine
from taskproto.errors import CorruptState, TaskprotoError
from taskproto.sessions import owner_gone
from taskproto.state import journal, store
from taskproto.state.models import AgentState, AgentStatus, Task, utcnow
from taskproto.state.record import RecordError


@dataclass
class FixContext:
    engine: Engine
    retry_agents: bool = False
    pruned: bool = False
    raw_workflows: dict[str, str | None] = field(default_factory=dict)


Fix = Callable[[FixContext, Finding], str]
FIXES: dict[str, Fix] = {}
# The options a person may choose when a check's fix cannot decide alone (its escalation's, and
# what `recover TASK --option N` carries out); worked out when asked, never while detecting.
Offer = Callable[[Engine, Finding], tuple[Option, ...]]
OFFERS: dict[str, Offer] = {}

# Order matters: the task record first, then branches, then worktrees on them, then the rest.
ORDER = [
    "task-create-interrupted",
    "task-folder-missing",
    "lock-missing",
    "lock-invalid-json",
    "lock-schema-invalid",
    "journal-ref-locked",
    "journal-missing",
    "journal-corrupt",
    "task-stale-copy",
    "journal-ahead",
    "task-forged",
    "journal-behind",
    "state-log-mismatch",
    "agent-status-not-journaled",
    "log-empty",
    "tmp-file-leftover",
    "heartbeat-corrupt",  # before owner-gone: the owner's liveness read from a heartbeat again
    "owner-gone",
    "worktree-moved",
    "worktree-set-aside",
    "worktree-prunable",
    "task-branch-missing",
    "agent-branch-missing",
    "worktree-unregistered",
    "worktree-wrong-branch",
    "task-worktree-missing",
    "agent-worktree-missing",
    "agent-status-missing",
    "agent-status-corrupt",
    "agent-error-retryable",
    "agent-timeout",
    "approval-stale",
    "hook-records-moved",  # after the worktrees are linked again: init's record lists their files
    "client-hooks-interpreter-missing",
    "client-hooks-other-package",
    "client-hooks-in-shared-settings",
    "orphan-worktree",
    "orphan-branch",
    "agent-unsupervised",  # last: the supervisor it starts reads the repaired records
]


def fix(*ids: str) -> Callable[[Fix], Fix]:
    def register(fn: Fix) -> Fix:
        for i in ids:
            FIXES[i] = fn
        return fn

    return register


def offers(*ids: str) -> Callable[[Offer], Offer]:
    def register(fn: Offer) -> Offer:
        for i in ids:
            OFFERS[i] = fn
        return fn

    return register


def name_of(f: Finding) -> str:
    assert f.task is not None
    return f.task


@fix("task-folder-missing")
def restore_folder(ctx: FixContext, f: Finding) -> str:
    engine, name = ctx.engine, name_of(f)
    found = journal_task(engine, name)
    if found is None:
        raise TaskprotoError(f"the journal of {name} holds no readable task.json")
    sha, task = found
    ensure_root(engine.config)
    task_dir = engine.config.task_dir(name)
    # FileExistsError: another process restored it meanwhile; reported as a failure
    task_dir.mkdir()
    with engine.lock(name):
        for agent in task.required_agents:
            data = journal.read_file(engine.repo, sha, journal.status_entry(agent))
            if data is not None:
                path = engine.config.status_file(name, agent)
                path.parent.mkdir(parents=True, exist_ok=True)
                store.atomic_write(path, data)
        note = f"task folder was missing; restored task.json from journal commit {sha[:12]}"
        task.transition_log.append(repair_entry(task.state, f.check, note))
        engine.save(None, task, f"repair {f.check}: {note}")
    return note


@fix("lock-missing", "lock-invalid-json", "lock-schema-invalid")
def rebuild(ctx: FixContext, f: Finding) -> str:
    engine, name = ctx.engine, name_of(f)
    with engine.lock(name) as path:
        kept = ""
        if os.path.lexists(path):
            try:
                store.load_task(path)
                return "task.json is readable again; nothing to do"
            except CorruptState:
                kept = f"; the corrupt file was kept as {store.quarantine(path).name}"
        found = journal_task(engine, name)
        if found is not None:
            sha, task = found
            note = f"task.json rebuilt from journal commit {sha[:12]}{kept}"
            task.transition_log.append(repair_entry(task.state, f.check, note))
        else:
            task = reconstruct(engine, name, ctx.raw_workflows.get(name), f.check)
            note = (
                f"task.json reconstructed without a journal (state {task.state}, needs "
                f"review){kept}"
            )
        engine.save(None, task, f"repair {f.check}: {note}")
    return note


@fix("log-empty")
def refill_log(ctx: FixContext, f: Finding) -> str:
    engine, name = ctx.engine, name_of(f)
    with repairing(engine, name, f.check) as r:
        if r.new.transition_log:
            return "the log is no longer empty; nothing to do"
        for commit in journal.history(engine.repo, journal.ref_for(name)):
            try:
                older = Task.model_validate_json(commit.files.get(journal.TASK_FILE, b""))
            except RecordError:
                continue
            if older.transition_log and older.state == r.new.state:
                r.new.transition_log = list(older.transition_log)
                r.new.log_count, r.new.reached = older.log_count, dict(older.reached)
                r.notes.append(
                    f"the transition log was empty; restored it from journal commit "
                    f"{commit.sha[:12]}"
                )
                return r.notes[-1]
        r.new.needs_review = True
        r.baseline = True  # the entry sets the state from nothing: the log starts over here
        r.notes.append(
            "the transition log was empty and the journal cannot vouch for state "
            f"{r.new.state}; kept the state as found, needs review"
        )
    return r.notes[-1]


@fix("owner-gone")
def release_owner(ctx: FixContext, f: Finding) -> str:
    engine = ctx.engine
    with repairing(engine, name_of(f), f.check) as r:
        owner = r.new.owner
        reason = (
            owner_gone(
                owner, utcnow(), engine.config.lease_minutes, engine.config.task_dir(r.new.name)
            )
            if owner
            else None
        )
        if owner is None or reason is None:
            return "the owner is back or already released; nothing to do"
        r.new.owner = None
        r.notes.append(f"released session {owner.session}: {reason}")
    return r.notes[-1]


def _delete_stale(
    ctx: FixContext, f: Finding, stale: Callable[[Path, float], str | None], what: str, alive: str
) -> str:
    """Delete a leftover file under the task's lock, only if it is still provably stale then."""
    assert f.path is not None
    path = Path(f.path)
    with repairing(ctx.engine, name_of(f), f.check) as r:
        reason = stale(path, utcnow().timestamp())
        if reason is None:
            return f"{path.name} is gone or {alive}; left alone"
        path.unlink()
        r.notes.append(f"deleted {what}{path.name} ({reason})")
    return r.notes[-1]


@fix("tmp-file-leftover")
def remove_tmp(ctx: FixContext, f: Finding) -> str:
    return _delete_stale(ctx, f, tmp_stale, "", "its writer may be alive")


@fix("journal-ref-locked")
def remove_ref_lock(ctx: FixContext, f: Finding) -> str:
    return _delete_stale(
        ctx, f, ref_lock_stale, "git's stale ref lock ", "fresh (a git process may hold it)"
    )


@fix("agent-status-missing", "agent-status-corrupt")
def restore_status(ctx: FixContext, f: Finding) -> str:
    engine, agent = ctx.engine, str(f.agent)
    path = engine.config.status_file(name_of(f), agent)
    with repairing(engine, name_of(f), f.check) as r:
        kept = ""
        if os.path.lexists(path):
            try:
                store.load_status(path)
                return "status.json is readable again; nothing to do"
            except CorruptState:
                kept = f"; the corrupt file was kept as {store.quarantine(path).name}"
        status, source = None, "a fresh PENDING status"
        head = journal.head(engine.git, r.new.name)
        data = journal.read_file(engine.repo, head, journal.status_entry(agent)) if head else None
        if data is not None and head is not None:
            try:
                status, source = (
                    AgentStatus.model_validate_json(data),
                    f"journal commit {head[:12]}",
                )
            except RecordError:
                status = None
        path.parent.mkdir(parents=True, exist_ok=True)
        store.save_status(path, status or AgentStatus(agent=agent, updated_at=utcnow()))
        r.notes.append(f"restored {agent}'s status.json from {source}{kept}")
    return r.notes[-1]


def requeue(engine: Engine, name: str, agent: str, trigger: str, kind: str = "repair") -> str:
    """PENDING with retry_count + 1, under the task's lock, logged; refuses at the retry maximum."""
    path = engine.config.status_file(name, agent)
    with engine.locked(name, verify=False) as task:
        status = store.load_status(path, move_aside=True)
        if status.status == AgentState.COMPLETE:
            return f"{agent} is COMPLETE; nothing to do"
        if status.retry_count >= engine.config.max_retries:
            raise TaskprotoError(
                f"{agent} has used {status.retry_count} of {engine.config.max_retries} retries; "
                "escalate instead"
            )
        new = status.model_copy(
            update={
                "status": AgentState.PENDING,
                "retry_count": status.retry_count + 1,
                "updated_at": utcnow(),
                "error_message": None,
            }
        )
        store.save_status(path, new)
        note = (
            f"re-queued {agent} after {status.status.value} (retry {new.retry_count} of "
            f"{engine.config.max_retries})"
        )
        updated = task.model_copy(deep=True)
        updated.transition_log.append(
            repair_entry(task.state, trigger, note).model_copy(update={"kind": kind})
        )
        engine.save(task, updated, f"{trigger}: {note}")
    return note


@fix("agent-error-retryable", "agent-timeout")
def retry_agent(ctx: FixContext, f: Finding) -> str:
    return requeue(ctx.engine, name_of(f), str(f.agent), f.check)


@fix("approval-stale")
def mark_stale(ctx: FixContext, f: Finding) -> str:
    engine, name = ctx.engine, name_of(f)
    approval = engine.load(name, verify=False).checkpoint.commit_approval
    head = engine.branch_head(name)
    reason = (
        f"branch {name} moved from {str(approval.sha if approval else '?')[:12]} to "
        f"{(head or 'nowhere')[:12]}"
    )
    if not engine.mark_approval_stale(name, reason, repair=f.check):
        return "the approval is current or already marked stale; nothing to do"
    return f"marked the approval stale: {reason}"

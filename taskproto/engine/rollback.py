"""The user's corrections: return a task to an earlier point of its own log, acknowledge a review.

A rollback is a new journaled step, never a rewrite: the log gains a `rollback` entry from the
current state back to a state the log reached before, and approvals recorded after that point
are revoked (kept in `checkpoint.revoked`, no longer counted by any guard). Both are the
user's: an agent is refused (docs/agents.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from taskproto.engine.core import Core
from taskproto.errors import TaskprotoError, Untrusted
from taskproto.state import integrity, journal, store
from taskproto.state.models import Approval, LogEntry, Task, enters, utcnow


@dataclass
class Target:
    state: str
    since: datetime  # when the task was last in that state: approvals after it are revoked
    where: str  # in words: "log entry 4" or "revision 3"


def _by_state(task: Task, state: str) -> Target:
    """The last time the task entered `state`: its log entry when task.json still holds it (the
    log's tail), else the time task.json keeps for every state it entered (`reached`)."""
    if state not in task.reached:
        seen = ", ".join(task.reached) or task.state
        raise TaskprotoError(
            f"task {task.name} was never in {state}; its log reached {seen}: pick one "
            f"of those (`taskproto log {task.name}`)"
        )
    if state == task.state:
        raise TaskprotoError(f"task {task.name} is in {state} already; nothing to roll back")
    held = [
        (i, e)
        for i, e in enumerate(task.transition_log)
        if e.to_state == state and enters(e) and e.kind != "repair"
    ]
    if held:
        i, entry = held[-1]
        return Target(state, entry.time, f"log entry {task.log_offset + i + 1}")
    since = task.reached[state]
    return Target(state, since, f"its last entry to {state} ({since:%Y-%m-%d %H:%M:%S}Z)")


def _by_revision(core: Core, task: Task, revision: int) -> Target:
    if revision >= task.revision:
        raise TaskprotoError(
            f"task {task.name} is at revision {task.revision}; --revision must be an earlier one"
        )
    for commit in journal.history(core.repo, journal.ref_for(task.name)):
        found, _ = integrity.parse(commit.message.encode())
        data = commit.files.get(journal.TASK_FILE)
        if found == revision and data is not None:
            then = Task.model_validate_json(data)
            return Target(then.state, then.updated_at, f"revision {revision}")
    raise TaskprotoError(
        f"the journal of {task.name} has no revision {revision}; see `taskproto log {task.name}` "
        f"or `git log {journal.ref_for(task.name)}`"
    )


def rollback(
    core: Core, name: str, state: str | None, revision: int | None, session: str | None
) -> tuple[Task, list[Approval]]:
    """Return task `name` to `state` (or to its state at journal `revision`). User only."""
    core.require_user("roll a task back")
    if (state is None) == (revision is None):
        raise TaskprotoError("name one point to roll back to: --to STATE or --revision N")
    with core.locked(name, verify=False) as task:
        # the journal must vouch for the task (doctor first), but an unknown state is exactly what
        # a rollback is for
        data = store.read_bytes(core.config.task_file(name))
        found = integrity.check(core.config.layout.dirs, name, data)
        if found is not None:
            raise Untrusted(name, found[0], integrity.refusal(name, found))
        target = _by_state(task, state) if state else _by_revision(core, task, int(revision or 0))
        wf = core.workflow(task)
        if not wf.has_state(target.state):
            raise TaskprotoError(
                f"workflow {wf.name} has no state {target.state!r} any more; restore the workflow "
                "or pick another point"
            )
        now = utcnow()
        new = task.model_copy(deep=True)
        revoked = _revoke(new, target, now)
        new.state = target.state
        what = ", ".join(f"{a.kind} approval" for a in revoked)
        new.transition_log.append(
            LogEntry(
                from_state=task.state,
                to_state=target.state,
                trigger="rollback",
                time=now,
                session=session,
                kind="rollback",
                note=f"rolled back by the user to {target.where}"
                + (f"; revoked the {what}" if revoked else ""),
            )
        )
        core.save(task, new, f"rollback: {task.state} -> {target.state} ({target.where})")
    return new, revoked


def _revoke(task: Task, target: Target, now: datetime) -> list[Approval]:
    revoked: list[Approval] = []
    cp = task.checkpoint
    for kind in ("plan", "commit"):
        slot = f"{kind}_approval"
        approval: Approval | None = getattr(cp, slot)
        if approval is not None and approval.at > target.since:
            approval = approval.model_copy(
                update={
                    "kind": kind,
                    "revoked_at": now,
                    "revoked_reason": f"recorded after the rollback point ({target.where})",
                }
            )
            revoked.append(approval)
            setattr(cp, slot, None)
    cp.revoked.extend(revoked)
    return revoked


def acknowledge(core: Core, name: str, session: str | None) -> Task:
    """The user's word on what doctor asked them about, journaled; user only: a task doctor
    rebuilt is reviewed (`needs_review` cleared), and an approval recorded as the owner's session
    by a process with no terminal is theirs (kept in `context`, doctor's `approval-no-terminal`
    no longer names it)."""
    from taskproto.clients.approver import KEPT, approval_key, no_terminal

    core.require_user("acknowledge a review")

    def change(task: Task) -> tuple[Task, str]:
        unvouched = no_terminal(task)
        if not task.needs_review and not unvouched:
            raise TaskprotoError(
                f"task {name} does not need a review and has no approval recorded without a "
                "terminal; nothing to acknowledge"
            )
        new = task.model_copy(deep=True)
        notes, done = [], []
        if task.needs_review:
            new.needs_review = False
            notes.append(f"the user reviewed the task and accepts state {task.state}")
            done.append(f"reviewed in {task.state}")
        if unvouched:
            keys = [approval_key(kind, approval) for kind, approval in unvouched]
            new.context[KEPT] = [*(task.context.get(KEPT) or []), *keys]
            kinds = " and ".join(kind for kind, _ in unvouched)
            notes.append(f"the user keeps the {kinds} approval recorded with no terminal as theirs")
            done.append(f"{kinds} approval kept")
        new.record(
            trigger="ack", time=utcnow(), session=session, kind="note", note="; ".join(notes)
        )
        return new, f"ack: {'; '.join(done)}"

    return core.mutate(name, change)

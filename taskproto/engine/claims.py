"""Who owns a task: claims, takeovers, releases and heartbeats, here and on the shared remote.

With a shared remote, a claim is first won on the remote (a compare-and-swap of its claim
ref); the local claim follows only then, and the remote claim is given back if the local
one fails. A task that waits for others (engine/deps.py) is refused unless the user forces it.
An unnamed claim takes the most urgent ready task (engine/ready.py); with a shared remote it
syncs first, so the queue is the remote's, and each candidate is won by the same
compare-and-swap as a named claim.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from taskproto.engine import ready
from taskproto.engine.core import Core
from taskproto.engine.deps import Blocked, Waiting, describe
from taskproto.engine.startpoint import catch_up
from taskproto.engine.sync import ensure_worktrees, sync
from taskproto.errors import OwnershipError, SessionRequired, TaskNotFound, TaskprotoError
from taskproto.names import TaskName, task_name
from taskproto.remote import (
    ClaimPlan,
    ClaimRaced,
    JournalAhead,
    RemoteClaim,
    RemoteClaimHeld,
    RemoteError,
)
from taskproto.sessions import hostname, liveness, process_gone, span
from taskproto.state import beat, registry
from taskproto.state.models import Owner, Task, utcnow


class OwnerGone(TaskprotoError):
    """A heartbeat refused: the claim's process on this host no longer exists, so its claim on the
    shared remote is left to expire rather than renewed for a session that is gone."""

    def __init__(self, task: str, pid: int, remote: bool = True) -> None:
        self.task, self.pid = task, pid
        fate = "it expires after the lease" if remote else "any session may take the task over now"
        super().__init__(
            f"the claim of task {task!r} was made from this host by pid {pid}, which no longer "
            f"exists, so it is not renewed: {fate}; to go on with the task, "
            f"claim it again from a live session (`taskproto claim {task}`)"
        )


@dataclass
class ClaimResult:
    task: Task
    outcome: str  # claimed | renewed | takeover | forced
    previous: Owner | None = None
    reason: str | None = None


def claim(
    core: Core, name: str, session: str | None, pid: int | None = None, force: bool = False
) -> ClaimResult:
    if not session:
        raise SessionRequired("claim")
    core.check_force(force)
    if core.remote is None:
        return _claim_here(core, name, session, pid, force)
    remote = core.remote
    if not core.config.task_dir(task_name(name)).is_dir():
        raise TaskNotFound(
            name,
            f"no task named {name!r} on this machine; run `taskproto sync` to fetch the "
            f"tasks of remote {remote.name!r}, or create it",
        )
    task = core.load(name)
    _blockers(core, task, session, force)  # refused before the network is touched
    fresh = False
    try:
        for attempt in range(6):
            # decided from our view of the remote (RemoteClaimHeld before anything is written);
            # the local claim's save then pushes claim and journal commit in one atomic push
            plan = remote.plan_claim(name, session, pid, force, fresh)
            if attempt == 0:
                ensure_worktrees(core, task)
            try:
                result = _claim_here(core, name, session, pid, force, _expired(remote.name, plan))
                # nothing to save here (renewed as it was): the claim goes alone, with our journal
                remote.finish_claim(name, core.journal_head(name))
                return result
            except ClaimRaced:
                fresh = True  # lost a race; the save undid itself: look again, decide again
    finally:
        remote.forget(name)
    raise RemoteError(
        remote.name, f"claiming {name}", "the claim changed on every attempt; try again"
    )


def _blockers(core: Core, task: Task, session: str, force: bool) -> list[Waiting]:
    """What `task` waits for; refused (Blocked) unless this session owns it already or the user
    forces it (then the claim's log entry says what it overrode)."""
    if task.owner is not None and task.owner.session == session:
        return []
    waits = ready.waits_for(core, task)
    if waits and not force:
        hint = "; run `taskproto sync` if they finished elsewhere" if core.remote else ""
        raise Blocked(
            task.name,
            waits,
            f"claim it when they are done (`taskproto ready` lists what can start{hint}), "
            "or claim it anyway with --force (the user's, logged)",
        )
    return waits


def _expired(remote: str, plan: ClaimPlan) -> tuple[str, str] | None:
    """(session, why it is gone) of the remote claim a takeover replaces: the remote's heartbeat,
    which the owner's machine renews, is newer than any this clone's journal holds."""
    held = plan.previous
    if plan.outcome != "takeover" or held is None:
        return None
    age = (utcnow() - held.heartbeat_at).total_seconds()
    lease = (held.expires_at - held.heartbeat_at).total_seconds()
    return held.session, (
        f"its last heartbeat was {span(age)} ago (lease {span(lease)}): its claim on remote "
        f"{remote!r} expired at {held.expires_at:%H:%M:%S}Z"
    )


def _claim_here(
    core: Core,
    name: str,
    session: str,
    pid: int | None,
    force: bool,
    expired: tuple[str, str] | None = None,
) -> ClaimResult:
    outcome: dict[str, Any] = {}

    def change(task: Task) -> tuple[Task, str] | None:
        now = utcnow()
        new = task.model_copy(deep=True)
        previous = task.owner
        if previous is not None and previous.session == session:
            outcome.update(outcome="renewed")
            if not pid or pid == previous.pid:
                beat_now(core, task.name, session, previous.pid)  # liveness: not a change
                return None
            # the same session from another process (a restarted client): the owner's pid is part
            # of the record, so the change is journaled like any other
            new.owner = previous.model_copy(update={"heartbeat_at": now, "pid": pid})
            return new, f"renew: {session} now runs as pid {pid}"
        overridden = _blockers(core, task, session, force)
        kind: Literal["claim", "takeover"] = "claim"
        reason: str | None = None
        forced = False
        if previous is not None:
            reason, beat_at = liveness(
                previous, now, core.config.lease_minutes, core.config.task_dir(task.name)
            )
            if reason is not None and beat_at is not None and expired is not None:
                if expired[0] == previous.session:  # gone by its heartbeat: the remote's is newer
                    reason = expired[1]
            if reason is not None:
                kind = "takeover"
            elif force:
                kind, forced, reason = (
                    "takeover",
                    True,
                    "forced with --force while the owner was live",
                )
            else:
                raise core.owner_error(
                    task, "wait for it to be released, or take over with --force (logged)"
                )
        new.owner = Owner(
            session=session, host=hostname(), pid=pid, claimed_at=now, heartbeat_at=now
        )
        if task.depends_on and not overridden and task.state == core.workflow(task).initial:
            new = catch_up(core, new, session)  # starts from the code it waited for
        if task.context.get("worktrees") == "at claim":  # imported: its worktrees are made now
            from taskproto.engine.imported import materialize

            new = materialize(core, new, session)
        note = f"from {previous.session}: {reason}" if previous is not None else None
        label = "forced" if forced else ("takeover" if previous else "claimed")
        if overridden:
            forced = True
            waited = f"claimed with --force while waiting for {describe(overridden)}"
            note = f"{note}; {waited}" if note else waited
        new.record(
            trigger=kind,
            time=now,
            session=session,
            kind=kind,
            forced=forced,
            note=note,
        )
        outcome.update(outcome=label, previous=previous, reason=reason)
        return new, f"{kind}: {session}"

    task = core.mutate(name, change)
    register(core, task)
    previous = outcome.get("previous")
    if previous is not None:
        registry.forget(previous.session, task.name)
    return ClaimResult(task, outcome["outcome"], previous, outcome.get("reason"))


def register(core: Core, task: Task) -> None:
    """Index the owner's claim by session id, so hooks find the task from the session alone."""
    if task.owner is None:
        return
    try:
        registry.record(
            task.owner.session, core.config.layout.main, core.config.layout.root, task.name
        )
    except OSError as exc:  # the claim stands; hooks then find the task from the folder they run in
        core.warnings.append(
            f"could not record session {task.owner.session} in the registry: {exc}"
        )


def claim_next(core: Core, session: str | None, pid: int | None = None) -> ClaimResult:
    """Claim the most urgent ready task (engine/ready.py): priority, then age. A task this session
    already owns comes first (renewed). With a shared remote, sync first, so the queue is the
    remote's; a candidate lost to another machine's compare-and-swap is skipped for the next."""
    if not session:
        raise SessionRequired("claim")
    held: dict[str, RemoteClaim] = {}
    if core.remote is not None:
        report = sync(core)
        held = report.claims
        for name, why in report.rejected.items():
            core.warnings.append(f"sync: {name} not pushed ({why})")
    for name in core.task_names():
        remote_claim = held.get(name)
        if remote_claim is not None and remote_claim.session == session:
            return claim(core, name, session, pid)
    q = ready.queue(core, held)
    for entry in q.entries:
        task = entry.task
        if task.owner is not None and task.owner.session == session and not _done(core, task):
            return claim(core, task.name, session, pid)
    skipped: list[TaskName] = []
    for entry in q.ready:
        try:
            return claim(core, entry.task.name, session, pid)
        except (OwnershipError, Blocked):
            continue  # lost the race for this one (or it changed meanwhile); try the next
        except JournalAhead:
            skipped.append(task_name(entry.task.name))
    blocked = [e for e in q.entries if e.waits and not e.ready]
    why = f"; {len(blocked)} wait(s) for other tasks" if blocked else ""
    if core.remote is None:
        raise TaskprotoError(f"no task is ready to claim{why} (see `taskproto ready`)")
    hint = (
        f"; {', '.join(skipped)} changed on {core.remote.name!r}: run `taskproto sync`"
        if skipped
        else ""
    )
    raise TaskprotoError(
        f"no task is ready to claim here and on remote {core.remote.name!r}{why}{hint} "
        "(see `taskproto ready`)"
    )


def _done(core: Core, task: Task) -> bool:
    try:
        return core.workflow(task).is_final(task.state)
    except TaskprotoError:
        return False


def release(core: Core, name: str, session: str | None, force: bool = False) -> Task:
    core.check_force(force)

    def change(task: Task) -> tuple[Task, str]:
        if task.owner is None:
            raise TaskprotoError(f"task {name!r} is not claimed by anyone; nothing to release")
        if task.owner.session != session and not force:
            raise core.owner_error(task, "only its owner can release it (or pass --force, logged)")
        new = task.model_copy(deep=True)
        new.owner = None
        new.record(
            trigger="release",
            time=utcnow(),
            session=session,
            kind="release",
            forced=task.owner.session != session,
            note=f"released {task.owner.session}",
        )
        return new, f"release: {task.owner.session}"

    before = core.load(name).owner
    if before is None and core.remote is not None:
        _refuse_unseen_claim(core, name, session)
    released = core.mutate(name, change)
    if before is not None:
        registry.forget(before.session, released.name)
    return released


def _refuse_unseen_claim(core: Core, name: str, session: str | None) -> None:
    """A release of a task not claimed here while the shared remote holds a claim on it (made in
    another clone, not synced here yet): say whose, and what to do, rather than "not claimed".
    When the remote cannot be read, the plain answer stands."""
    assert core.remote is not None
    try:
        held = core.remote.fetch_claims().get(name)
    except RemoteError:
        return
    if held is None:
        return
    then = (
        f"`taskproto release {name}`"
        if held.session == session
        else f"only its owner releases it (or `taskproto release {name} --force`, logged)"
    )
    raise RemoteClaimHeld(
        core.remote.name,
        held,
        f"this clone has not seen that claim yet: run `taskproto sync`, then {then}",
    )


def heartbeat(core: Core, name: str, session: str | None) -> Task:
    """Renew `session`'s claim: the heartbeat file only (liveness is not history: task.json and its
    journal do not change). Returns the task with the new heartbeat time filled in."""
    if not session:
        raise SessionRequired("heartbeat")
    task = core.load(name)
    _refuse_taken_over(task, session)  # before the network is touched
    # a renewed time would say the claim holds, while an owner whose process is gone is gone
    _refuse_gone(task, session, remote=core.remote is not None)
    if core.remote is not None:
        core.remote.renew(name, session)  # the remote's claim is the one that counts
    with core.locked(name) as task:  # the owner checked while no claim can change hands
        if task.owner is None or task.owner.session != session:
            who = f"owned by {task.owner.session}" if task.owner else "not claimed"
            raise TaskprotoError(
                f"task {name!r} is {who}; claim it first with `taskproto claim {name}`"
            )
        task.owner.heartbeat_at = beat_now(core, name, session, task.owner.pid)
    return task


def _refuse_gone(task: Task, session: str, remote: bool) -> None:
    """A claim is renewed only for a session that lives: one whose process on this host is gone
    (sessions.process_gone) is free to take over here, and its remote claim is kept as it is, to
    expire; doctor names it (`remote-claim-dead-session`). `claim` from a live process records
    that process instead."""
    owner = task.owner
    if owner is not None and owner.session == session and process_gone(owner) is not None:
        raise OwnerGone(task.name, owner.pid or 0, remote)


def _refuse_taken_over(task: Task, session: str) -> None:
    """Refuse the heartbeat of a session whose claim another one took over since, saying so."""
    if task.owner is None or task.owner.session == session:
        return
    for entry in reversed(task.transition_log):
        if entry.kind == "takeover" and (entry.note or "").startswith(f"from {session}: "):
            why = (entry.note or "")[len(f"from {session}: ") :]
            at = entry.time.strftime("%Y-%m-%dT%H:%M:%SZ")
            raise TaskprotoError(
                f"your claim on task {task.name!r} was taken over by session {entry.session} at "
                f"{at} ({why}); it is no longer yours: claim it again once it is free, or take "
                "it back with --force (logged)"
            )
        if entry.kind in ("claim", "takeover") and entry.session == session:
            return  # claimed again since: not that takeover's


def beat_now(core: Core, name: str, session: str, pid: int | None) -> datetime:
    """Write the task's heartbeat file for its owner `session`; returns the time written."""
    now = utcnow()
    try:
        kept = beat.write(str(core.config.task_dir(name)), session, pid, now.isoformat())
        if kept is not None:
            core.warnings.append(beat.kept_line(name, kept))
            core.beats_kept[name] = kept
    except OSError as exc:
        core.warnings.append(f"could not write the heartbeat of {name}: {exc.strerror or exc}")
    return now

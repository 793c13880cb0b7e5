"""A task removed here, made known on the shared remote (docs/remote.md, "Removed tasks").

`task remove` publishes the removal as it removes; one made while the remote could not be reached
is published by the next `sync` (its record: `<root>/removals-pending/<task>`, engine/pending.py).
A task removed by a taskproto before removals were published (its journal archived here, no such
record) stays removed here only, as it was then: another machine keeps it. The marker and its
push are described in remote/removal.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from taskproto.engine import pending
from taskproto.engine import worktree as wt
from taskproto.engine.core import Core
from taskproto.git.command import raced, secondary
from taskproto.remote import JournalAhead, RemoteError
from taskproto.remote.removal import marker_commit, removed_ref
from taskproto.sessions import hostname
from taskproto.state import journal

PUBLISHED, ALREADY, UNSHARED = "published", "already", "unshared"


class RemovalRejected(RemoteError):
    """The remote refused the removal's push for a reason that is not a race (permissions, a
    hook): unlike an unreachable remote, the removal is refused here too."""


def publish(core: Core, task: str, head: str, session: str | None, removed_at: datetime) -> str:
    """Push the removal marker of `task` (its journal here at `head`) and delete the remote's
    journal of it, in one atomic push expecting the head the remote has now.

    Returns PUBLISHED, ALREADY (another machine removed it there first) or UNSHARED (the remote
    never had its journal). Raises JournalAhead when the remote's journal holds changes this
    machine has not seen (another machine's change won: sync, then decide again), RemoteError when
    the remote cannot be reached or refused the push.
    """
    remote = core.remote
    assert remote is not None
    git, jref, mref = remote.git, journal.ref_for(task), removed_ref(task)
    with remote.network(f"removing {task}"):
        there = git.ls_remote(remote.name, [jref, mref])
    remote_head, marker = there.get(jref), there.get(mref)
    if remote_head is None:
        return ALREADY if marker is not None else UNSHARED
    if remote_head != head and not git.is_ancestor(remote_head, head):
        raise JournalAhead(remote.name, task, f"remote {remote_head[:12]}, here {head[:12]}")
    sha = marker_commit(git, task, head, session, hostname(), removed_at)
    with remote.network(f"removing {task}"):
        statuses = git.push(
            remote.name, [f"{sha}:{mref}", f":{jref}"], {mref: marker, jref: remote_head}, True
        )
    bad = [s for s in statuses.values() if not s.ok]
    if bad or len(statuses) < 2:
        first = next((s for s in bad if not secondary(s)), None)
        # the journal (or a marker) moved since we looked; a server's atomic failure names no
        # other reason: that is our compare-and-swap too
        if bad and (first is None or raced(first)):
            raise JournalAhead(remote.name, task, f"it changed meanwhile: {bad[0].summary}")
        raise RemovalRejected(
            remote.name, f"removing {task}", first.summary if first else "push rejected"
        )
    git.run("update-ref", f"{remote.tracking}removed/{task}", sha, check=False)
    git.run("update-ref", "-d", remote.tracked_task_ref(task), check=False)
    return PUBLISHED


def stamp_time(archive_ref: str) -> datetime:
    """When a task was removed here, from its archived journal's ref (`.../<task>/<stamp>`)."""
    try:
        return datetime.strptime(archive_ref.rsplit("/", 1)[-1], "%Y%m%dT%H%M%SZ").replace(
            tzinfo=UTC
        )
    except ValueError:
        return datetime.now(UTC)


def on_remove(
    core: Core, task: str, agents: Sequence[str], force: bool, session: str | None
) -> str | None:
    """`task remove` with a shared remote: publish the removal before anything is removed here
    (a removal that would be refused here is refused first); not a landed task's (`land`'s own
    clean-up, or a landed task removed later: sync says "landed elsewhere"). Returns a note when
    the remote could not be told (the next `sync` tells it; nothing is lost meanwhile), else
    None."""
    head = journal.head(core.git, task)
    if core.remote is None or head is None:
        return None
    landed = journal.task_json_at(core.repo, head)
    if landed and landed.get("landed"):
        return None  # a landed task's journal stays on the remote: others see it landed
    plan = wt.plan_removal(core.config, core.repo, task, agents)
    wt.check_removal(core.config, plan, task, force)
    try:
        publish(core, task, head, session, datetime.now(UTC))
    except RemovalRejected:
        raise  # the server said no (permissions, hooks): nothing is removed
    except RemoteError as exc:  # it could not be reached: removed here, published by `sync`
        pending.mark(core, pending.REMOVALS, task, head)
        return (
            f"remote {exc.remote!r} was not told ({exc.detail}); the next `taskproto sync` tells it"
        )
    return None

"""Claims made here before the shared remote was turned on, published on it (docs/remote.md,
"Turning it on").

`init --remote` publishes every claim this machine holds that the remote does not, each by the
claim's own compare-and-swap (engine/claims.py: `plan_claim`, then one atomic push of the claim and
its journal). A claim another session already holds on the remote is a conflict: reported, nothing
overwritten. When the remote cannot be reached, each claim is recorded as pending
(`<root>/claims-pending/<task>`, engine/pending.py: the owner's session in it) and the next
`sync` publishes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taskproto.engine import pending
from taskproto.engine.core import Core
from taskproto.errors import TaskprotoError
from taskproto.remote import ClaimRaced, JournalAhead, RemoteClaim, RemoteClaimHeld, RemoteError
from taskproto.sessions import process_gone
from taskproto.state.models import Task


@dataclass
class ClaimsPublished:
    published: list[str] = field(default_factory=list)
    conflicts: dict[str, str] = field(default_factory=dict)  # task -> why it was not published
    pending: list[str] = field(default_factory=list)  # the next sync publishes them
    unreachable: str | None = None  # why the remote could not be told

    def as_dict(self) -> dict[str, Any]:
        return {
            "published": self.published,
            "conflicts": self.conflicts,
            "pending": self.pending,
            "unreachable": self.unreachable,
        }


def _owned(core: Core, names: list[str] | None) -> list[Task]:
    """The tasks with an owner here (all, or those of `names` still here)."""
    found, _broken = core.load_many(names)  # a broken one is doctor's to report
    return [t for t in found.values() if t.owner is not None]


def publish_all(core: Core) -> ClaimsPublished:
    """`init --remote`: publish every claim held here that the remote does not hold. A task
    whose task.json cannot be trusted and whose journal names an owner is not published, and
    said so: doctor restores it, then init publishes it."""
    assert core.remote is not None
    found, broken = core.load_many(None)
    owned = [t for t in found.values() if t.owner is not None]
    unread = {name: why for name, why in broken.items() if _journal_owner(core, name)}
    if not owned:
        return _unread(core, unread, ClaimsPublished())
    try:
        held = core.remote.fetch_claims()
    except RemoteError as exc:
        done = ClaimsPublished(unreachable=exc.detail)
        for task in owned:
            assert task.owner is not None
            pending.mark(core, pending.CLAIMS, task.name, task.owner.session)
            done.pending.append(task.name)
        return _unread(core, unread, done)
    return _unread(core, unread, _publish(core, owned, held))


def _journal_owner(core: Core, name: str) -> bool:
    """Whether the journal's newest record of task `name` has an owner."""
    from taskproto.state import journal

    head = core.journal_head(name)
    data = journal.task_json_at(core.repo, head) if head else None
    return bool(data and data.get("owner"))


def _unread(core: Core, unread: dict[str, str], done: ClaimsPublished) -> ClaimsPublished:
    """The claims of tasks that cannot be read here, each a conflict line saying what to do."""
    assert core.remote is not None
    for name, why in sorted(unread.items()):
        why = why.split("; run `taskproto doctor", 1)[0]  # said next, with the init after it
        done.conflicts[name] = (
            f"{why}; run `taskproto doctor --fix`, then `taskproto init --remote "
            f"{core.remote.name}` again"
        )
    return done


def publish_pending(core: Core, held: dict[str, RemoteClaim]) -> ClaimsPublished:
    """`sync`: publish the claims recorded as pending, against the claims it just fetched. A
    record whose task is gone or no longer owned by that session is dropped: nothing to publish."""
    names = pending.tasks(core, pending.CLAIMS)
    if not names:
        return ClaimsPublished()
    sessions = {name: pending.read(core, pending.CLAIMS, name) for name in names}
    known = set(core.task_names())
    owned = [
        t
        for t in _owned(core, [n for n in names if n in known])
        if t.owner is not None and t.owner.session == sessions.get(t.name)
    ]
    for name in set(names) - {t.name for t in owned}:
        pending.clear(core, pending.CLAIMS, name)
    return _publish(core, owned, held)


def _publish(core: Core, owned: list[Task], held: dict[str, RemoteClaim]) -> ClaimsPublished:
    remote = core.remote
    assert remote is not None
    done = ClaimsPublished()
    for task in sorted(owned, key=lambda t: t.name):
        owner = task.owner
        assert owner is not None
        there = held.get(task.name)
        if there is not None and there.session == owner.session:
            pending.clear(
                core, pending.CLAIMS, task.name
            )  # published already (a claim or a renewal)
            continue
        if process_gone(owner) is not None:
            # its session's process is gone: published now, the claim would look fresh on the
            # remote for a session nobody runs (as a heartbeat is refused for it: claims.py)
            pending.clear(core, pending.CLAIMS, task.name)
            done.conflicts[task.name] = (
                f"its session {owner.session}'s process {owner.pid} on this host is gone, so the "
                f"claim was not published; claim it again from a live session (`taskproto claim "
                f"{task.name}`)"
            )
            continue
        try:
            if there is not None:  # never a takeover, even of an expired claim: the user decides
                raise RemoteClaimHeld(remote.name, there, _conflict(task.name))
            remote.plan_claim(task.name, owner.session, owner.pid)
            remote.finish_claim(task.name, core.journal_head(task.name))
        except ClaimRaced:  # claimed there since the claims were read: say by whom
            done.conflicts[task.name] = _raced(core, task.name)
        except (RemoteClaimHeld, JournalAhead) as exc:
            done.conflicts[task.name] = str(exc)
        except RemoteError as exc:
            pending.mark(core, pending.CLAIMS, task.name, owner.session)
            done.pending.append(task.name)
            done.unreachable = exc.detail
        except TaskprotoError as exc:  # removed there since, say: said, the others go on
            done.conflicts[task.name] = str(exc)
        else:
            done.published.append(task.name)
            pending.clear(core, pending.CLAIMS, task.name)
            continue
        finally:
            remote.forget(task.name)
        if task.name in done.conflicts:
            pending.clear(
                core, pending.CLAIMS, task.name
            )  # told once; doctor's remote-claim-unknown keeps saying it
    return done


def _conflict(task: str) -> str:
    return (
        "the claim here was not published and nothing was overwritten: release it here "
        f"(`taskproto release {task}`), or have that session release it and run `taskproto "
        f"claim {task}`"
    )


def _raced(core: Core, task: str) -> str:
    assert core.remote is not None
    try:
        there = core.remote.fetch_claims().get(task)
    except TaskprotoError as exc:
        return f"claimed on remote {core.remote.name!r} meanwhile ({exc})"
    if there is None:
        return f"its claim changed on remote {core.remote.name!r} meanwhile; run `taskproto sync`"
    return str(RemoteClaimHeld(core.remote.name, there, _conflict(task)))

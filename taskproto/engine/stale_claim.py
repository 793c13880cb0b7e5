"""The refusal of a command only a task's owner may run, when the owner recorded here is another
session: with a shared remote, that claim may be stale (released or taken over on another clone,
not synced here), and the line says so and names `taskproto sync` instead of sending the user to
wait for an owner that is no longer one. Asked of the remote's claims (one fetch) only on this
refusal's path; the command does not sync by itself (docs/remote.md says why)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from taskproto.config import Config
    from taskproto.errors import OwnershipError
    from taskproto.remote import Remote
    from taskproto.state.models import Task


def owner_error(config: Config, remote: Remote | None, task: Task, action: str) -> OwnershipError:
    """Task `task` is another session's: `action` says what to do, unless its owner is provably
    gone (sessions.owner_error) or the shared remote holds no claim of that owner on it."""
    from taskproto.sessions import owner_error as local

    assert task.owner is not None
    lease, folder = config.lease_minutes, config.task_dir(task.name)
    return local(task.name, task.owner, lease, folder, stale(remote, task) or action)


def stale(remote: Remote | None, task: Task) -> str | None:
    """What to do when the remote says the owner recorded here holds no claim on `task`, or None
    (no remote, the remote agrees, or it cannot be read: the plain line stands)."""
    from taskproto.remote import RemoteError

    if remote is None or task.owner is None:
        return None
    try:
        held = remote.fetch_claims().get(task.name)
    except RemoteError:
        return None
    owner = task.owner.session
    if held is not None and held.session == owner:
        return None
    there = "no claim" if held is None else f"session {held.session}'s claim, not {owner}'s,"
    return (
        f"that claim may be stale: remote {remote.name!r} holds {there} on it (changed on "
        "another clone, not synced here): run `taskproto sync`, then try again"
    )

"""What the remote coordination passes around: claims as read from the remote, a claim decided
and not yet pushed, what a journaled change must push, and the errors (taskproto/remote/)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from taskproto import plainjson as json
from taskproto.errors import OwnershipError, TaskprotoError, when


class RemoteError(TaskprotoError):
    """The remote could not be reached, or refused us for a reason that is not another claim."""

    def __init__(self, remote: str, what: str, detail: str) -> None:
        self.remote, self.what, self.detail = remote, what, detail
        super().__init__(f"remote {remote!r}: {what} failed: {detail}; nothing was changed locally")


class RemoteClaimHeld(OwnershipError):
    """Another session holds the claim on the remote (an OwnershipError: an unnamed claim skips
    it)."""

    def __init__(self, remote: str, claim: RemoteClaim, action: str) -> None:
        self.remote, self.claim = remote, claim
        TaskprotoError.__init__(
            self,
            f"task {claim.task!r} is claimed on remote {remote!r} by session {claim.session} on "
            f"{claim.host}"
            f"{f' (pid {claim.pid})' if claim.pid else ''} since "
            f"{when(claim.claimed_at)}, "
            f"lease until {when(claim.expires_at)}; {action}",
        )
        self.task, self.owner, self.host = claim.task, claim.session, claim.host
        self.since = when(claim.claimed_at)


class JournalAhead(TaskprotoError):
    def __init__(self, remote: str, task: str, detail: str) -> None:
        self.remote, self.task = remote, task
        super().__init__(
            f"the journal of task {task!r} on remote {remote!r} has changes this machine has not "
            f"seen ({detail}); "
            "run `taskproto sync` first; nothing was changed"
        )


@dataclass(frozen=True)
class RemoteClaim:
    task: str
    sha: str
    session: str
    host: str
    pid: int | None
    claimed_at: datetime
    heartbeat_at: datetime
    expires_at: datetime

    def expired(self, now: datetime) -> bool:
        return now >= self.expires_at

    @classmethod
    def parse(cls, task: str, sha: str, data: bytes | None) -> RemoteClaim:
        try:
            raw = json.loads(data or b"")
            return cls(
                task,
                sha,
                str(raw["session"]),
                str(raw["host"]),
                raw.get("pid"),
                datetime.fromisoformat(raw["claimed_at"]),
                datetime.fromisoformat(raw["heartbeat_at"]),
                datetime.fromisoformat(raw["expires_at"]),
            )
        except (ValueError, KeyError, TypeError):
            # An unreadable claim proves no one alive: it counts as expired, and is only
            # ever replaced by a push that expects exactly this sha.
            epoch = datetime.fromtimestamp(0).astimezone()
            return cls(task, sha, "(unreadable claim)", "?", None, epoch, epoch, epoch)


@dataclass(frozen=True)
class ClaimPlan:
    """A claim decided but not yet pushed: its commit, and the claim it replaces (whose sha is the
    push's lease; None: the ref must not exist)."""

    outcome: str  # claimed | renewed | takeover | forced
    sha: str
    previous: RemoteClaim | None


class ClaimRaced(TaskprotoError):
    """The claim changed on the remote between our look and our push (the push changed nothing)."""

    def __init__(self, remote: str, task: str) -> None:
        super().__init__(f"remote {remote!r}: the claim of {task!r} changed meanwhile; try again")


@dataclass(frozen=True)
class Publish:
    """What a journaled change must push: the remote's journal head it builds on, a claim to
    delete, or a claim to make in the same atomic push (then the journal goes fast-forward)."""

    task: str
    remote_head: str | None
    release_sha: str | None
    claim: ClaimPlan | None = None

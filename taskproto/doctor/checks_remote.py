"""Claims that this machine and the shared remote disagree on (only when `remote` is configured).

A constant cost: one fetch of the claim refs, one ref listing and one blob batch,
however many tasks there are.
"""

from __future__ import annotations

from collections.abc import Iterator

from taskproto.doctor.model import CHECKS, Finding
from taskproto.doctor.snapshot import Snapshot
from taskproto.errors import TaskprotoError


def _finding(check: str, message: str, task: str | None = None, **data: object) -> Finding:
    return Finding(check, CHECKS[check].severity, message, task, None, None, dict(data))


def check_remote(snap: Snapshot) -> Iterator[Finding]:
    name = snap.config.remote
    if not name:
        return
    from taskproto import remote

    try:
        claims = remote.Remote(snap.config).fetch_claims()
    except TaskprotoError as exc:
        yield _finding("remote-unreachable", f"could not read the claims on remote {name!r}: {exc}")
        return
    scope = set(snap.scope) if snap.scope is not None else None
    for item in remote.local_claims_unknown_to_remote(snap.config, claims):
        if scope is not None and item.task not in scope:
            continue
        holder = (
            f"the remote names session {item.remote_holder}"
            if item.remote_holder
            else "the remote has no claim"
        )
        yield _finding(
            "remote-claim-unknown",
            f"owned here by session {item.session}, but {holder}",
            item.task,
            session=item.session,
            remote_holder=item.remote_holder,
        )
    for claim in remote.remote_claims_of_dead_local_sessions(snap.config, claims):
        if scope is not None and claim.task not in scope:
            continue
        yield _finding(
            "remote-claim-dead-session",
            f"the remote claim of session {claim.session} was made from this host by pid {claim.pid}, "
            "which no longer exists",
            claim.task,
            session=claim.session,
            pid=claim.pid,
        )

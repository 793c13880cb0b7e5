"""Claims that this machine and the shared remote disagree on (only when `remote` is configured).

A constant cost: one fetch of the claim refs, one ref listing and one blob batch,
however many tasks there are.
"""

from __future__ import annotations

from collections.abc import Iterator

from taskproto.doctor.model import CHECKS, Finding, Option, Severity, check
from taskproto.doctor.snapshot import Snapshot
from taskproto.errors import TaskprotoError
from taskproto.sessions import hostname, pid_alive

check(
    "remote-tasks-unknown",
    Severity.WARNING,
    "The shared remote has task journals (refs/taskproto/tasks/*) this clone does not know: a "
    "fresh "
    "clone, or another machine's new tasks.",
    None,
    options=(
        Option(
            "Fetch them: `taskproto sync`",
            "this clone sees every task and its claims; nothing local is changed",
            "none",
            command=("taskproto", "sync"),
        ),
    ),
)


check(
    "remote-claim-pending",
    Severity.WARNING,
    "A claim made here waits to be published on the shared remote (it could not be reached, or "
    "the remote was turned on after the claim); until then another machine may take the task.",
    None,
    options=(
        Option(
            "taskproto sync once the remote is reachable",
            "the claim is published by its compare-and-swap",
            "none",
            command=("taskproto", "sync"),
        ),
    ),
)
check(
    "remote-removal-pending",
    Severity.WARNING,
    "A task removed here waits for the shared remote to be told (it could not be reached); until "
    "then the other machines keep the task.",
    None,
    options=(
        Option(
            "taskproto sync once the remote is reachable",
            "the removal is published on the remote",
            "none",
            command=("taskproto", "sync"),
        ),
    ),
)


def _waiting(snap: Snapshot, name: str, reachable: bool) -> Iterator[Finding]:
    """The claims (while the remote cannot be read: else `remote-claim-unknown` names them) and
    the removals recorded here for the next `sync` (engine/pending.py)."""
    from taskproto.engine import pending

    root = str(snap.config.layout.root)
    scope = set(snap.scope) if snap.scope is not None else None
    kinds = [(pending.REMOVALS, "remote-removal-pending", "the removal")]
    if not reachable:
        kinds.insert(0, (pending.CLAIMS, "remote-claim-pending", "the claim"))
    for kind, check_id, what in kinds:
        for task, line in pending.waiting(root, kind).items():
            if scope is not None and task not in scope:
                continue
            whose = f" of session {line}" if kind == pending.CLAIMS and line else ""
            data: dict[str, object] = {"session": line}
            if kind == pending.REMOVALS:  # no task.json to read a state from: it was removed
                data = {
                    "head": line,
                    "state": f"removed here; the removal waits for remote {name!r}: run "
                    "`taskproto sync` once it is reachable",
                    "impact": f"the other machines keep the task until remote {name!r} is told; "
                    "nothing of it is left here",
                    "removed": True,
                }
            yield _finding(
                check_id,
                f"{what}{whose} waits for remote {name!r}; run `taskproto sync` once the remote "
                "is reachable",
                task,
                **data,
            )


def _finding(check: str, message: str, task: str | None = None, **data: object) -> Finding:
    return Finding(check, CHECKS[check].severity, message, task, None, None, dict(data))


def check_remote(snap: Snapshot) -> Iterator[Finding]:
    name = snap.config.remote
    if not name:
        return
    from taskproto.remote import Remote

    try:
        claims = Remote(snap.config).fetch_claims()
    except TaskprotoError as exc:
        yield _finding("remote-unreachable", f"could not read the claims on remote {name!r}: {exc}")
        yield from _waiting(snap, name, reachable=False)
        return
    yield from _waiting(snap, name, reachable=True)
    scope = set(snap.scope) if snap.scope is not None else None
    if scope is None:
        try:
            theirs = Remote(snap.config).known_tasks()
        except TaskprotoError as exc:
            yield _finding("remote-unreachable", f"could not list the tasks on {name!r}: {exc}")
            theirs = {}
        # a task removed here (landed, or `task remove`) whose journal the remote holds as it was
        # archived is known: sync does not bring it back
        unknown = sorted(
            t
            for t in theirs
            if t not in snap.journals
            and t not in snap.tasks
            and snap.archive_heads.get(t) != theirs[t]
        )
        if unknown:
            shown = ", ".join(unknown[:10]) + (
                f" and {len(unknown) - 10} more" if len(unknown) > 10 else ""
            )
            yield _finding(
                "remote-tasks-unknown",
                f"remote {name!r} has {len(unknown)} task(s) this clone does not know ({shown}); "
                "run `taskproto sync` to fetch them",
                tasks=unknown,
            )
    for view in (
        snap.tasks.values()
    ):  # tasks owned here whose claim the remote does not hold for that session
        owner = view.head.owner if view.head is not None else None
        if owner is None:
            continue
        held = claims.get(view.name)
        if held is not None and held.session == owner.session:
            continue
        holder = f"the remote names session {held.session}" if held else "the remote has no claim"
        yield _finding(
            "remote-claim-unknown",
            f"owned here by session {owner.session}, but {holder}",
            view.name,
            session=owner.session,
            remote_holder=held.session if held else None,
        )
    me = hostname()
    for claim in claims.values():  # claims made from this host by a process that no longer exists
        if claim.host != me or claim.pid is None or pid_alive(claim.pid):
            continue
        if scope is not None and claim.task not in scope:
            continue
        yield _finding(
            "remote-claim-dead-session",
            f"the remote claim of session {claim.session} was made from this host by pid "
            f"{claim.pid}, "
            "which no longer exists",
            claim.task,
            session=claim.session,
            pid=claim.pid,
        )

"""Session identity and owner liveness.

The session id has one source of truth: --session, else TASKPROTO_SESSION, else
what an agent client's hook reported, else the session of the person's terminal
(clients/terminal.py, which resolves all four; the terminal's id has its form here).
An owner is gone only when that can be proved: same host and its pid no longer
exists (or now belongs to another process than the terminal's shell it named), or
its heartbeat is older than the lease.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

from taskproto.state import beat

TYPE_CHECKING = False  # SessionStart's offer reads owners on a hot path: no `typing` at run time
if TYPE_CHECKING:
    from typing import Any, Protocol

    from taskproto.errors import OwnershipError

    class Owner(Protocol):
        """What liveness needs of a claim's owner: models.Owner, or the quick readers' view."""

        @property
        def session(self) -> str: ...
        @property
        def host(self) -> str: ...
        @property
        def pid(self) -> int | None: ...
        @property
        def heartbeat_at(self) -> datetime: ...

    class Claim(Owner, Protocol):
        """A claim's owner with its claim time: models.Owner."""

        @property
        def claimed_at(self) -> datetime: ...


SESSION_ENV = "TASKPROTO_SESSION"
PID_ENV = "TASKPROTO_SESSION_PID"
TERMINAL_PREFIX = "tty-"


def resolve_session(explicit: str | None) -> str | None:
    value = explicit or os.environ.get(SESSION_ENV) or None
    return value.strip() or None if value else None


def resolve_pid(explicit: int | None) -> int | None:
    """The pid of a process that lives as long as the session, never our own."""
    if explicit is not None:
        return explicit
    raw = os.environ.get(PID_ENV, "").strip()
    return int(raw) if raw.isdigit() else None


def terminal_session_id(tty: str, pid: int, started: int) -> str:
    """The session of a person's terminal: `tty-<tty>-<pid>-<started>` (`/dev/pts/3` -> `pts3`),
    named by the shell that leads the terminal's session and when it started, so a pid the system
    gives again later is another session."""
    word = "".join(c for c in tty.removeprefix("/dev/") if c.isalnum())
    return f"{TERMINAL_PREFIX}{word}-{pid}-{started}"


def terminal_leader(session: str) -> tuple[int, int] | None:
    """(pid, start time) of the shell a terminal's session id names; None for any other id."""
    if not session.startswith(TERMINAL_PREFIX):
        return None
    parts = session.split("-")
    if len(parts) != 4 or not parts[2].isdigit() or not parts[3].isdigit():
        return None
    return int(parts[2]), int(parts[3])


def process_start(pid: int) -> int | None:
    """When process `pid` started, in clock ticks after boot (/proc/<pid>/stat, field 22); None
    where there is no /proc or no such process."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return int(fh.read().rsplit(b")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return None


def hostname() -> str:
    """This machine's name: gethostname(2), which POSIX systems answer from uname's nodename
    (`socket` would cost SessionStart and every transition ~4 ms of imports)."""
    return os.uname().nodename


def pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            # field 3 is the state; a zombie has exited and only waits to be reaped
            return fh.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return True


def last_heartbeat(owner: Owner, task_dir: str | os.PathLike[str] | None) -> datetime:
    """The owner's last sign of life: the later of its claim's time in task.json and the task's
    heartbeat file (`<task>/heartbeat.json`), when that file is this owner's."""
    return later_heartbeat(owner.session, owner.heartbeat_at, task_dir)


def later_heartbeat(
    session: str, beat_at: datetime, task_dir: str | os.PathLike[str] | None
) -> datetime:
    """`last_heartbeat` of the owner `session` whose task.json says `beat_at`."""
    found = beat.read(os.fspath(task_dir)) if task_dir is not None else None
    if found is not None and found["session"] == session:
        try:
            when = datetime.fromisoformat(found["at"])
        except ValueError:
            return beat_at
        if when.tzinfo is not None and when > beat_at:
            beat_at = when
    return beat_at


def owner_gone(
    owner: Owner,
    now: datetime,
    lease_minutes: float,
    task_dir: str | os.PathLike[str] | None = None,
) -> str | None:
    """Why the owner is provably gone, or None when it may still be alive. With `task_dir`, the
    task's heartbeat file counts too."""
    return liveness(owner, now, lease_minutes, task_dir)[0]


def process_gone(owner: Owner) -> str | None:
    """Why the owner's process on this host is provably gone (it no longer runs, or the pid is
    its terminal's shell's no more), or None: another host's, no pid recorded, or alive. The one
    test of it: `liveness`, a heartbeat refused (engine/claims.py), a claim not published
    (engine/publish_claims.py)."""
    if owner.host != hostname() or not owner.pid:
        return None
    if not pid_alive(owner.pid):
        return f"its process {owner.pid} on {owner.host} no longer exists"
    leader = terminal_leader(owner.session)
    if leader is not None and leader[0] == owner.pid:
        started = process_start(owner.pid)
        if started is not None and started != leader[1]:
            return (
                f"its terminal's shell {owner.pid} on {owner.host} has exited (that pid is "
                "now another process's)"
            )
    return None


def liveness(
    owner: Owner,
    now: datetime,
    lease_minutes: float,
    task_dir: str | os.PathLike[str] | None = None,
    last: datetime | None = None,
) -> tuple[str | None, datetime | None]:
    """(why the owner is provably gone or None, its last sign of life). The second is None when
    its process decided: on this host, gone. `last`: the owner's `last_heartbeat`, when the caller
    has it already (the board keeps it while the task's folder does not change)."""
    gone = process_gone(owner)
    if gone is not None:
        return gone, None
    beat_at = last if last is not None else last_heartbeat(owner, task_dir)
    age = now - beat_at
    if age > timedelta(minutes=lease_minutes):
        return (
            f"its last heartbeat was {span(age.total_seconds())} ago "
            f"(lease {span(lease_minutes * 60)})"
        ), beat_at
    return None, beat_at


class OwnerView:
    """A claim's owner as task.json's JSON stores it: `Owner` for the standard-library readers."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.session: str = data["session"]
        self.host: str = data["host"]
        self.pid: int | None = data["pid"]
        self.heartbeat_at = datetime.fromisoformat(data["heartbeat_at"])


def gone_owner(
    task: dict[str, Any], lease_minutes: float, task_dir: str | os.PathLike[str] | None
) -> dict[str, str] | None:
    """`task show`'s word on task.json's (`task`) owner when it is provably gone, by the board's
    test (`liveness`): why, and the command the board offers for it (its Claim: a takeover of a
    gone owner, logged, needing no --force). None when there is no owner or it may be alive."""
    owner = task.get("owner")
    if not owner:
        return None
    why = liveness(OwnerView(owner), datetime.now(UTC), lease_minutes, task_dir)[0]
    if why is None:
        return None
    return {
        "session": owner["session"],
        "reason": why,
        "command": f"taskproto claim {task['name']}",
    }


def owner_error(
    name: str,
    owner: Claim | None,
    lease_minutes: float,
    task_dir: str | os.PathLike[str],
    action: str,
) -> OwnershipError:
    """Task `name` is `owner`'s, another session's: `action` says what to do, unless that owner is
    provably gone; then the plain claim that takes it over, logged (no --force needed, as `task
    show` says)."""
    from taskproto.errors import OwnershipError, when

    assert owner is not None
    gone = owner_gone(owner, datetime.now(UTC), lease_minutes, task_dir)
    if gone is not None:
        action = (
            f"that session is gone ({gone}): take the task over with `taskproto claim {name}` "
            "(logged; no --force needed)"
        )
    return OwnershipError(name, owner.session, when(owner.claimed_at), owner.host, action)


def span(seconds: float) -> str:
    """A length of time as a person reads it: seconds under two minutes (a lease can be seconds
    long, `lease_minutes = 0.05`), whole minutes above."""
    if seconds < 120:
        return f"{round(seconds, 1) if seconds < 10 else int(seconds):g} seconds"
    return f"{int(seconds // 60)} minutes"

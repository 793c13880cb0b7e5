"""Who approved, as far as this process can see it: the context journaled with every approval.

A process of the same user can approve as any session (a detached `setsid -f env -i ...` has no
client variable and no agent client among its ancestors), so the approval carries what the
approving process saw: whether it has a controlling terminal, the command names of its ancestry,
and which agent clients' variables were set. `taskproto doctor` flags an approval recorded by the
owner's session from a process with no terminal (`approval-no-terminal`, docs/agents.md).

Standard library only.
"""

from __future__ import annotations

import os

from taskproto.clients.detect import AGENT_VARIABLES, MAX_DEPTH, proc_stat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from taskproto.state.models import Approval, Task

# what else says who runs it: the session taskproto was told, Claude's client pid
SEEN_VARIABLES = (*AGENT_VARIABLES, "TASKPROTO_SESSION", "CLAUDE_PID", "CLAUDE_PROJECT_DIR")


def has_terminal() -> bool:
    """Whether this process has a controlling terminal (a detached process has none)."""
    try:
        fd = os.open("/dev/tty", os.O_RDONLY | os.O_NOCTTY)
    except OSError:
        return False
    os.close(fd)
    return True


def ancestry(pid: int) -> list[str]:
    """The command names from `pid` up to the first process (at most MAX_DEPTH; [] without
    /proc)."""
    names: list[str] = []
    for _ in range(MAX_DEPTH):
        if pid <= 0:
            break
        found = proc_stat(pid)
        if found is None:
            break
        names.append(found[0])
        pid = found[1]
    return names


def context(environ: dict[str, str] | None = None) -> dict[str, object]:
    """What the approving process sees: {terminal, processes (itself first), variables (names of
    the client variables set)}."""
    env = os.environ if environ is None else environ
    return {
        "terminal": has_terminal(),
        "processes": ancestry(os.getpid()),
        "variables": [v for v in SEEN_VARIABLES if env.get(v)],
    }


# task.json's `context` key that lists the approvals the user kept as theirs (`taskproto ack`)
KEPT = "kept_approvals"


def approval_key(kind: str, approval: Approval) -> str:
    """One approval, as `KEPT` names it: its kind and the time it was recorded (a new approval
    of the same kind is another one)."""
    return f"{kind}@{approval.at.isoformat()}"


def no_terminal(task: Task) -> list[tuple[str, Approval]]:
    """The approvals in force recorded under the owner's session by a process with no terminal
    that the user has not kept as theirs: doctor's `approval-no-terminal`, and what `taskproto
    ack` keeps. The one rule of both."""
    owner = task.owner.session if task.owner is not None else None
    kept = task.context.get(KEPT) or []
    found = []
    for kind, approval in (
        ("plan", task.checkpoint.plan_approval),
        ("commit", task.checkpoint.commit_approval),
    ):
        seen = approval.seen if approval is not None else None
        if approval is None or seen is None or seen.terminal or owner is None:
            continue
        if approval.by == owner and approval_key(kind, approval) not in kept:
            found.append((kind, approval))
    return found

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

"""Agents' worktrees worked in outside the sandbox: a process of the user's whose working folder is
in an agent's worktree and that shares doctor's user namespace (docs/sandbox.md).

Read from /proc (Linux; elsewhere nothing is reported); no git runs here. doctor's own process and
its ancestors (the shell it was typed in) are not counted, nor the launchers of a sandbox (the
`agent exec` and outer `bwrap` processes, whose child runs in a namespace of its own).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from taskproto.doctor.model import CHECKS, Finding, Severity, check
from taskproto.doctor.snapshot import Snapshot
from taskproto.layout import inside

check(
    "agent-outside-sandbox",
    Severity.WARNING,
    "A process of yours works in an agent's worktree outside taskproto's sandbox: it runs as you, "
    "with your files, processes and secrets, and only the hooks stand between it and the rest "
    "(run agents with `taskproto agent exec`, docs/sandbox.md).",
    None,
)


def _processes() -> dict[int, tuple[int, str, str, str]]:
    """pid -> (parent pid, working folder, user namespace, command name) of this user's
    processes that could be read."""
    found: dict[int, tuple[int, str, str, str]] = {}
    uid = os.getuid()
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if not entry.isdigit():
            continue
        base = f"/proc/{entry}"
        try:
            if os.stat(base).st_uid != uid:
                continue
            with open(f"{base}/stat", "rb") as fh:
                stat = fh.read()
            name, rest = (
                stat[stat.index(b"(") + 1 : stat.rindex(b")")],
                stat[stat.rindex(b")") + 2 :],
            )
            parent = int(rest.split()[1])
            found[int(entry)] = (
                parent,
                os.readlink(f"{base}/cwd"),
                os.readlink(f"{base}/ns/user"),
                name.decode("utf-8", "replace"),
            )
        except (OSError, ValueError):
            continue
    return found


def _ancestors(pid: int, procs: dict[int, tuple[int, str, str, str]]) -> set[int]:
    seen: set[int] = set()
    while pid in procs and pid not in seen:
        seen.add(pid)
        pid = procs[pid][0]
    return seen


def check_sandboxes(snap: Snapshot) -> Iterator[Finding]:
    layout = snap.config.layout
    worktrees = {
        layout.agent_worktree(name, agent): (name, agent)
        for name, view in snap.tasks.items()
        for agent in view.agent_dirs
    }
    if not worktrees:
        return
    procs = _processes()
    try:
        own_ns = os.readlink("/proc/self/ns/user")
    except OSError:
        return
    skip = _ancestors(os.getpid(), procs)
    for parent, _, ns, _ in procs.values():
        if ns != own_ns:
            skip |= _ancestors(parent, procs)  # who started a sandbox
    by_agent: dict[tuple[str, str], list[str]] = {}
    for pid, (_, cwd, ns, name) in sorted(procs.items()):
        if ns != own_ns or pid in skip:
            continue
        for folder, owner in worktrees.items():
            if inside(cwd, folder):
                by_agent.setdefault(owner, []).append(f"{pid} ({name})")
    for (task, agent), seen in sorted(by_agent.items()):
        yield Finding(
            "agent-outside-sandbox",
            CHECKS["agent-outside-sandbox"].severity,
            f"process {', '.join(seen[:5])}{' and more' if len(seen) > 5 else ''} works in agent "
            f"{agent}'s worktree of task {task} outside a sandbox",
            task=task,
            agent=agent,
            data={"pids": [int(s.split()[0]) for s in seen]},
        )

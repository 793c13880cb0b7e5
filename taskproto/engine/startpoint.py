"""Where a task that waited for others starts: the code it waited for.

A task's branches are made at `task create` from its base branch as it was then. A task created
`--after` others waits until they have landed; by then its base branch holds their work and its own
branches do not. When it starts (its claim, or its first move out of the initial state), its
branches are brought to the base branch's head (with the shared remote, the remote's head: another
machine may have landed what it waited for), so it starts from the code it waited for. Only
while that loses nothing: no branch of the task holds a commit the base lacks and every worktree is
clean. Otherwise it keeps its start point and the caller is told why (`update` brings the base in
later by a merge: the warning names `taskproto update TASK`).
"""

from __future__ import annotations

from taskproto.engine.core import Core
from taskproto.errors import TaskprotoError
from taskproto.names import agent_branch
from taskproto.state.models import Task, utcnow


def catch_up(core: Core, task: Task, session: str | None) -> Task:
    """`task` brought to its base branch's head (a copy with `base` and a log note), or `task`
    itself when there is nothing to do or it would lose work (a warning says why)."""
    if not task.depends_on or not task.base_branch:
        return task
    head = _base_head(core, task.name, task.base_branch)
    if head is None or head == task.base:
        return task
    branches = [task.name, *(agent_branch(task.name, a) for a in task.required_agents)]
    present = [b for b in branches if core.branch_head(b) is not None]
    keep = (
        f"task {task.name} keeps its start point {(task.base or '?')[:12]}, not {task.base_branch}"
        f"'s head {head[:12]}"
    )
    if core.repo.unreachable([f"refs/heads/{b}" for b in present], head):
        core.warnings.append(
            f"{keep}: its branches hold commits {task.base_branch} lacks; "
            f"`taskproto update {task.name}` brings {task.base_branch} in"
        )
        return task
    worktrees = {wt.branch: wt.path for wt in core.repo.worktrees() if wt.branch}
    dirty = [b for b in present if b in worktrees and core.repo.is_dirty(worktrees[b])]
    if dirty:
        core.warnings.append(
            f"{keep}: uncommitted changes in the worktree of {dirty[0]}; commit them, then "
            f"`taskproto update {task.name}` brings {task.base_branch} in"
        )
        return task
    for branch in present:
        if core.branch_head(branch) == head:
            continue
        if branch in worktrees and worktrees[branch].is_dir():
            core.repo.fast_forward(worktrees[branch], head)
        else:
            core.repo.update_ref(f"refs/heads/{branch}", head, core.branch_head(branch))
    new = task.model_copy(deep=True)
    new.base = head
    new.record(
        trigger="start_point",
        time=utcnow(),
        session=session,
        kind="note",
        note=f"starts from {task.base_branch} at {head[:12]} (was {(task.base or '?')[:12]}): "
        f"what it waited for ({', '.join(task.depends_on)}) is there",
    )
    return new


def _base_head(core: Core, name: str, base: str) -> str | None:
    """The base branch's head; with the shared remote, its head there (this branch fast-forwarded
    to it), where what the task waited for landed when another machine landed it."""
    from taskproto.engine import basebranch

    try:
        return basebranch.catch_up(core, base)
    except TaskprotoError:
        here = core.git.ref_sha(f"refs/heads/{base}")
        remote = core.remote.name if core.remote is not None else "the remote"
        core.warnings.append(
            f"task {name} starts from {base} as it is here, not from {remote}'s {base} (they both "
            f"moved on, or it could not be read or fast-forwarded): `git pull` {base}, then "
            f"`taskproto update {name}` brings in what it waited for"
        )
        return here

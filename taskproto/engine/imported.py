"""Tasks that `taskproto import` makes: written through the one write path (Core.first_record and
Core.save), without branches or worktrees until a session starts them.

An import may bring a thousand tasks, most of which nobody will start soon (and the closed ones
never): a worktree each would cost a checkout each. So an imported task's context says
`"worktrees": "at claim"`, and its branches and worktrees are made when it is claimed or first
moved (`materialize`), from its base branch's head at that time. Doctor expects none before.
"""

from __future__ import annotations

import shutil

from taskproto.engine.core import Core
from taskproto.errors import TaskExists
from taskproto.git.objects import loose_path
from taskproto.names import TaskName
from taskproto.state import journal, store
from taskproto.state.bound import bound
from taskproto.state.files import make_durable
from taskproto.state.models import AgentStatus, Task, utcnow

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

DEFERRED_KEY = "worktrees"
DEFERRED = "at claim"


def deferred(task: Task) -> bool:
    """Whether the task's branches and worktrees are still to be made (at its claim)."""
    return task.context.get(DEFERRED_KEY) == DEFERRED


def create(core: Core, tasks: Sequence[tuple[Task, dict[str, AgentStatus]]]) -> None:
    """Write imported tasks whole: each folder (refused if the task exists: nothing is written
    then), its agents' status files, the journal's first commit and task.json, all of them
    through `Core.first_record`."""
    made: list[Path] = []
    try:
        for task, statuses in tasks:
            name = TaskName(task.name)
            task_dir = core.config.task_dir(name)
            try:
                task_dir.mkdir(parents=True)
            except FileExistsError:
                raise TaskExists(name) from None
            made.append(task_dir)
            for agent in task.required_agents:
                path = core.config.status_file(name, agent)
                path.parent.mkdir(parents=True, exist_ok=True)
                status = statuses.get(agent) or AgentStatus(agent=agent, updated_at=task.created_at)
                store.save_status(path, status)
    except BaseException:
        for task_dir in made:
            shutil.rmtree(task_dir, ignore_errors=True)
        raise
    # Every journal commit's objects first, made durable together; then each ref and task.json
    # under the task's lock, made durable together: a save's order (the objects are on disk
    # before anything names them) with two syncs of the file system for the lot instead of five
    # fsyncs a task. A crash between leaves what doctor completes (a journal, no task.json) or
    # what importing again makes.
    # A task whose history is longer than task.json keeps gets two journal commits: the whole
    # history first (what `taskproto log` and an export read back), then task.json as a save
    # keeps it (state/bound.py), which is what the file holds.
    written_tasks: list[Task] = []
    commits: list[str | None] = []
    objects: list[str] = []
    dirs = core.layout.dirs
    for task, _ in tasks:
        kept = task.model_copy(deep=True)
        bound(None, kept)
        steps = [task] if _same_size(task, kept) else [task, kept]
        kept.revision = task.revision + len(steps) - 1
        parent = None
        for step in steps:
            files = {journal.TASK_FILE: store.dump(step)}
            files.update(journal.agent_files(core.layout, task.name, task.required_agents))
            written = (
                journal.first_commit(dirs, files, _message(task), step.revision, parent)
                if dirs
                else None
            )
            if written is None:  # not SHA-1: git writes one commit, whole (first_record)
                kept, parent = task, None
                break
            objects += [loose_path(dirs.common_dir, sha) for sha in written] if dirs else []
            parent = written[-1]
        written_tasks.append(kept)
        commits.append(parent)
    make_durable(objects)
    paths: list[str] = []
    for kept, commit in zip(written_tasks, commits, strict=True):
        with core.lock(kept.name):
            core.first_record(kept, _message(kept), commit, paths)
    make_durable(paths)


def _same_size(task: Task, kept: Task) -> bool:
    return (
        len(kept.transition_log) == len(task.transition_log)
        and len(kept.interruptions) == len(task.interruptions)
        and len(kept.merges) == len(task.merges)
        and len(kept.checkpoint.revoked) == len(task.checkpoint.revoked)
    )


def _message(task: Task) -> str:
    return f"import: {task.state}"


def materialize(core: Core, task: Task, session: str | None) -> Task:
    """`task` with its branches and worktrees made (a copy without the marker, and a log note),
    or `task` itself when they were made at its creation. Lock held."""
    if not deferred(task):
        return task
    from taskproto.engine import worktree as wt

    start = None
    if task.base_branch:
        start = core.branch_head(task.base_branch)
    start = start or task.base or core.git.rev_parse("HEAD")
    if core.branch_head(task.name) is None:
        wt.create(core, task.name, task.required_agents, start or "HEAD")
    new = task.model_copy(deep=True)
    new.context.pop(DEFERRED_KEY, None)
    new.base = start
    new.record(
        trigger="worktrees",
        time=utcnow(),
        session=session,
        kind="note",
        note=f"branches and worktrees made at {(start or '?')[:12]}: an imported task gets them "
        "when it starts",
    )
    return new

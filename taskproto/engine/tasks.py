"""Creating and removing tasks: the folder, task.json, the branches and worktrees, the journal."""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from typing import Any

from taskproto.config import ensure_root
from taskproto.engine import worktree as wt
from taskproto.engine.core import Core
from taskproto.errors import TaskExists, TaskprotoError
from taskproto.machine.registry import get_workflow
from taskproto.machine.workflow import Workflow
from taskproto.names import AgentName, TaskName, agent_branch
from taskproto.state import journal, store
from taskproto.state.lock import task_lock
from taskproto.state.models import AgentStatus, Counters, LogEntry, Task, utcnow


def _check_new(core: Core, name: TaskName, agents: Sequence[AgentName], base: str | None) -> str:
    """Refuse a task that cannot be made; returns the base commit's sha."""
    if len(set(agents)) != len(agents):
        raise TaskprotoError(f"agent names must be unique: {', '.join(agents)}")
    base_sha = core.git.rev_parse(base or "HEAD")
    if base_sha is None:
        raise TaskprotoError(
            f"base {base or 'HEAD'!r} is not a commit; pass --base with a branch or sha"
        )
    if journal.head(core.git, name):
        raise TaskprotoError(
            f"a journal for task {name!r} already exists ({journal.ref_for(name)}); "
            "run `taskproto doctor` to restore the task, or pick another name"
        )
    return base_sha


def _base_branch(core: Core, base: str | None) -> str | None:
    """The branch `base` names (the main worktree's branch when None): where the task lands."""
    if base is None:
        out = core.git.run("symbolic-ref", "--quiet", "--short", "HEAD", check=False).strip()
        return out or None
    return base if core.git.ref_sha(f"refs/heads/{base}") else None


def _first_record(
    wf: Workflow,
    name: TaskName,
    agents: Sequence[AgentName],
    base_sha: str,
    base_branch: str | None,
    description: str,
    session: str | None,
    context: dict[str, Any] | None,
    counters: dict[str, int] | None,
) -> Task:
    now = utcnow()
    return Task(
        name=name,
        workflow=wf.name,
        state=wf.initial,
        description=description,
        base=base_sha,
        base_branch=base_branch,
        created_at=now,
        updated_at=now,
        revision=1,
        required_agents=list(agents),
        context=context or {},
        counters=Counters(**(counters or {})),
        transition_log=[
            LogEntry(
                from_state=None,
                to_state=wf.initial,
                trigger="create",
                time=now,
                session=session,
                kind="create",
            )
        ],
    )


def create_task(
    core: Core,
    name: TaskName,
    agents: Sequence[AgentName] = (),
    base: str | None = None,
    workflow: str = "task-protocol",
    description: str = "",
    session: str | None = None,
    context: dict[str, Any] | None = None,
    counters: dict[str, int] | None = None,
) -> Task:
    """Make the task folder, branch NAME and one branch per agent with their worktrees, the agents'
    status files, task.json and the first journal commit: all of it, or nothing."""
    wf = get_workflow(workflow, core.config)
    base_sha = _check_new(core, name, agents, base)
    base_branch = _base_branch(core, base)
    ensure_root(core.config)
    task_dir = core.config.task_dir(name)
    try:
        task_dir.mkdir()
    except FileExistsError:
        raise TaskExists(name) from None
    try:
        wt.create(core.config, core.repo, name, agents, base_sha)
        task = _first_record(
            wf, name, agents, base_sha, base_branch, description, session, context, counters
        )
        for agent in agents:
            core.config.agent_dir(name, agent).mkdir(parents=True, exist_ok=True)
            store.save_status(
                core.config.status_file(name, agent),
                AgentStatus(agent=agent, updated_at=task.created_at),
            )
        path = core.config.task_file(name)
        data = store.dump(task)
        core.journal(
            task, f"create: {wf.initial}", {path: data}
        )  # the journal first: see Core.save
        store.atomic_write(path, data)
        return task
    except BaseException:
        if core.config.task_worktree(name).exists():
            made = wt.Made(
                worktrees=[core.config.task_worktree(name)]
                + [core.config.agent_worktree(name, a) for a in agents],
                branches=[name] + [agent_branch(name, a) for a in agents],
            )
            wt.undo(core.repo, made)
        shutil.rmtree(task_dir, ignore_errors=True)
        raise


def remove_task(core: Core, name: str, force: bool = False) -> wt.RemovalPlan:
    """Remove the task's worktrees, branches and folder, refusing (without --force) if work would be
    lost; its journal is archived, never deleted."""
    core.check_force(force)
    task_dir = core.task_path(name).parent
    with task_lock(task_dir, name, core.config.lock_timeout):
        try:
            agents = store.load_task(core.config.task_file(name)).required_agents
        except (TaskprotoError, FileNotFoundError):
            if not force:
                raise TaskprotoError(
                    f"task.json of {name!r} is missing or corrupt, so its agents are unknown; "
                    "run `taskproto doctor --fix` first, or pass --force"
                ) from None
            agents_dir = task_dir / "agents"
            agents = sorted(os.listdir(agents_dir)) if agents_dir.is_dir() else []
        plan = wt.remove(core.config, core.repo, name, agents, force)
    journal.archive(core.git, name, utcnow().strftime("%Y%m%dT%H%M%SZ"))
    return plan

"""Creating and removing tasks: the folder, task.json, the branches and worktrees, the journal."""

from __future__ import annotations

import os

from taskproto import plainjson as json
from taskproto.config import ensure_root
from taskproto.engine import worktree as wt
from taskproto.engine.core import Core
from taskproto.engine.listing import CREATING as CREATING  # where doctor imports them from
from taskproto.engine.listing import creator_alive as creator_alive
from taskproto.engine.listing import read_intent as read_intent
from taskproto.errors import TaskExists, TaskprotoError, WorkAtRisk
from taskproto.machine.registry import get_workflow
from taskproto.machine.workflow import Workflow
from taskproto.names import AgentName, TaskName, agent_branch
from taskproto.sessions import hostname, owner_gone
from taskproto.state import index, journal, store
from taskproto.state.lock import task_lock
from taskproto.state.models import (
    DEFAULT_PRIORITY,
    AgentStatus,
    Counters,
    LogEntry,
    Task,
    utcnow,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any


def _check_new(core: Core, name: TaskName, agents: Sequence[AgentName], base: str | None) -> str:
    """Refuse a task that cannot be made; returns the base commit's sha."""
    layout = core.config.layout  # strings: no pathlib before the create's git starts
    if os.path.exists(os.path.join(layout.task_dir(name), CREATING)):
        raise TaskprotoError(
            f"task {name!r} was half made by a `task create` that did not finish; run "
            f"`taskproto doctor --fix` to finish it, or `taskproto task abort {name}` to undo it"
        )
    if os.path.exists(layout.task_file(name)):
        raise TaskExists(name)
    if core.remote is not None and core.remote.known_tasks((name,)):
        raise TaskprotoError(
            f"task {name!r} already exists on remote {core.remote.name!r} (its journal or its "
            "branch); run `taskproto sync` to fetch it, or pick another name"
        )
    if len(set(agents)) != len(agents):
        raise TaskprotoError(f"agent names must be unique: {', '.join(agents)}")
    base_sha = _commit(core, base)
    if base_sha is None and base is None:  # HEAD names no commit: a repository just made
        raise TaskprotoError(
            "this repository has no commit yet, and a task starts from one; make the first "
            "commit (`git commit`), then create the task"
        )
    if base_sha is None:
        raise TaskprotoError(f"base {base!r} is not a commit; pass --base with a branch or sha")
    if core.journal_head(name):
        raise TaskprotoError(
            f"a journal for task {name!r} already exists ({journal.ref_for(name)}); "
            "run `taskproto doctor` to restore the task, or pick another name"
        )
    elsewhere = _remote_branches(core, [name, *(agent_branch(name, a) for a in agents)])
    if elsewhere:
        raise TaskprotoError(
            f"branch {elsewhere[0]} already holds work named {name!r} (a task of another clone?); "
            "run `taskproto sync` if the remote shares tasks, or pick another name"
        )
    return base_sha


def _commit(core: Core, base: str | None) -> str | None:
    """The commit `base` names (None: the main worktree's HEAD), read in-process where it is a
    branch or HEAD; else git says."""
    dirs = core.config.layout.dirs
    if dirs is not None:
        if base is None:
            branch = dirs.head_branch()
            found = dirs.branch_sha(branch) if branch else _detached(dirs.git_dir)
        else:
            found = dirs.branch_sha(base)
        if found is not None:
            return found
    return core.git.rev_parse(base or "HEAD")


def _detached(git_dir: str) -> str | None:
    from taskproto.git.files import read_small

    head = (read_small(os.path.join(git_dir, "HEAD")) or b"").strip()
    return head.decode() if len(head) == 40 else None


def _remote_branches(core: Core, branches: Sequence[str]) -> list[str]:
    """The remote-tracking branches (`origin/<branch>`, ...) of this clone named as `branches`:
    work a new task of that name would start beside (read in-process: loose and packed refs)."""
    dirs = core.config.layout.dirs
    if dirs is None:
        return []
    names = set(branches)
    found: list[str] = []
    remotes = os.path.join(dirs.common_dir, "refs", "remotes")
    try:
        remote_names = sorted(os.listdir(remotes))
    except OSError:
        remote_names = []
    for remote in remote_names:
        found += [
            f"{remote}/{b}" for b in branches if os.path.isfile(os.path.join(remotes, remote, b))
        ]
    for ref in dirs.packed_refs():
        if not ref.startswith(b"refs/remotes/"):
            continue  # the tasks' branches and journals: thousands, none a remote's
        parts = ref.decode("utf-8", "replace").split("/")
        if len(parts) == 4 and parts[:2] == ["refs", "remotes"] and parts[3] in names:
            found.append(f"{parts[2]}/{parts[3]}")
    return sorted(set(found))


def _base_branch(core: Core, base: str | None) -> str | None:
    """The branch `base` names (the main worktree's branch when None): where the task lands."""
    dirs = core.config.layout.dirs
    if base is None:
        if dirs is not None:
            return dirs.head_branch()
        out = core.git.run("symbolic-ref", "--quiet", "--short", "HEAD", check=False).strip()
        return out or None
    return base if core.branch_head(base) else None


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
    after: Sequence[str] = (),
    priority: int = DEFAULT_PRIORITY,
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
        depends_on=list(after),
        priority=priority,
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
    after: Sequence[str] = (),
    priority: int = DEFAULT_PRIORITY,
) -> Task:
    """Make the task folder, branch NAME and one branch per agent with their worktrees, the agents'
    status files, task.json and the first journal commit: all of it, or nothing."""
    wf = get_workflow(workflow, core.config)
    if not 0 <= priority <= 4:
        raise TaskprotoError(f"priority {priority} is out of range; use 0 (most urgent) to 4")
    base_sha = _check_new(core, name, agents, base)
    base_branch = _base_branch(core, base)
    ensure_root(core.config)

    def make(valid: Sequence[str]) -> Task:
        record = _first_record(
            wf, name, agents, base_sha, base_branch, description, session, context, counters,
            valid, priority,
        )  # fmt: skip
        return _create(core, record, agents, base_sha)

    if not after:
        return make([])
    from taskproto.engine import deps

    with deps.graph_lock(core):  # no cycle while the graph changes
        return make(deps.check_new(core, name, after))


def _create(core: Core, task: Task, agents: Sequence[AgentName], base_sha: str) -> Task:
    """Make what `task` (its first record) asks for: folder, branches, worktrees, records."""
    name = TaskName(task.name)
    task_dir = core.config.layout.task_dir(name)  # a string: no pathlib before git starts
    try:
        os.mkdir(task_dir)
    except FileExistsError:
        raise TaskExists(name) from None
    try:
        # Before the first branch: what was asked for, so a create killed half-way is finished
        # with every agent (doctor) or undone whole (`task abort`), never left with fewer.
        intent = {
            "task": task.model_dump(mode="json"),
            "pid": os.getpid(),
            "host": hostname(),
        }
        intent_file = os.path.join(task_dir, CREATING)
        store.atomic_write(intent_file, json.dumps(intent, indent=2).encode())
        message = f"create: {task.state}"
        ahead: list[str] = []
        wt.create(core, name, agents, base_sha, lambda: _ahead(core, task, message, ahead))
        _records(core, task, message, ahead[-1] if ahead else None)
        os.unlink(intent_file)
        core.changed()
        return task
    except BaseException:
        if core.config.task_worktree(name).exists():
            made = wt.Made(
                worktrees=[core.config.task_worktree(name)]
                + [core.config.agent_worktree(name, a) for a in agents],
                branches=[name] + [agent_branch(name, a) for a in agents],
            )
            wt.undo(core.repo, made)
        import shutil  # only when a create is undone

        shutil.rmtree(task_dir, ignore_errors=True)
        raise


def _ahead(core: Core, task: Task, message: str, made: list[str]) -> None:
    """While git makes the task's worktree (its longest wait): the agents' statuses and the
    journal's first commit, its objects written and synced but no ref moved (an object nothing
    names is git's garbage, never a record), appended to `made`; and the modules the rest of the
    create runs, imported. What fails here is done again after git, the ordinary way."""
    import taskproto.clients.settings  # noqa: F401 - each new worktree's client hooks
    import taskproto.engine.prepare  # noqa: F401 - its `[worktree]` files
    import taskproto.hooks.agents.offer  # noqa: F401 - the offer renewed after the change

    dirs = core.layout.dirs
    if dirs is None:
        return
    try:
        _statuses(core, task)
        files = {journal.TASK_FILE: store.dump(task)}  # what Core.journal records, as it will be
        files.update(journal.agent_files(core.layout, task.name, task.required_agents))
        written = journal.first_commit(dirs, files, message, task.revision, sync=True)
    except (OSError, TaskprotoError):
        return
    if written:
        made.append(written[-1])


def _statuses(core: Core, task: Task) -> None:
    """The agents' status files, each only if missing."""
    for agent in task.required_agents:
        path = core.config.status_file(task.name, agent)
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            store.save_status(path, AgentStatus(agent=agent, updated_at=task.created_at))


def _records(core: Core, task: Task, message: str, made: str | None = None) -> None:
    """The agents' statuses (each only if missing), then the journal's first commit (`made`: its
    objects written already) and task.json (Core.first_record)."""
    _statuses(core, task)
    core.first_record(task, message, made)


def finish_create(core: Core, name: TaskName) -> list[str]:
    """Finish a create that was killed half-way, with every agent it was asked for: the missing
    branches at the base, their worktrees, the statuses, task.json and the journal. Under the
    task's lock; the caller has checked that the creator is gone."""
    task_dir = core.config.task_dir(name)
    with task_lock(task_dir, name, core.config.lock_timeout):
        intent = read_intent(task_dir)
        if intent is None:
            return []
        task = Task.model_validate(intent["task"])
        done: list[str] = []
        base = task.base or "HEAD"
        rows = [(name, core.config.task_worktree(name))] + [
            (agent_branch(name, a), core.config.agent_worktree(name, a))
            for a in task.required_agents
        ]
        registered = {os.path.realpath(w.path): w for w in core.repo.worktrees()}
        for branch, path in rows:
            if not core.repo.branch_exists(branch):
                core.repo.create_branch(branch, base)
                done.append(f"branch {branch} at {base[:12]}")
            reg = registered.get(os.path.realpath(path))
            if reg is not None and not reg.prunable:
                continue
            if os.path.lexists(path):
                # a checkout the killed create had begun: kept aside, never deleted
                aside = path.with_name(f"{path.name}.half-made-{utcnow():%Y%m%dT%H%M%S}")
                os.replace(path, aside)
                done.append(f"moved the half-made {path} aside to {aside.name}")
            if reg is not None:  # its own stale registration only: never the other tasks'
                core.repo.worktree_remove(reg.path, force=True)
            wt.recreate(core.config, core.repo, path, branch)
            done.append(f"worktree {path}")
        _records(core, task, f"create (finished by doctor): {task.state}")
        (task_dir / CREATING).unlink()
        return done


def abort_create(core: Core, name: TaskName, force: bool = False) -> wt.RemovalPlan:
    """Undo a create that did not finish, whole: what it made, refusing (without --force) if
    anything there holds work; the folder goes, a journal already written is archived."""
    core.check_force(force)
    task_dir = core.config.task_dir(name)
    intent = read_intent(task_dir)
    if intent is None:
        raise TaskprotoError(
            f"task {name!r} is not half made (no unfinished `task create`); remove it with "
            f"`taskproto task remove {name}`"
        )
    if creator_alive(intent):
        raise TaskprotoError(
            f"task {name!r} is being created right now (pid {intent.get('pid')}); wait for it, "
            f"then `taskproto task remove {name}` if you do not want it"
        )
    agents = [str(a) for a in intent.get("task", {}).get("required_agents", [])]
    stamp = utcnow().strftime("%Y%m%dT%H%M%SZ")
    with task_lock(task_dir, name, core.config.lock_timeout):
        plan = wt.remove(core.config, core.repo, name, agents, force, stamp)
    if journal.head(core.git, name) is not None:
        journal.archive(core.git, name, stamp)
    index.forget(core.config.layout, name)
    core.changed()
    return plan


def remove_task(
    core: Core, name: str, force: bool = False, session: str | None = None, publish: bool = True
) -> wt.RemovalPlan:
    """Remove the task's worktrees, branches and folder, refusing (without --force) if work would be
    lost or another live session owns it; its journal is archived, never deleted. With a shared
    remote and `publish`, the removal is published there first (engine/removed.py)."""
    core.check_force(force)
    task_dir = core.task_path(name).parent
    with task_lock(task_dir, name, core.config.lock_timeout):
        try:
            task: Task | None = store.load_task(core.config.task_file(name))
        except (TaskprotoError, FileNotFoundError):
            task = None
        if task is not None:
            agents = task.required_agents
        elif not force:
            raise TaskprotoError(
                f"task.json of {name!r} is missing or corrupt, so its agents are unknown; "
                "run `taskproto doctor --fix` first, or pass --force"
            )
        else:
            agents_dir = task_dir / "agents"
            agents = sorted(os.listdir(agents_dir)) if agents_dir.is_dir() else []
        owner = task.owner if task is not None else None
        live_owner = (
            owner is not None
            and owner.session != session
            and owner_gone(owner, utcnow(), core.config.lease_minutes) is None
        )
        if live_owner and not force:
            assert task is not None
            raise core.owner_error(
                task, "only its owner can remove it; pass --force to remove it anyway (logged)"
            )
        if live_owner and task is not None and owner is not None:
            wt.check_removal(
                core.config, wt.plan_removal(core.config, core.repo, name, agents), name, force
            )
            new = task.model_copy(deep=True)
            new.record(
                trigger="remove",
                time=utcnow(),
                session=session,
                kind="note",
                forced=True,
                note=f"removed with --force while session {owner.session} owned it",
            )
            core.save(task, new, f"remove --force: owned by {owner.session}")
        if task is not None and not force:
            _refuse_not_landed_here(core, task, agents)
        note = None
        if publish and core.remote is not None:
            from taskproto.engine import removed

            note = removed.on_remove(core, name, agents, force, session)
        stamp = utcnow().strftime("%Y%m%dT%H%M%SZ")
        plan = wt.remove(core.config, core.repo, name, agents, force, stamp)
        plan.remote_note = note
    journal.archive(core.git, name, stamp)
    index.forget(core.config.layout, name)
    core.changed()
    return plan


def landing_missing(core: Core, task: Task) -> str | None:
    """The `git pull` that brings here the landing another machine made of `task` (pushed to the
    shared remote, not yet on this clone's base branch), or None."""
    landed = task.landed
    if landed is None or not landed.pushed_to:
        return None
    if core.repo.is_ancestor(landed.base_after, f"refs/heads/{landed.base_branch}"):
        return None
    return f"git pull {landed.pushed_to} {landed.base_branch}"


def _refuse_not_landed_here(core: Core, task: Task, agents: Sequence[str]) -> None:
    """A task another machine landed (a queue worker) whose landing this clone's base lacks: its
    branches hold commits no branch here has, and the cure is the base, not --force."""
    pull = landing_missing(core, task)
    if pull is None or task.landed is None:
        return
    plan = wt.plan_removal(core.config, core.repo, task.name, agents)
    if plan.unique_commits:
        landed, base = task.landed, task.landed.base_branch
        raise WorkAtRisk(
            f"refusing to remove task {task.name!r}: it landed on {base} at "
            f"{landed.base_after[:12]} (pushed to {landed.pushed_to}), which this clone's {base} "
            f"does not have yet, so its {plan.unique_commits} commit(s) on "
            f"{', '.join(plan.branches)} are on no other branch here; bring it here "
            f"(`{pull}`), then remove the task"
        )

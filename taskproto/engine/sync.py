"""`taskproto sync`: push this machine's journals, fetch the others', and make new tasks appear here.

Journals only ever fast-forward: a journal we are ahead on is pushed (expecting
the head we just fetched), one the remote is ahead on is fast-forwarded here
(task.json and status files rewritten from its newest commit, under the task's
lock), and one that diverged is reported and left alone on both sides.
"""

from __future__ import annotations

from dataclasses import dataclass

from taskproto.config import ensure_root
from taskproto.engine import worktree as wt
from taskproto.engine.core import Core
from taskproto.errors import ConfigError, TaskprotoError
from taskproto.names import agent_branch
from taskproto.remote import CLAIM_PREFIX, RemoteClaim
from taskproto.state import journal, store
from taskproto.state.lock import task_lock
from taskproto.state.models import Task


@dataclass
class SyncReport:
    pushed: list[str]
    fetched: list[str]  # fast-forwarded from the remote
    adopted: list[str]  # created here from the remote's journal
    diverged: list[str]
    rejected: dict[str, str]
    claims: dict[str, RemoteClaim]
    removed: list[str]  # removed here (journal archived), so not adopted again


def sync(engine: Core) -> SyncReport:
    """Push our journals, fast-forward or adopt the remote's; report what happened to each task."""
    if engine.remote is None:
        raise ConfigError(
            'no remote is configured; add remote = "origin" to .taskproto.toml (or [tool.taskproto])'
        )
    remote = engine.remote
    git, tasks_prefix = remote.git, f"{remote.tracking}tasks/"
    with remote.network("fetching journals and claims"):
        git.fetch(
            remote.name,
            [
                f"+{journal.REF_PREFIX}*:{tasks_prefix}*",
                f"+{CLAIM_PREFIX}*:{remote.tracking}claims/*",
            ],
            prune=True,
        )
    local = journal.read_all_heads(git)
    theirs = {
        line.split(" ")[0][len(tasks_prefix) :]: line.split(" ")[1]
        for line in git.for_each_ref(tasks_prefix)
    }
    report = SyncReport([], [], [], [], {}, remote.tracked_claims(), [])
    to_push: dict[str, str | None] = {}
    for name in sorted(set(local) | set(theirs)):
        mine, other = local.get(name), theirs.get(name)
        if mine == other:
            continue
        if other is None or (mine is not None and git.is_ancestor(other, mine)):
            to_push[name] = other
        elif mine is None:
            archived = journal.latest_archive(git, name)
            archived_sha = git.ref_sha(archived) if archived else None
            if archived_sha and (archived_sha == other or git.is_ancestor(other, archived_sha)):
                report.removed.append(
                    name
                )  # removed here: not brought back (its remote journal stays)
            else:
                _adopt(engine, name, other, report)
        elif git.is_ancestor(mine, other):
            _fast_forward(engine, name, mine, other, report)
        else:
            report.diverged.append(name)
    if to_push:
        refs = {journal.ref_for(n): n for n in to_push}
        # Not atomic: each journal is its own history, and one rejected should not hold back the rest.
        with remote.network("pushing journals"):
            statuses = git.push(
                remote.name,
                [f"{local[n]}:{r}" for r, n in refs.items()],
                {r: to_push[n] for r, n in refs.items()},
            )
        for ref, name in refs.items():
            status = statuses.get(ref)
            if status is not None and status.ok:
                report.pushed.append(name)
                git.run("update-ref", remote.tracked_task_ref(name), local[name], check=False)
            else:
                report.rejected[name] = status.summary if status else "not pushed"
    return report


def _write_from_journal(engine: Core, name: str, sha: str) -> Task:
    """Rewrite task.json and the status files from journal commit `sha`."""
    git = engine.git
    data = journal.read_file(git, sha)
    if data is None:
        raise TaskprotoError(f"journal commit {sha[:12]} of {name!r} holds no task.json")
    path = engine.config.task_file(name)
    task = store.parse(Task, path, data, move_aside=False)
    store.atomic_write(path, data)
    for agent in task.required_agents:
        status = journal.read_file(git, sha, journal.status_entry(agent))
        if status is not None:
            engine.config.agent_dir(name, agent).mkdir(parents=True, exist_ok=True)
            store.atomic_write(engine.config.status_file(name, agent), status)
    return task


def _adopt(engine: Core, name: str, sha: str, report: SyncReport) -> None:
    """A task created on another machine: its folder and task.json here, then its journal ref."""
    ensure_root(engine.config)
    task_dir = engine.config.task_dir(name)
    try:
        task_dir.mkdir()
    except FileExistsError:
        report.diverged.append(
            name
        )  # a task of that name exists here with no journal: doctor's to sort out
        return
    with task_lock(task_dir, name, engine.config.lock_timeout):
        _write_from_journal(engine, name, sha)
        engine.git.update_ref(
            journal.ref_for(name), sha, None, message="taskproto: sync (new task)"
        )
    report.adopted.append(name)


def _fast_forward(engine: Core, name: str, mine: str, other: str, report: SyncReport) -> None:
    task_dir = engine.config.task_dir(name)
    if not task_dir.is_dir():
        report.diverged.append(name)
        return
    with task_lock(task_dir, name, engine.config.lock_timeout):
        if journal.head(engine.git, name) != mine:
            report.rejected[name] = "changed here during sync; run sync again"
            return
        _write_from_journal(engine, name, other)
        engine.git.update_ref(
            journal.ref_for(name), other, mine, message="taskproto: sync (fast-forward)"
        )
    report.fetched.append(name)


def ensure_worktrees(engine: Core, task: Task) -> None:
    """Make the worktrees of a task that came from another machine, when a session here claims it."""
    config, git, remote = engine.config, engine.git, engine.remote
    if remote is None or config.task_worktree(task.name).exists():
        return
    branches = [task.name] + [agent_branch(task.name, a) for a in task.required_agents]
    if any(git.branch_exists(b) for b in branches):
        return  # branches are here but a worktree is not: doctor recreates it, never us silently
    fetched = git.rev_parse(f"refs/remotes/{remote.name}/{task.name}")
    base = fetched or (git.rev_parse(task.base) if task.base else None)
    if base is None:
        raise TaskprotoError(
            f"task {task.name!r} starts from {(task.base or '?')[:12]}, which this clone does not have; "
            f"run `git fetch {remote.name}` and claim again"
        )
    wt.create(config, git, task.name, task.required_agents, base)

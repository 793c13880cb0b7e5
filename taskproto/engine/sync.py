"""`taskproto sync`: push this machine's journals, fetch the others', and make new tasks appear
here.

Journals only ever fast-forward: a journal we are ahead on is pushed (expecting
the head we just fetched), one the remote is ahead on is fast-forwarded here
(task.json and status files rewritten from its newest commit, under the task's
lock), and one that diverged is reported and left alone on both sides.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from taskproto.config import ensure_root
from taskproto.engine import pending, publish_claims, publish_landed, removed, tasks
from taskproto.engine import worktree as wt
from taskproto.engine.core import Core
from taskproto.errors import ConfigError, TaskprotoError
from taskproto.git.repo import Repo
from taskproto.names import agent_branch
from taskproto.remote import CLAIM_PREFIX, QUEUE_PREFIX, RemoteClaim
from taskproto.remote.removal import REMOVED_PREFIX, Removal, read_markers
from taskproto.state import journal, store
from taskproto.state.models import Task, utcnow


@dataclass
class SyncReport:
    pushed: list[str]
    fetched: list[str]  # fast-forwarded from the remote
    adopted: list[str]  # created here from the remote's journal
    diverged: list[str]
    rejected: dict[str, str]
    claims: dict[str, RemoteClaim]
    removed: list[str]  # removed here (journal archived), so not adopted again
    landed: list[str]  # landed on another machine and never a task here: kept as an archive
    # removed on another machine (the remote's marker): archived here, or removed here too
    removed_elsewhere: list[str] = field(default_factory=list)
    kept: dict[str, str] = field(default_factory=dict)  # removed elsewhere, kept here: why
    published: list[str] = field(default_factory=list)  # removed here offline, published now
    # claims made here before the remote was on, which it could not be told then (init --remote)
    claims_published: list[str] = field(default_factory=list)
    claim_conflicts: dict[str, str] = field(default_factory=dict)  # held there by another: why
    # landed on another machine, in CLEANUP here, its landing not on this clone's base: the pull
    landed_not_here: dict[str, str] = field(default_factory=dict)
    # landed here before the remote was on (or while it was off), its journal published now
    landed_published: list[str] = field(default_factory=list)
    landed_conflicts: dict[str, str] = field(default_factory=dict)  # the remote holds another
    # diverged with a journal on each side: the two refs the user compares (doctor has no check)
    diverged_refs: dict[str, tuple[str, str]] = field(default_factory=dict)

    def conflicts(self) -> dict[str, str]:
        """What this sync left undone for the user, by task, in `taskproto sync`'s words (sync
        and ready exit 1 when there is any; MCP's ready returns them)."""
        found: dict[str, str] = {}
        said = [(n, _diverged_line(self.diverged_refs.get(n))) for n in self.diverged]
        said += [(n, f"not pushed ({why})") for n, why in self.rejected.items()]
        said += [(n, f"claim not published: {why}") for n, why in self.claim_conflicts.items()]
        said += list(self.landed_conflicts.items())
        for name, why in said:
            found[name] = f"{found[name]}; {why}" if name in found else why
        return found


def _diverged_line(refs: tuple[str, str] | None) -> str:
    if refs is None:  # a task folder here with no journal, or a journal with no folder
        return "journal differs here and on the remote; left alone (see `taskproto doctor`)"
    mine, theirs = refs
    return (
        "journal differs here and on the remote (the task changed on both since the last sync, "
        f"or each made a task of that name); left alone on both sides: compare `git log {mine}` "
        f"(here) with `git log {theirs}` (the remote's)"
    )


def _landing_missing(engine: Core, name: str) -> str | None:
    try:
        return tasks.landing_missing(engine, engine.load(name))
    except TaskprotoError:
        return None  # doctor names a task that cannot be read


def sync(engine: Core) -> SyncReport:
    """Push our journals, fast-forward or adopt the remote's; report what happened to each task."""
    if engine.remote is None:
        raise ConfigError(_not_shared(engine))
    remote, repo = engine.remote, engine.repo
    git, tasks_prefix = remote.git, f"{remote.tracking}tasks/"
    with remote.network("fetching journals and claims"):
        git.fetch(
            remote.name,
            [
                f"+{journal.REF_PREFIX}*:{tasks_prefix}*",
                f"+{CLAIM_PREFIX}*:{remote.tracking}claims/*",
                f"+{QUEUE_PREFIX}*:{remote.tracking}queue/*",  # the board's view of the queue
                f"+{REMOVED_PREFIX}*:{remote.tracking}removed/*",  # tasks removed elsewhere
            ],
            prune=True,
        )
    removed_prefix = f"{remote.tracking}removed/"
    refs = repo.refs(journal.REF_PREFIX, tasks_prefix, journal.ARCHIVE_PREFIX, removed_prefix)
    gone = read_markers(
        git, {r[len(removed_prefix) :]: s for r, s in refs.items() if r.startswith(removed_prefix)}
    )
    local = {
        r[len(journal.REF_PREFIX) :]: sha
        for r, sha in refs.items()
        if r.startswith(journal.REF_PREFIX)
    }
    theirs = {r[len(tasks_prefix) :]: sha for r, sha in refs.items() if r.startswith(tasks_prefix)}
    report = SyncReport([], [], [], [], {}, remote.tracked_claims(), [], [])
    archives = publish_landed.newest_archive_refs(refs)  # task -> its newest archive ref
    landed = publish_landed.publish(
        engine,
        {task: refs[ref] for task, ref in archives.items()},
        set(local),
        theirs,
        {n: r.journal for n, r in gone.items()},
    )
    report.landed_published, report.landed_conflicts = landed.published, landed.conflicts
    to_push: dict[str, str | None] = {}
    unpublished: dict[str, tuple[str, str]] = {}  # removed here, not yet on the remote
    for name in sorted(set(local) | set(theirs) | set(gone)):
        mine, other = local.get(name), theirs.get(name)
        archive = archives.get(name)
        archived_sha = refs[archive] if archive else None
        removal = gone.get(name)
        if removal is not None and (other is None or _related(repo, other, removal.journal)):
            if _removed_elsewhere(engine, name, mine, other, removal, archived_sha, report):
                pending.clear(
                    engine, pending.REMOVALS, name
                )  # told already, by whoever removed it there
                continue  # else: another task of that name, made here after the removal
        if mine == other:
            continue
        if other is None or (mine is not None and repo.is_ancestor(other, mine)):
            to_push[name] = other
        elif mine is None:
            if archived_sha and (archived_sha == other or repo.is_ancestor(other, archived_sha)):
                if _landed(engine, archived_sha):
                    report.removed.append(name)  # landed here: its remote journal stays
                elif (
                    pending.read(engine, pending.REMOVALS, name) is not None
                ):  # the remote was not told: tell it now
                    unpublished[name] = (archived_sha, archive or "")
                else:  # removed by a taskproto that did not publish removals: here only
                    report.removed.append(name)
            elif _landed(engine, other):
                # done before this clone ever had it: kept as a removed task's journal (its log
                # readable, a task waiting for it ready), not made a task to remove by hand
                journal.keep_archive(engine.git, name, other, utcnow().strftime("%Y%m%dT%H%M%SZ"))
                report.landed.append(name)
            else:
                _adopt(engine, name, other, report)
        elif repo.is_ancestor(mine, other):
            _fast_forward(engine, name, mine, other, report)
            if name in report.fetched and _landed(engine, other) and _never_here(engine, name):
                # landed on another machine, never checked out here: kept as a removed task's
                # journal, as one that landed before this clone had it, not left in CLEANUP
                try:
                    tasks.remove_task(engine, name, publish=False)
                except TaskprotoError:
                    pass  # left in CLEANUP, as before: `task remove` says why
                else:
                    report.fetched.remove(name)
                    report.landed.append(name)
            if name in report.fetched and (pull := _landing_missing(engine, name)):
                report.landed_not_here[name] = pull
        else:
            report.diverged.append(name)
            report.diverged_refs[name] = (journal.REF_PREFIX + name, tasks_prefix + name)
    heads = {name: local[name] for name in to_push}
    for name, why in publish_landed.push_journals(remote, heads, to_push, "pushing journals"):
        if why is None:
            report.pushed.append(name)
        else:
            report.rejected[name] = why
    for name, (sha, archive) in unpublished.items():
        try:
            removed.publish(engine, name, sha, None, removed.stamp_time(archive))
        except TaskprotoError as exc:
            report.rejected[name] = f"its removal here was not published: {exc}"
        else:
            pending.clear(engine, pending.REMOVALS, name)
            report.removed.append(name)
            report.published.append(name)
    claims = publish_claims.publish_pending(engine, report.claims)
    report.claims_published, report.claim_conflicts = claims.published, claims.conflicts
    for name in claims.pending:
        report.rejected[name] = f"its claim was not published: {claims.unreachable}"
    if claims.published:
        report.claims = remote.tracked_claims()
    return report


def _covers(repo: Repo, sha: str, head: str) -> bool:
    """`sha` is `head` or one of its ancestors: nothing in it that `head` lacks."""
    return sha == head or repo.is_ancestor(sha, head)


def _related(repo: Repo, sha: str, head: str) -> bool:
    """One history: `sha` is `head`, before it, or after it (a change pushed over a removal its
    pusher had not seen: a claim's push carries the journal without a lease)."""
    return _covers(repo, sha, head) or repo.is_ancestor(head, sha)


def _removed_elsewhere(
    engine: Core,
    name: str,
    mine: str | None,
    other: str | None,
    gone: Removal,
    archived: str | None,
    report: SyncReport,
) -> bool:
    """A task the remote says was removed: archived here (never had it), removed here too the
    way `task remove` would (nothing of its work lost), or kept with the reason. False: the task
    here is another of that name, made after the removal (unrelated history)."""
    repo = engine.repo
    last = other if other is not None and repo.is_ancestor(gone.journal, other) else gone.journal
    if mine is None:
        if archived is None or not _covers(repo, last, archived):
            stamp = gone.removed_at.strftime("%Y%m%dT%H%M%SZ")
            journal.keep_archive(engine.git, name, last, stamp)
            report.removed_elsewhere.append(name)
        return True
    if not _covers(repo, mine, gone.journal):
        if not repo.is_ancestor(gone.journal, mine):
            return False
        report.kept[name] = f"changed here after {gone.who()} removed it on the remote"
        return True
    if mine != gone.journal and engine.config.task_dir(name).is_dir():
        with engine.lock(name):  # its last changes first, so its archive here holds them
            if journal.head(engine.git, name) == mine:
                take_journal(engine, name, gone.journal, mine)
    try:
        tasks.remove_task(engine, name, publish=False)
    except TaskprotoError as exc:
        report.kept[name] = str(exc)
    else:
        report.removed_elsewhere.append(name)
    return True


def _adopt(engine: Core, name: str, sha: str, report: SyncReport) -> None:
    """A task created on another machine: its folder here, then task.json and its journal from
    `sha`."""
    ensure_root(engine.config)
    try:
        engine.config.task_dir(name).mkdir()
    except FileExistsError:
        report.diverged.append(
            name
        )  # a task of that name exists here with no journal: doctor's to sort out
        return
    with engine.lock(name):
        take_journal(engine, name, sha, None)
    report.adopted.append(name)


def _landed(engine: Core, sha: str) -> bool:
    data = journal.task_json_at(engine.repo, sha)
    return bool(data and data.get("landed"))


def _never_here(engine: Core, name: str) -> bool:
    """No branch, worktree or code folder of the task or its agents on this machine: sync adopted
    it and no session here claimed it (doctor's `not_checked_out_here`, for sync)."""
    config = engine.config
    try:
        task = store.load_task(config.task_file(name))
    except (TaskprotoError, FileNotFoundError):
        return False
    agents = task.required_agents
    branches = [name, *(agent_branch(name, a) for a in agents)]
    trees = [config.task_worktree(name), *(config.agent_worktree(name, a) for a in agents)]
    return not any(engine.repo.branch_exists(b) for b in branches) and not any(
        tree.exists() for tree in trees
    )


def _fast_forward(engine: Core, name: str, mine: str, other: str, report: SyncReport) -> None:
    if not engine.config.task_dir(name).is_dir():
        report.diverged.append(name)
        return
    with engine.lock(name):
        if journal.head(engine.git, name) != mine:
            report.rejected[name] = "changed here during sync; run sync again"
            return
        take_journal(engine, name, other, mine)
    report.fetched.append(name)


def ensure_worktrees(engine: Core, task: Task) -> None:
    """Make the worktrees of a task that came from another machine, when a session here claims
    it."""
    config, remote = engine.config, engine.remote
    if remote is None or config.task_worktree(task.name).exists():
        return
    branches = [task.name] + [agent_branch(task.name, a) for a in task.required_agents]
    if any(engine.repo.branch_exists(b) for b in branches):
        return  # branches are here but a worktree is not: doctor recreates it, never us silently
    fetched = engine.repo.rev_parse(f"refs/remotes/{remote.name}/{task.name}")
    base = fetched or (engine.repo.rev_parse(task.base) if task.base else None)
    if base is None:
        raise TaskprotoError(
            f"task {task.name!r} starts from {(task.base or '?')[:12]}, which this clone does not "
            "have; "
            f"run `git fetch {remote.name}` and claim again"
        )
    wt.create(engine, task.name, task.required_agents, base)


def _not_shared(engine: Core) -> str:
    """Why `sync` has nothing to sync with, and the command that turns sharing on."""
    from taskproto.git.command import RemoteGit
    from taskproto.remote.discover import remotes_with_tasks, working_refusal, working_repository

    git = RemoteGit(engine.config.repo)
    found = remotes_with_tasks(git)
    if found:
        name = "origin" if "origin" in found else sorted(found)[0]
        folder = working_repository(git, name)
        if folder is not None:
            return f"{name} holds {found[name]} task journal(s), but " + working_refusal(
                name, folder
            )
        return (
            f"{name} holds {found[name]} task journal(s), but this clone does not share tasks "
            f"through a remote; run `taskproto init --remote {name}` (it sets remote = "
            f'"{name}" in .taskproto.toml: commit that file so every clone shares them), then '
            "`taskproto sync`"
        )
    return (
        "no remote is configured for sharing tasks; run `taskproto init --remote origin` (it sets "
        'remote = "origin" in .taskproto.toml) to share them through one'
    )


def take_journal(core: Core, name: str, sha: str, old_head: str | None) -> Task:
    """Make the journal commit `sha` this task's record: task.json and the status files from its
    tree, then the journal ref moved from `old_head` (None: none yet) to it. Lock held.

    For a journal that came from elsewhere (sync); no new journal commit is written.
    """
    files = core.repo.history(sha, limit=1)
    data = files[0].files.get(journal.TASK_FILE) if files else None
    if data is None:
        raise TaskprotoError(f"journal commit {sha[:12]} of {name!r} holds no task.json")
    task = store.parse(Task, core.config.task_file(name), data, move_aside=False)
    statuses = {
        agent: status
        for agent in task.required_agents
        if (status := files[0].files.get(journal.status_entry(agent))) is not None
    }
    core.adopt(name, data, statuses)
    journal.move(
        core.git,
        core.config.layout.dirs,
        journal.ref_for(name),
        sha,
        old_head,
        "taskproto: sync",
    )
    return task

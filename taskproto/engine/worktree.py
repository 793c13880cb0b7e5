"""Task and agent worktrees and branches: create (all or nothing) and remove (never losing work)."""

from __future__ import annotations

import os

from taskproto.errors import GitError, TaskprotoError, WorkAtRisk
from taskproto.names import agent_branch

TYPE_CHECKING = False
if TYPE_CHECKING:  # GitPython only to undo a create that failed, or to remove a task
    from collections.abc import Callable, Sequence
    from pathlib import Path
    from re import Pattern

    from taskproto.config import Config
    from taskproto.engine.core import Core
    from taskproto.git.repo import Repo


class Made:
    """The worktrees and branches a create made so far (what `undo` takes back)."""

    def __init__(self, worktrees: list[Path] | None = None, branches: list[str] | None = None):
        self.worktrees: list[Path] = worktrees if worktrees is not None else []
        self.branches: list[str] = branches if branches is not None else []


def create(
    core: Core,
    task: str,
    agents: Sequence[str],
    base_sha: str,
    meanwhile: Callable[[], object] | None = None,
) -> None:
    """Create branch `task` and one branch per agent, each with its worktree, or nothing at all.
    One `git worktree add` per worktree and nothing else: the branches are looked up in-process,
    and GitPython is opened only to undo a create that failed. `meanwhile` runs while git makes
    the first worktree (the caller's own work, done in parallel with git's); whatever it raises
    is raised once git is done, and undoes the create."""
    config, layout = core.config, core.config.layout
    # the paths as strings until git runs: `pathlib` is imported while it does (`meanwhile`)
    plan = [(task, layout.task_worktree(task))]
    plan += [(agent_branch(task, a), layout.agent_worktree(task, a)) for a in agents]
    for branch, where in plan:
        if core.branch_head(branch) is not None:
            raise TaskprotoError(
                f"branch {branch!r} already exists; pick another task name or remove the branch "
                "first"
            )
        if os.path.exists(where):
            raise TaskprotoError(f"{where} already exists; move it away or run `taskproto doctor`")
    made = Made()
    try:
        for branch, where in plan:
            os.makedirs(os.path.dirname(where), exist_ok=True)
            running = core.git.start("worktree", "add", "--quiet", "-b", branch, where, base_sha)
            failed = _during(meanwhile)
            meanwhile = None
            from pathlib import Path  # once git runs: `meanwhile` imported it while it did

            path = Path(where)
            try:
                running.wait()
            except GitError:
                if failed is None:
                    raise
            else:
                made.branches.append(branch)
                made.worktrees.append(path)
            if failed is not None:
                raise failed  # once git is done: what it made is undone below
            # Agent clients read hook settings from the folder they run in, not the main worktree's:
            # after `taskproto init --claude|--codex|--gemini`, each new worktree gets them too.
            from taskproto.clients.settings import setup_new_worktree

            setup_new_worktree(config, path)
            # `[worktree]` include, ports, setup: a failing setup undoes the whole create
            from taskproto.engine.prepare import prepare

            prepare(config, path)
    except (GitError, OSError) as exc:
        undo(core.repo, made)
        from taskproto.git.files import GIT_MISSING, git_missing

        raise TaskprotoError(
            GIT_MISSING
            if git_missing(exc)
            else f"could not create the worktrees of task {task!r} ({exc}); everything made was "
            "undone"
        ) from None
    except BaseException:
        undo(core.repo, made)
        raise


def _during(work: Callable[[], object] | None) -> BaseException | None:
    """Run `work` while git runs; what it raised (even an interrupt) is raised once git is done."""
    if work is None:
        return None
    try:
        work()
    except BaseException as exc:  # noqa: BLE001 - raised again by the caller, after git exits
        return exc
    return None


def recreate(config: Config, repo: Repo, path: Path, branch: str) -> None:
    """Check an existing branch out again at its worktree path (doctor's repair of a lost
    worktree)."""
    from taskproto.clients.settings import setup_new_worktree

    path.parent.mkdir(parents=True, exist_ok=True)
    repo.worktree_add(path, branch, None, new_branch=False)
    setup_new_worktree(config, path)
    from taskproto.engine.prepare import prepare

    prepare(config, path)  # `[worktree]` again: its files, its ports (kept), its setup


def undo(repo: Repo, made: Made) -> None:
    """Remove what `create` made, newest first. Fresh worktrees and branches hold nothing yet,
    so forced removal loses nothing."""
    for path in reversed(made.worktrees):
        try:
            repo.worktree_remove(path, force=True)
        except GitError:
            import shutil  # only on an undo: its import costs every create ~2 ms

            shutil.rmtree(path, ignore_errors=True)
    try:
        if made.worktrees:  # only this task's stale registrations (prune_own)
            prune_own(repo, os.path.commonpath([str(p) for p in made.worktrees]))
    except GitError:
        pass
    for branch in reversed(made.branches):
        try:
            repo.delete_branch(branch, force=True)
        except GitError:
            pass


# The files taskproto itself writes in a task's folder (removed with the task) ...
OURS = frozenset(
    {
        "task.json",
        "task.json.lock",
        "status.json",
        "creating.json",
        "heartbeat.json",  # state/beat.py: the owner's renewed heartbeat
        "tips.log",  # state/tips.py: every move of the task's branches (the git hook)
        "tips.old",
        "round.lock",  # ops/team_run.py
        "worktree.json",  # engine/prepare.py: the worktree's ports and setup
        "agent-hooks.json",  # clients/settings.py: the client hooks copied into its worktrees
        "setup.log",  # engine/prepare.py: the setup's output
        "run.json",  # ops/agent_records.py: an agent taskproto runs
        "agent.log",  # its output, when headless
        "agent.log.1",  # the output before the last rotation
        "exit-status",  # how its client ended (ops/supervisor.py)
        "exit-status.tmp",
    }
)
# An agent's sandbox folder (its own git dir, docs/sandbox.md) goes with the task too: what the
# agent made there is on its branch or in its worktree's files.
SANDBOX = "sandbox"
# ... and the copies it keeps (moved to `<root>/archive/<task>/<time>/`, never deleted): a file or
# folder set aside as `<name>.<why>-<time>` (store.quarantine, doctor's repairs), and build logs.
KEPT_PATTERN = r"\.[a-z][a-z-]*-\d{8}T\d{6}(\.\d+)?Z$|^build-failure-.*\.log$"
ARCHIVE = "archive"
_kept: list[Pattern[str]] = []


def kept_name(name: str) -> bool:
    """Whether a file or folder name is one of the copies taskproto keeps (`KEPT_PATTERN`; `re`
    compiled on first use: creating a task needs none of it)."""
    if not _kept:
        import re

        _kept.append(re.compile(KEPT_PATTERN))
    return _kept[0].search(name) is not None


class RemovalPlan:
    """What removing a task would remove, and what stands in its way."""

    def __init__(
        self,
        worktrees: list[Path],
        branches: list[str],
        dirty: list[Path],
        unique_commits: int,
        strays: list[Path],  # files under the task folder that are neither ours nor a worktree
        kept: list[Path] | None = None,  # copies taskproto kept, to be archived
        kept_in: Path | None = None,  # where they went, once removed
    ) -> None:
        self.worktrees, self.branches, self.dirty = worktrees, branches, dirty
        self.locked: list[Path] = []  # registrations `git worktree lock` locked
        # worktree folders git has registered at no place here (the repository or the root moved
        # and not re-linked yet): git cannot say what they hold
        self.elsewhere: list[Path] = []
        self.loose: list[tuple[Path, str]] = []  # (worktree, its detached HEAD no ref holds)
        self.unique_commits, self.strays = unique_commits, strays
        self.kept: list[Path] = kept if kept is not None else []
        self.kept_in = kept_in
        self.remote_note: str | None = None  # the shared remote could not be told (yet)

    def report(self, task: str, force: bool) -> dict[str, object]:
        """What was removed, as both doors that remove say it (`task remove --json`, the board)."""
        return {
            "name": task,
            "worktrees": [str(p) for p in self.worktrees],
            "branches": self.branches,
            "discarded_commits": self.unique_commits if force else 0,
            "kept_in": str(self.kept_in) if self.kept_in else None,
            "remote_pending": self.remote_note,
        }


def plan_removal(config: Config, repo: Repo, task: str, agents: Sequence[str]) -> RemovalPlan:
    registered = {wt.path.resolve(): wt for wt in repo.worktrees()}
    wanted = [config.task_worktree(task)] + [config.agent_worktree(task, a) for a in agents]
    worktrees = [p for p in wanted if p.resolve() in registered]
    locked = [p for p in worktrees if registered[p.resolve()].locked]
    loose: list[tuple[Path, str]] = []  # a detached HEAD no ref holds goes with its worktree
    for p in worktrees:
        reg = registered[p.resolve()]
        head = reg.head or ""
        if reg.branch is None and head.strip("0") and not repo.reachable_from_any_ref(head):
            loose.append((p, head))
    dirty = [p for p in worktrees if p.exists() and repo.is_dirty(p)]
    branches = [
        b for b in [task] + [agent_branch(task, a) for a in agents] if repo.branch_exists(b)
    ]
    unique = repo.unique_commits(branches) if branches else 0
    strays, kept = task_files(config.task_dir(task), {p.resolve() for p in wanted})
    plan = RemovalPlan(worktrees, branches, dirty, unique, strays, kept)
    plan.locked, plan.loose = locked, loose
    plan.elsewhere = [
        p for p in wanted if p.resolve() not in registered and os.path.isfile(p / ".git")
    ]
    return plan


def prune_own(repo: Repo, folder: str | os.PathLike[str]) -> None:
    """`git worktree prune`, only when every registration it would drop is under `folder` (the
    task's). In a repository moved and not re-linked yet every registration names the old place:
    pruning them all would delete the admin folders `taskproto init` re-links the other tasks'
    worktrees with, and what each had staged. A stale registration of this task left then is
    doctor's to report."""
    base = os.path.realpath(folder) + os.sep
    for wt in repo.worktrees():
        if wt.prunable and not (os.path.realpath(wt.path) + os.sep).startswith(base):
            return
    repo.worktree_prune()


def task_files(task_dir: Path, worktrees: set[Path]) -> tuple[list[Path], list[Path]]:
    """(files nobody told taskproto about, copies taskproto kept) under a task's folder, its
    worktrees left out."""
    strays: list[Path] = []
    kept: list[Path] = []
    from pathlib import Path

    for dirpath, dirnames, filenames in os.walk(task_dir):
        here = Path(dirpath)
        for d in list(dirnames):
            if kept_name(d):
                kept.append(here / d)
        dirnames[:] = [
            d
            for d in dirnames
            if (here / d).resolve() not in worktrees
            and not kept_name(d)
            and not (d == SANDBOX and here.parent.name == "agents")
        ]
        for name in filenames:
            if name in OURS or name.startswith(".tmp-"):
                continue
            (kept if kept_name(name) else strays).append(here / name)
    return strays, kept


def remove(
    config: Config, repo: Repo, task: str, agents: Sequence[str], force: bool, stamp: str
) -> RemovalPlan:
    plan = plan_removal(config, repo, task, agents)
    check_removal(config, plan, task, force)
    for path in reversed(plan.worktrees):
        repo.worktree_remove(path, force=force)
    # a registration of the task's branches whose folder is gone (at an old place, after a move):
    # its own, one by one; the others' are left for `taskproto init` to re-link
    for wt in repo.worktrees():
        if wt.prunable and wt.branch in plan.branches:
            repo.worktree_remove(wt.path, force=True)
    prune_own(repo, config.task_dir(task))
    for branch in reversed(plan.branches):
        repo.delete_branch(branch, force=True)  # reachability was checked above
    archive_kept(config, task, plan.kept, stamp)
    import shutil

    shutil.rmtree(config.task_dir(task), ignore_errors=True)
    if plan.kept:
        plan.kept_in = archive_folder(config, task, stamp)
    return plan


def archive_folder(config: Config, task: str, stamp: str) -> Path:
    """Where the copies a removed task's folder kept go (beside its archived journal's stamp)."""
    return config.root / ARCHIVE / task / stamp


def archive_kept(config: Config, task: str, kept: Sequence[Path], stamp: str) -> None:
    task_dir = config.task_dir(task)
    for path in kept:
        target = archive_folder(config, task, stamp) / path.relative_to(task_dir)
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, target)


def check_removal(config: Config, plan: RemovalPlan, task: str, force: bool) -> None:
    """Refuse (without --force) a removal that would lose work; refuse always while taskproto
    runs one of its agents (its supervisor would lose track of the process)."""
    running = running_agents(config, task)
    if running:
        raise WorkAtRisk(
            f"refusing to remove task {task!r}: its agent {running[0]} is running; stop it first "
            f"(`taskproto agent stop {task} {running[0]}`)"
        )
    if not force:
        if plan.elsewhere:  # git can tell nothing of what it holds: nothing is removed
            raise WorkAtRisk(
                f"refusing to remove task {task!r}: its worktree {plan.elsewhere[0]} is not "
                "registered in git at this place (was the repository or taskproto's root "
                "moved?); run `taskproto init` here, which re-links it, or pass --force to "
                "delete it with whatever it holds"
            )
        if plan.locked:  # git refuses it, after the agents' worktrees were removed
            raise WorkAtRisk(
                f"refusing to remove task {task!r}: its worktree {plan.locked[0]} is locked "
                f"(`git worktree lock`); `git worktree unlock {plan.locked[0]}` first, or pass "
                "--force"
            )
        if plan.loose:
            path, head = plan.loose[0]
            raise WorkAtRisk(
                f"refusing to remove task {task!r}: the detached HEAD {head[:12]} in {path} is "
                f"on no branch; keep it with `git -C {path} branch NAME {head[:12]}`, or pass "
                "--force to delete it"
            )
        if plan.dirty:
            raise WorkAtRisk(
                f"refusing to remove task {task!r}: uncommitted changes in "
                f"{', '.join(map(str, plan.dirty))}; "
                "commit or stash them, or pass --force to discard them"
            )
        if plan.unique_commits:
            raise WorkAtRisk(
                f"refusing to remove task {task!r}: {plan.unique_commits} commit(s) on "
                f"{', '.join(plan.branches)} are on no other branch; merge them, or pass --force "
                "to delete them"
            )
        if plan.strays:
            raise WorkAtRisk(
                f"refusing to remove task {task!r}: {len(plan.strays)} unknown file(s) under "
                f"{config.task_dir(task)} (first: {plan.strays[0]}); move them away or pass --force"
            )


def running_agents(config: Config, task: str) -> list[str]:
    """The agents of `task` whose process `taskproto agent start` started is alive (their
    run.json, ops/agent_records.py)."""
    from taskproto import plainjson as json

    found = []
    agents = config.task_dir(task) / "agents"
    for run in sorted(agents.glob("*/run.json")) if agents.is_dir() else []:
        try:
            record = json.loads(run.read_bytes())
            with open(f"/proc/{int(record.get('pid'))}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
            since = record.get("pid_started")  # the same process, not a later one with its pid
            if fields[0] not in (b"Z", b"X") and (since is None or int(fields[19]) == since):
                found.append(run.parent.name)
        except (OSError, ValueError, TypeError, AttributeError, IndexError):
            continue
    return found

"""`taskproto land`: the approved commit onto the base branch, then CLEANUP. The user's alone.

Only in COMPLETE with a current approval (the approved commit is the task branch's head). The new
base commit is made without touching any worktree (`git merge-tree --write-tree`, then
`commit-tree`), so a conflict with a base that moved refuses the landing with nothing written.
With a remote (asked for, or taskproto's shared remote) the new commit is pushed first, with no
force: a remote whose base moved refuses it, and nothing local has changed yet. Then the base
branch moves (its worktree fast-forwarded when it is checked out, else a compare-and-swap of the
ref), the task goes to CLEANUP with the landing recorded, and the worktrees and branches are removed
only when every commit of them is reachable from the base; the journal is archived with them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, cast

from taskproto.engine import basebranch
from taskproto.engine.core import Core
from taskproto.engine.tasks import remove_task
from taskproto.errors import GitError, TaskprotoError
from taskproto.git.command import RemoteGit, git_message
from taskproto.machine.workflow import fire
from taskproto.names import TaskName, agent_branch
from taskproto.state import registry
from taskproto.state.models import LandRecord, Task, utcnow

Strategy = Literal["merge", "ff", "squash"]
STRATEGIES: tuple[Strategy, ...] = ("merge", "ff", "squash")
LANDS_FROM = "COMPLETE"


@dataclass
class LandReport:
    task: str
    record: LandRecord
    state: str
    removed: bool
    kept: str | None  # why the worktrees and branches were kept
    attested: str | None = None  # the commit whose note under refs/notes/taskproto attests it

    def as_json(self) -> dict[str, object]:
        return {
            "task": self.task,
            **self.record.model_dump(mode="json"),
            "state": self.state,
            "removed": self.removed,
            "kept": self.kept,
            "attested": self.attested,
        }


def _approved(core: Core, task: Task) -> str:
    approval = task.checkpoint.commit_approval
    head = core.branch_head(task.name)
    hint = f"`taskproto approve {task.name} --commit`"
    if approval is None or approval.sha is None:
        raise TaskprotoError(f"task {task.name!r} has no commit approval; the user runs {hint}")
    if approval.stale or approval.sha != head:
        raise TaskprotoError(
            f"the approval of task {task.name!r} is stale: approved {approval.sha[:12]}, branch "
            f"{task.name} is at {(head or 'nothing')[:12]}; review it and run {hint} again"
        )
    from taskproto.engine.signing import required

    if required(core.config) and core.layout.dirs is not None:  # docs/verify.md
        from taskproto.state.approvals import unsigned_refusal

        refusal = unsigned_refusal(core.layout.dirs, task.name, "land")
        if refusal is not None:
            raise TaskprotoError(refusal)
    return approval.sha


def _push_remote(core: Core, push: bool, base: str) -> str | None:
    if core.config.remote:
        return core.config.remote
    if not push:
        return None
    remotes = core.git.run("remote").split()
    upstream = core.git.run("config", "--get", f"branch.{base}.remote", check=False).strip()
    for name in (upstream, "origin", *remotes):
        if name and name in remotes:
            return name
    raise TaskprotoError(
        "--push: this repository has no remote; add one (`git remote add origin URL`) or land "
        "without --push"
    )


def _new_base(
    core: Core, task: Task, strategy: Strategy, base: str, old: str, approved: str
) -> str:
    """The commit the base branch moves to; refused (nothing written) when it cannot be made."""
    if core.repo.is_ancestor(approved, old):
        return old  # already on the base: nothing to add
    update = (
        f"update the task: `taskproto update {task.name}` (then approve it again), or "
        f"`taskproto land {task.name} --update` in one step"
    )
    if strategy == "ff":
        if not core.repo.is_ancestor(old, approved):
            raise TaskprotoError(
                f"cannot fast-forward {base} to {approved[:12]}: {base} moved to {old[:12]} since "
                f"the task started; land with --strategy merge, or {update}"
            )
        return approved
    tree, conflicts = core.repo.merge_tree(old, approved)
    if tree is None:
        raise TaskprotoError(
            f"{base} moved to {old[:12]} and conflicts with task {task.name} in "
            f"{', '.join(conflicts)}; {update}"
        )
    title = task.description.strip().splitlines()[0] if task.description.strip() else task.name
    trailer = f"Task: {task.name}\nApproved: {approved}"
    if strategy == "squash":
        return core.repo.commit_tree(tree, [old], f"{title}\n\n{trailer}\n")
    return core.repo.commit_tree(
        tree, [old, approved], f"Merge task {task.name} into {base}: {title}\n\n{trailer}\n"
    )


def move_base(core: Core, base: str, old: str, new: str, push: bool = False) -> str | None:
    """Move branch `base` from `old` to `new`: refused (nothing moved) when that would touch an
    uncommitted change where it is checked out, or when the remote (taskproto's shared one, or with
    `push` the branch's) refuses it (a compare-and-swap: no force); returns the remote pushed to."""
    _check_base_worktree(core, base, old, new)
    remote = _push_remote(core, push, base)
    if remote is not None and new != old:
        _push(core, remote, base, new)
    _move_base(core, base, old, new)
    return remote


_move_base = basebranch.move


def _check_base_worktree(core: Core, base: str, old: str, new: str) -> None:
    """Refuse when moving `base` from `old` to `new` in the worktree where it is checked out would
    touch an uncommitted change there (staged, unstaged, untracked or ignored), as git's own merge
    would: files the landing does not change are left alone (e.g. `.claude/` after `init --claude`).
    """
    if new == old:
        return
    for w in core.repo.worktrees():
        if w.branch == base and not w.bare and w.path.is_dir():
            dirty = core.repo.changed_files(w.path, ignored=True)
            hit = overlapping(dirty, core.repo.paths_changed(old, new)) if dirty else []
            if hit:
                raise TaskprotoError(
                    f"refusing to land: {base} is checked out in {w.path} with uncommitted changes "
                    f"in {', '.join(hit[:10])}, which the landing changes; commit, move or stash "
                    "them first"
                )


def overlapping(dirty: list[str], changed: list[str]) -> list[str]:
    """The entries of `dirty` (a folder ends in `/`) that are, hold or sit under a path of
    `changed` (pure)."""
    changed_set = set(changed)
    folders = {p[: i + 1] for p in changed for i, ch in enumerate(p) if ch == "/"}
    hit: list[str] = []
    for path in dirty:
        bare = path.rstrip("/")
        parents = (bare[: i + 1] for i, ch in enumerate(bare) if ch == "/")
        if (
            bare in changed_set  # the same file, or a file where the landing puts a folder
            or (path.endswith("/") and path in folders)  # a folder the landing writes into
            or (bare + "/") in folders
            or any(p.rstrip("/") in changed_set for p in parents)  # under a file it writes
        ):
            hit.append(path)
    return hit


def land(
    core: Core,
    name: TaskName,
    strategy: Strategy = "merge",
    push: bool = False,
    onto: str | None = None,
    session: str | None = None,
    update: str | None = None,
) -> LandReport:
    """Land task `name` (see the module docstring). The user's alone. With `update` ("merge" or
    "rebase"), a base that moved is first brought into the task branch (engine/update.py): the
    approval is carried only when the approved change is unchanged (same patch-id)."""
    core.require_user(f"landing task {name!r}")
    if strategy not in STRATEGIES:
        raise TaskprotoError(f"unknown strategy {strategy!r}; use one of {', '.join(STRATEGIES)}")
    if update is not None:
        _update_first(core, name, update, onto, session)
    with core.locked(name) as task:
        refuse_without_complete(core, task)
        if task.state != LANDS_FROM:
            step = f"`taskproto transition {name} {LANDS_FROM}`"
            owner = task.owner.session if task.owner is not None else None
            if owner is not None and owner != session:  # the user's transition would be refused
                step = f"its owner, session {owner}, runs {step} (or you, with --force, logged)"
            approval = task.checkpoint.commit_approval
            if approval and not approval.stale and approval.sha == core.branch_head(name):
                raise TaskprotoError(  # not "approve it" again: it is
                    f"task {name!r} is in {task.state}; it lands from {LANDS_FROM}: its head is "
                    f"approved, so {step}, then `taskproto land {name}`"
                )
            raise TaskprotoError(
                f"task {name!r} is in {task.state}; it lands from {LANDS_FROM}, after the user "
                f"approved its head (`taskproto approve {name} --commit`, then {step})"
            )
        approved = _approved(core, task)
        from taskproto.engine.update import base_tip

        hint = "pass --onto BRANCH"
        base, old = base_tip(core, name, onto or task.base_branch, hint, hint)
        new = _new_base(core, task, strategy, base, old, approved)
        remote = move_base(core, base, old, new, push)
        record = LandRecord(
            approved=approved,
            base_branch=base,
            base_before=old,
            base_after=new,
            strategy=strategy,
            pushed_to=remote,
            at=utcnow(),
        )
        done = _cleanup_state(core, task, record, session)
        core.save(task, done, f"land: {approved[:12]} onto {base} ({strategy}) -> {done.state}")
        from taskproto.engine import attest, signing

        passed = attest.guards(core.workflow(task), LANDS_FROM, signing.required(core.config))
        attested = attest.write(core, task, record, passed)  # the journal still names the task
        if task.owner is not None:
            registry.forget(task.owner.session, name)
    removed, kept = _remove_if_safe(core, done, base)
    return LandReport(name, record, done.state, removed, kept, attested)


def refuse_without_complete(core: Core, task: Task) -> None:
    """Refuse a task whose workflow has no COMPLETE state (tight-loop, plan-task, phone-a-team):
    nothing approves its head for landing, so taskproto does not land it; the user merges it."""
    wf = core.workflow(task)
    if not wf.has_state(LANDS_FROM):
        raise TaskprotoError(
            f"task {task.name!r} is not landed by taskproto: workflow {wf.name} has no "
            f"{LANDS_FROM} state (a task lands from {LANDS_FROM}, after the user approved its "
            f"head, as in task-protocol); merge its branch yourself (`git merge {task.name}` "
            f"where the base is checked out), then `taskproto task remove {task.name}`"
        )


def _update_first(
    core: Core, name: TaskName, mode: str, onto: str | None, session: str | None
) -> None:
    """`land --update`: bring a base that moved into the task branch, keeping the approval only
    for the same change; refused (after the update, journaled) when it must be approved again."""
    from taskproto.engine import update as updating

    task = core.load(name)
    base = onto or task.base_branch
    tip = basebranch.catch_up(core, base) if base else None
    head = core.branch_head(name)
    if onto not in (None, task.base_branch):
        raise TaskprotoError(
            "--update brings in the task's own base branch: land it without --onto"
        )
    if tip is None or head is None or core.repo.is_ancestor(tip, head):
        return  # nothing to bring in
    if task.state != LANDS_FROM:
        return  # refused below, saying why
    report = updating.update(core, name, cast(updating.Mode, mode), False, session, carry=True)
    if report.approval != "carried":
        raise TaskprotoError(
            f"bringing {base} into task {name} changed the approved change (its patch-id is not "
            f"the approved one's): nothing was landed; task {name} is in {report.state} at "
            f"{report.head[:12]}: review it and `taskproto approve {name} --commit` again"
        )


def _push(core: Core, remote: str, base: str, new: str) -> None:
    target = f"refs/heads/{base}"
    try:
        statuses = RemoteGit(core.config.repo).push(remote, [f"{new}:{target}"])
    except GitError as exc:
        raise TaskprotoError(
            f"pushing {base} to {remote} failed ({git_message(exc.stderr)}); nothing was landed"
        ) from None
    status = statuses.get(target)
    if status is None or not status.ok:
        why = status.reason if status else "no status"
        raise TaskprotoError(
            f"{remote} refused {base} ({why}): its {base} has commits this repository lacks; "
            f"`git pull` {base} first, then land again; nothing was landed"
        )


def _cleanup_state(core: Core, task: Task, record: LandRecord, session: str | None) -> Task:
    wf = core.workflow(task)
    now = utcnow()
    new = task.model_copy(deep=True)
    new.landed = record
    new.record(
        trigger="land",
        time=now,
        session=session,
        kind="land",
        note=f"{record.approved[:12]} onto {record.base_branch} ({record.strategy}): "
        f"{record.base_before[:12]} -> {record.base_after[:12]}"
        + (f", pushed to {record.pushed_to}" if record.pushed_to else ""),
    )
    if task.owner is not None:
        new.owner = None
        new.record(
            trigger="release",
            time=now,
            session=session,
            kind="release",
            forced=task.owner.session != session,
            note=f"released {task.owner.session}: the task landed",
        )
    trigger = next((t.trigger for t in wf.triggers_from(task.state) if t.dest == "CLEANUP"), None)
    if trigger is None:
        return new
    return fire(wf, new, trigger, core.context(new, session, time=now))


def _remove_if_safe(core: Core, task: Task, base: str) -> tuple[bool, str | None]:
    branches = [task.name, *(agent_branch(task.name, a) for a in task.required_agents)]
    present = [f"refs/heads/{b}" for b in branches if core.branch_head(b) is not None]
    left = core.repo.unreachable(present, f"refs/heads/{base}")
    if left:
        return False, (
            f"{left} commit(s) of the task's branches are not on {base}, so its worktrees and "
            f"branches were kept; `taskproto task remove {task.name} --force` deletes them"
        )
    try:
        remove_task(core, task.name)
    except TaskprotoError as exc:
        # the refusal's --force is task remove's (land has none): name the command
        return False, (
            f"its worktrees and branches were kept: {exc}; then `taskproto task remove "
            f"{task.name}` (with that --force, if you chose it) removes them"
        )
    return True, None

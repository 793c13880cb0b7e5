"""The fixes of the git side: stale registrations, lost branches and worktrees, orphans.

Each holds the task's lock where it changes the task, re-checks what it saw, and never deletes work.
"""

from __future__ import annotations

import os
from pathlib import Path

from taskproto.doctor.fixes import FixContext, fix, name_of, offers
from taskproto.doctor.lost import last_tip, refuse_dangling, restore_options
from taskproto.doctor.model import Finding, Option
from taskproto.doctor.repair import repairing, set_aside
from taskproto.doctor.snapshot import real
from taskproto.engine import Engine
from taskproto.engine import worktree as wt
from taskproto.errors import TaskprotoError, WorkAtRisk
from taskproto.git.worktrees import WorktreeInfo


@fix("worktree-prunable")
def prune(ctx: FixContext, f: Finding) -> str:
    def do() -> str:
        if not ctx.pruned:
            ctx.engine.repo.worktree_prune()
            ctx.pruned = True
        return f"pruned git's stale registration of {f.path}"

    if f.task is None:
        return do()
    with repairing(ctx.engine, f.task, f.check) as r:
        r.notes.append(do())
    return r.notes[-1]


def _registered(ctx: FixContext, path: Path) -> WorktreeInfo | None:
    return {real(w.path): w for w in ctx.engine.repo.worktrees()}.get(real(path))


@fix("task-branch-missing", "agent-branch-missing")
def recreate_branch(ctx: FixContext, f: Finding) -> str:
    engine, branch = ctx.engine, str(f.data["branch"])
    with repairing(engine, name_of(f), f.check) as r:
        if engine.repo.branch_exists(branch):
            return f"branch {branch} exists again; nothing to do"
        tip = last_tip(engine, branch, Path(f.path) if f.path else None, r.new)
        sha, source = tip.sha, tip.source
        if sha is None and tip.lost:
            lost = ", ".join(f"{s[:12]} ({where})" for s, where in tip.lost)
            raise WorkAtRisk(
                f"branch {branch} last pointed at {lost}, and that commit is lost (no longer in "
                "this repository); fetch it from another clone, or re-create the branch by hand"
            )
        if sha is None:
            refuse_dangling(engine, r.new.name, branch, r.new.base)
        if sha is None and f.agent is not None:
            sha, source = engine.branch_head(r.new.name), f"the head of task branch {r.new.name}"
        if sha is None and r.new.base:
            sha, source = r.new.base, "the task's base commit (the branch had no recorded commit)"
        if sha is None:
            raise TaskprotoError(
                f"no commit is known to re-create branch {branch} at; create it by hand"
            )
        engine.repo.update_ref(
            f"refs/heads/{branch}", sha, None, message="taskproto doctor: re-create branch"
        )
        r.notes.append(f"re-created branch {branch} at {sha[:12]} ({source})")
    return r.notes[-1]


@offers("task-branch-missing", "agent-branch-missing")
def restore_choices(engine: Engine, f: Finding) -> tuple[Option, ...]:
    """The commits a person may re-create the branch at, when nothing taskproto keeps names one."""
    branch = str(f.data["branch"])
    task = engine.load(name_of(f), verify=False)
    if engine.repo.branch_exists(branch):
        return ()
    tip = last_tip(engine, branch, Path(f.path) if f.path else None, task)
    if tip.sha is not None or tip.lost:
        return ()  # doctor --fix re-creates it, or the commit is lost: nothing to choose
    return restore_options(engine, branch, task.base)


@fix("worktree-unregistered")
def reregister(ctx: FixContext, f: Finding) -> str:
    engine, branch = ctx.engine, str(f.data["branch"])
    assert f.path is not None
    path = Path(f.path)
    with repairing(engine, name_of(f), f.check) as r:
        if _registered(ctx, path) is not None or not os.path.lexists(path):
            return f"{path} is no longer an unregistered folder; nothing to do"
        if path.is_dir() and not path.is_symlink() and not os.listdir(path):
            path.rmdir()
            r.notes.append(f"removed the empty unregistered folder {path}")
        else:
            kept = set_aside(path, "unregistered")
            r.notes.append(
                f"moved the unregistered folder aside to {kept} (kept, with its contents)"
            )
        if engine.repo.branch_exists(branch):
            engine.repo.worktree_add(path, branch, None, new_branch=False)
            r.notes.append(f"re-added worktree {path} on branch {branch}")
    return "; ".join(r.notes)


@fix("worktree-wrong-branch")
def switch_back(ctx: FixContext, f: Finding) -> str:
    engine, branch = ctx.engine, str(f.data["branch"])
    assert f.path is not None
    path = Path(f.path)
    with repairing(engine, name_of(f), f.check) as r:
        reg = _registered(ctx, path)
        if reg is None or reg.branch == branch:
            return "the worktree is gone or already on its branch; nothing to do"
        if engine.repo.is_dirty(path):
            raise WorkAtRisk(
                f"{path} has uncommitted changes on {reg.branch or 'a detached HEAD'}; "
                f"commit or stash them, then `git switch {branch}` there"
            )
        if reg.branch is None and reg.head and not engine.repo.reachable_from_any_ref(reg.head):
            raise WorkAtRisk(
                f"the detached HEAD {reg.head[:12]} in {path} is on no branch; "
                f"keep it with `git branch NAME {reg.head[:12]}` first"
            )
        engine.repo.switch(path, branch)
        r.notes.append(f"switched {path} from {reg.branch or 'a detached HEAD'} back to {branch}")
    return r.notes[-1]


@fix("task-worktree-missing", "agent-worktree-missing")
def readd_worktree(ctx: FixContext, f: Finding) -> str:
    engine, branch = ctx.engine, str(f.data["branch"])
    assert f.path is not None
    path = Path(f.path)
    with repairing(engine, name_of(f), f.check) as r:
        if os.path.lexists(path):
            return f"{path} exists again; nothing to do"
        reg = _registered(ctx, path)
        # another registration of the branch: one whose folder is gone (the repository moved) is
        # pruned; git refuses a second checkout while one whose folder exists holds it
        others = [w for w in engine.repo.worktrees() if w is not reg and w.branch == branch]
        live = [w for w in others if not w.prunable]
        held = reg if reg is not None and reg.locked else next(iter(live), None)
        if held is not None and held.locked and not os.path.lexists(held.path):
            raise WorkAtRisk(
                f"the worktree registration of {held.path} is locked (`git worktree lock`): "
                f"plug in the drive it is on, or `git worktree unlock {held.path}` if it is gone "
                "for good"
            )
        if live:  # `git worktree move` took it away
            raise WorkAtRisk(
                f"branch {branch} is checked out at {live[0].path}; move that worktree back with "
                f"`git worktree move {live[0].path} {path}`"
            )
        stale = bool(others)
        if (reg is not None and reg.prunable) or stale:
            engine.repo.worktree_prune()
        wt.recreate(engine.config, engine.repo, path, branch)
        r.notes.append(f"re-added worktree {path} from existing branch {branch}")
    return r.notes[-1]


@fix("orphan-worktree")
def remove_orphan_worktree(ctx: FixContext, f: Finding) -> str:
    git = ctx.engine.repo
    assert f.path is not None
    path = Path(f.path)
    reg = _registered(ctx, path)
    if reg is None:
        return f"{path} is no longer registered; nothing to do"
    if reg.locked:
        raise WorkAtRisk(
            f"{path} is locked (`git worktree lock`); `git worktree unlock {path}` first"
        )
    head = reg.head or ""
    if reg.branch is None and head.strip("0") and not git.reachable_from_any_ref(head):
        raise WorkAtRisk(
            f"the detached HEAD {head[:12]} in {path} is on no branch; keep it with "
            f"`git -C {path} branch NAME {head[:12]}`"
        )
    if path.exists() and git.is_dirty(path):
        raise WorkAtRisk(
            f"orphan worktree {path} has uncommitted changes; commit or move them first"
        )
    git.worktree_remove(path)
    return f"removed clean orphan worktree {path} (branch {f.data.get('branch') or 'none'} kept)"


@fix("orphan-branch")
def delete_orphan_branch(ctx: FixContext, f: Finding) -> str:
    git, branch = ctx.engine.repo, str(f.data["branch"])
    if not git.branch_exists(branch):
        return f"branch {branch} is gone; nothing to do"
    if any(w.branch == branch for w in git.worktrees()):
        raise WorkAtRisk(
            f"branch {branch} is checked out in a worktree; remove that worktree first"
        )
    unique = git.unique_commits([branch])
    if unique:
        raise WorkAtRisk(
            f"branch {branch} holds {unique} commit(s) found on no other branch; merge or keep it"
        )
    git.delete_branch(branch, force=True)  # every commit is on another ref (checked above)
    return (
        f"deleted orphan branch {branch} at {str(f.data.get('sha', ''))[:12]} (all its commits "
        "are elsewhere)"
    )

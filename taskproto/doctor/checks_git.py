"""Checks of the git side: worktrees, branches, shared agent branches, orphans.

They read the Snapshot's one worktree listing and one ref listing; no git runs here.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from taskproto.doctor.checks import _f
from taskproto.doctor.model import CHECKS, REFUSED, Finding, Option
from taskproto.doctor.moved import relinkable, set_aside_folders
from taskproto.doctor.snapshot import CODE, Snapshot, TaskView
from taskproto.git.worktrees import WorktreeInfo
from taskproto.names import agent_branch
from taskproto.sessions import hostname


def expected(snap: Snapshot, view: TaskView) -> list[tuple[str | None, Path, str]]:
    """(agent or None, worktree path, branch) of every worktree the task should have (worked out
    once per snapshot)."""
    task = view.head
    assert task is not None
    rows = snap.rows.get(view.name)
    if rows is None and task.at_claim:
        rows = snap.rows[view.name] = []  # imported: made when it starts (engine/imported.py)
    if rows is None:
        # config.task_worktree and config.agent_worktree, built from the task's folder (the view's,
        # unless task.json names another task)
        top = view.dir if task.name == view.name else snap.config.task_dir(task.name)
        rows = [(None, top / CODE, task.name)]
        rows += [
            (a, top.joinpath("agents", a, CODE), agent_branch(task.name, a))
            for a in task.required_agents
        ]
        snap.rows[view.name] = rows
    return rows


def not_checked_out_here(snap: Snapshot, view: TaskView) -> bool:
    """A task shared through the remote that no session of this host holds, with no branch, no
    worktree and no folder of them here: sync adopted it, and its worktrees are made when a session
    here claims it (docs/remote.md), from the remote's branch. Nothing is missing."""
    task = view.head
    if snap.config.remote is None or task is None:
        return False
    if task.owner is not None and task.owner.host == hostname():
        return False
    return not any(
        branch in snap.branches
        or snap.real(path) in snap.wt_by_path
        or branch in snap.wt_by_branch
        or snap.real.exists(path)
        for _, path, branch in expected(snap, view)
    )


def rebasing(reg: WorktreeInfo) -> str | None:
    """The branch a rebase half done in the worktree rebases (git detaches HEAD until it ends),
    from `head-name` in its admin folder; None when no rebase is half done."""
    names = reg.admin_names or frozenset()
    for folder in ("rebase-merge", "rebase-apply"):
        if reg.admin is not None and folder in names:
            try:
                with open(os.path.join(reg.admin, folder, "head-name"), "rb") as fh:
                    return fh.read(4096).strip().decode("utf-8", "surrogateescape")
            except OSError:
                return None
    return None


def check_worktrees(snap: Snapshot, view: TaskView) -> Iterator[Finding]:
    cfg = snap.config
    if not_checked_out_here(snap, view):
        return
    for agent, path, branch in expected(snap, view):
        who = f"agent {agent}" if agent else "task"
        missing_id = "agent-worktree-missing" if agent else "task-worktree-missing"
        branch_id = "agent-branch-missing" if agent else "task-branch-missing"
        reg = snap.wt_by_path.get(snap.real(path))
        on_disk = snap.real.exists(path)
        has_branch = branch in snap.branches
        if reg is not None and reg.prunable:
            yield _f(
                "worktree-prunable",
                view,
                f"{who} worktree {path}: {reg.prunable}",
                agent,
                str(path),
            )
        relink = (
            relinkable(cfg.common_dir, cfg.root, path, branch) if reg is None and on_disk else None
        )
        aside = (
            [
                a
                for a in set_aside_folders(path)
                if relinkable(cfg.common_dir, cfg.root, path, branch, a)
            ]
            if not on_disk
            else []
        )
        if relink is not None:
            yield _f(
                "worktree-moved",
                view,
                f"{who} worktree {path} is registered in git at its old place "
                f"({relink.name}); the repository or taskproto's root was moved",
                agent,
                str(path),
                branch=branch,
            )
        elif aside:
            yield _f(
                "worktree-set-aside",
                view,
                f"{who} worktree {path} is missing; an earlier doctor moved it aside to "
                f"{aside[-1]} (with its contents)",
                agent,
                str(path),
                branch=branch,
                source=str(aside[-1]),
            )
        elif reg is None and on_disk:
            yield _f(
                "worktree-unregistered",
                view,
                f"{who} folder {path} exists but is not a git worktree",
                agent,
                str(path),
                branch=branch,
            )
        elif (reg is None or reg.prunable or reg.locked) and not on_disk and has_branch:
            # git never calls a locked registration prunable: its folder may be on a drive
            # that is unplugged, so the fix leaves it to the user
            held = reg is not None and reg.locked
            lock = (
                f"; its registration is locked: plug in the drive it is on, or `git worktree "
                f"unlock {path}` if it is gone for good"
                if held
                else ""
            )
            # the fix refuses a locked registration: no --fix is offered for it (model.REFUSED)
            refused = {REFUSED: LOCKED, "options": _unlock(path, branch)} if held else {}
            yield _f(
                missing_id,
                view,
                f"{who} worktree {path} is missing; branch {branch} exists{lock}",
                agent,
                str(path),
                branch=branch,
                **refused,
            )
        elif (
            reg is not None
            and not reg.prunable
            and reg.branch != branch
            and rebasing(reg) != f"refs/heads/{branch}"  # git-operation-in-progress names it
        ):
            now = (
                f"branch {reg.branch}"
                if reg.branch
                else f"a detached HEAD ({(reg.head or '?')[:12]})"
            )
            yield _f(
                "worktree-wrong-branch",
                view,
                f"{who} worktree {path} has {now} checked out, not {branch}",
                agent,
                str(path),
                branch=branch,
                current=reg.branch,
            )
        if not has_branch:
            where = "its worktree is registered" if reg is not None else "no worktree either"
            yield _f(
                branch_id,
                view,
                f"{who} branch {branch} is missing ({where})",
                agent,
                str(path),
                branch=branch,
            )


def check_shared(snap: Snapshot) -> Iterator[Finding]:
    """Two tasks that need the same branch or the same worktree folder."""
    owners: dict[str, list[tuple[str, str | None]]] = {}
    for view in snap.tasks.values():
        if view.head is None:
            continue
        for agent, path, branch in expected(snap, view):
            for key in (f"branch {branch}", f"worktree {snap.real(path)}"):
                owners.setdefault(key, []).append((view.name, agent))
    for key, users in owners.items():
        if len(users) < 2 or not any(agent for _, agent in users):
            continue
        names = ", ".join(f"{t}/{a}" if a else f"{t} (task)" for t, a in users)
        for task, agent in users:
            yield Finding(
                "agent-worktree-shared",
                CHECKS["agent-worktree-shared"].severity,
                f"{key} is needed by {names}",
                task,
                agent,
                data={"key": key},
            )


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def check_orphans(snap: Snapshot) -> Iterator[Finding]:
    """Worktrees under the root and task-shaped branches that no task uses (whole-repository runs
    only)."""
    cfg = snap.config
    root = snap.real(cfg.root)
    paths: set[str] = set()
    branches: set[str] = set(cfg.protected_branches)
    unsure: list[str] = []  # folders of tasks we cannot read: leave everything in them alone
    for view in snap.tasks.values():
        if view.head is None:
            unsure.append(snap.real(view.dir))
            branches.add(view.name)
            branches.update(agent_branch(view.name, a) for a in view.agent_dirs)
            continue
        for _, path, branch in expected(snap, view):
            paths.add(snap.real(path))
            branches.add(branch)
    suspects: dict[str, str] = {}
    for wt in snap.worktrees:
        p = snap.real(wt.path)
        if not _under(p, root) or p in paths or wt.prunable or any(_under(p, u) for u in unsure):
            continue
        yield Finding(
            "orphan-worktree",
            CHECKS["orphan-worktree"].severity,
            f"worktree {wt.path} (branch {wt.branch or 'detached'}) belongs to no task",
            path=str(wt.path),
            data={"branch": wt.branch},
        )
        if wt.branch:
            suspects[wt.branch] = f"checked out in orphan worktree {wt.path}"
    removed = {t for t in snap.archived if t not in snap.tasks and t not in snap.journals}
    for branch in snap.branches:
        if branch in branches or branch in suspects:
            continue
        if branch in removed:
            suspects[branch] = f"task {branch} was removed"
            continue
        for i, ch in enumerate(branch):
            if ch != "-":
                continue
            prefix, rest = branch[:i], branch[i + 1 :]
            if prefix in removed:
                suspects[branch] = f"task {prefix} was removed"
                break
            owner = snap.tasks.get(prefix)
            if owner is not None and owner.head is not None and rest in owner.agent_dirs:
                suspects[branch] = f"{rest} is not an agent of task {prefix}"
                break
    for branch, why in sorted(suspects.items()):
        if branch in branches or branch not in snap.branches:
            continue
        yield Finding(
            "orphan-branch",
            CHECKS["orphan-branch"].severity,
            f"branch {branch}: {why}",
            data={"branch": branch, "sha": snap.branches[branch]},
        )


def check_folders(snap: Snapshot) -> Iterator[Finding]:
    """Live journals whose task folder is gone, and prunable registrations under the root."""
    names = snap.scope if snap.scope is not None else list(snap.journals)
    for name in names:
        if (
            name in snap.journals
            and name not in snap.tasks
            and not snap.config.task_dir(name).exists()
        ):
            yield Finding(
                "task-folder-missing",
                CHECKS["task-folder-missing"].severity,
                f"task {name} has a journal ({snap.journals[name][:12]}) but no folder",
                name,
            )
    if snap.scope is not None:
        return
    root = snap.real(snap.config.root)
    known = {snap.real(p) for v in snap.tasks.values() if v.head for _, p, _ in expected(snap, v)}
    for wt in snap.worktrees:
        p = snap.real(wt.path)
        if wt.prunable and _under(p, root) and p not in known:
            yield Finding(
                "worktree-prunable",
                CHECKS["worktree-prunable"].severity,
                f"worktree {wt.path}: {wt.prunable}",
                path=str(wt.path),
            )


def check_replacements(snap: Snapshot) -> Iterator[Finding]:
    """Every `refs/replace/*` (whole-repository runs): git would show another object in place of
    the commit it names. taskproto reads with replacements off (git/files.py NO_REPLACE), so none
    changes what it reads; a person says whether it was theirs."""
    heads = {sha: task for task, sha in snap.journals.items()}
    for replaced, by in sorted(snap.replacements.items()):
        task = heads.get(replaced)
        what = f"the journal head of task {task}" if task else "object"
        yield Finding(
            "replace-ref",
            CHECKS["replace-ref"].severity,
            f"refs/replace/{replaced} makes git show {by[:12]} in place of {what} {replaced[:12]}",
            task,
            data={"ref": f"refs/replace/{replaced}", "sha": by},
        )


LOCKED = "its registration is locked (`git worktree lock`)"


def _unlock(path: Path, branch: str) -> tuple[Option, ...]:
    """What to do about a missing worktree whose registration is locked (the fix refuses it)."""
    return (
        Option(
            f"Plug in the drive {path} is on; if it is gone for good, `git worktree unlock "
            f"{path}` and run `taskproto doctor --fix` (it re-adds the worktree from branch "
            f"{branch})",
            "the worktree comes back where it was, with the branch's commits",
            "uncommitted changes that were only on the lost drive are not recovered",
        ),
    )

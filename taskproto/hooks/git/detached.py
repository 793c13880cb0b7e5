"""No detached HEAD in a task's or an agent's worktree: the reference-transaction hook's rule.

A commit on no branch is outside the protocol (no state, no approval, no merge takes it) and
lost to git's gc once HEAD leaves it. In a task's or an agent's worktree git refuses here, whoever
runs it (another shell, `git -C`, `git update-ref --no-deref HEAD`): detaching HEAD, and moving a
HEAD that is detached already (a commit, a reset, a checkout of a commit). What git does itself
while a rebase of the worktree's own branch runs (it detaches HEAD until the rebase ends) passes,
as do bisect's checkouts. Going back to the branch (`git switch`) writes HEAD as a symbolic ref,
which passes.

Standard library only: this runs in the hook.
"""

from __future__ import annotations

import os

from taskproto.git.files import ZERO_OID
from taskproto.hooks.git.run import Hook, Refused


def guard_head(
    hook: Hook, here: tuple[str, str | None, str | None], updates: list[list[str]]
) -> None:
    """Raise Refused when this transaction leaves HEAD of a task's or an agent's worktree (`here`,
    layout.where's answer) on no branch, or moves it there."""
    if here[0] != "worktree" or not here[1]:
        return
    task, agent = here[1], here[2]
    own = task if agent is None else f"{task}-{agent}"
    branch = hook.repo.head_branch()
    for old, new, ref in (u for u in updates if len(u) == 3):
        if ref != "HEAD" or new == ZERO_OID or new.startswith("ref:"):
            continue  # HEAD made a symbolic ref again (`git switch`), or not HEAD
        if branch is not None and any(u[2:] == [f"refs/heads/{branch}"] for u in updates):
            continue  # its branch moves with it: a commit, a reset on the branch
        head = hook.repo.branch_sha(branch) if branch is not None else _detached_at(hook)
        if branch is None and head == new:
            continue  # detached already, and stays where it is
        if _git_at_work(hook.repo.git_dir, own, old):
            continue
        whose = f"agent {agent} of task {task}" if agent else f"task {task}"
        doing = "detaching HEAD" if branch is not None else "moving a detached HEAD"
        raise Refused(
            f"refused: {doing} in the worktree of {whose}: a commit there is on no branch, "
            f"outside task {task} and lost to git's gc; work on its branch: `git switch {own}`"
            f"{_put_back(hook, new, head)}"
        )


def _detached_at(hook: Hook) -> str | None:
    from taskproto.git.files import read_small

    data = (read_small(os.path.join(hook.repo.git_dir, "HEAD"), 128) or b"").strip()
    return data.decode("ascii", "replace") if len(data) in (40, 64) else None


def _put_back(hook: Hook, new: str, head: str | None) -> str:
    """A checkout writes the index and the files before it moves HEAD: refused, they are put back
    as HEAD has them by the reverse two-tree read-tree (new commit to HEAD's), which keeps the
    user's own changes as the checkout carried them; `update-ref` wrote no file, and the same
    read-tree leaves them as they are."""
    top = hook.repo.top
    if top is None or head is None or head == new:
        return ""
    from taskproto.git.files import run_git

    if run_git(top, "read-tree", "-u", "-m", new, head) is not None:
        return ""
    return (
        "; if git changed the files already, put them back with "
        f"`git read-tree -u -m {new} {head}` (your own changes are kept)"
    )


def _git_at_work(git_dir: str, own: str, old: str) -> bool:
    """Whether git detaches HEAD for its own work here: a rebase of the worktree's own branch
    (`head-name` in its rebase folder), or a bisect's checkout of a commit (no old value: a
    commit on a detached HEAD names the one it replaces)."""
    for folder in ("rebase-merge", "rebase-apply"):
        try:
            with open(os.path.join(git_dir, folder, "head-name"), "rb") as fh:
                return fh.read(4096).strip() == f"refs/heads/{own}".encode()
        except OSError:
            continue
    return old == ZERO_OID and os.path.exists(os.path.join(git_dir, "BISECT_START"))

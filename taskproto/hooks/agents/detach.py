"""A git command that leaves a worktree's HEAD on no branch, or on a branch not its own, for the
tool guard: read from its words and the worktree's HEAD file, refused in a task's or an agent's
worktree before it runs. The reference-transaction hook keeps the no-branch rule whoever runs git
(hooks/git/detached.py); git runs no hook before a checkout of another branch.

Standard library only: this runs on every shell tool call.
"""

from __future__ import annotations

import os

from taskproto.hooks.agents.commands import UNKNOWN, followed, top_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from taskproto.layout import Layout

COMMITTERS = {"commit", "merge", "cherry-pick", "revert", "am", "pull"}


def detaches(sub: str, rest: list[str], where: str) -> bool:
    """Whether the git command leaves HEAD of the worktree at `where` on no branch: `checkout` or
    `switch` with `--detach`, a checkout of what is plainly a commit (an id, `X~n`, `X^`,
    `@{...}`), `update-ref --no-deref HEAD`, or a commit on a HEAD detached already. What else
    detaches (a tag's name) the reference-transaction hook refuses (hooks/git/detached.py)."""
    before = rest[: rest.index("--")] if "--" in rest else rest
    operands = [a for a in before if not a.startswith("-")]
    if sub in ("checkout", "switch") and ("--detach" in rest or (sub == "switch" and "-d" in rest)):
        return True
    new_branch = any(  # `-b NAME`, `-B NAME`, `--orphan NAME` (or bundled: `-qb NAME`)
        a == "--orphan" or (a[:1] == "-" and a[1:2] != "-" and ("b" in a or "B" in a)) for a in rest
    )
    if sub == "checkout" and "--" not in rest and not new_branch:
        first = operands[0] if len(operands) == 1 else ""  # `checkout REV FILE` writes FILE
        hexid = 7 <= len(first) <= 64 and all(c in "0123456789abcdef" for c in first)
        if hexid or any(mark in first for mark in ("~", "^", "@{")):
            return True
    if sub == "update-ref" and "--no-deref" in rest and operands[:1] == ["HEAD"]:
        return True
    return sub in COMMITTERS and _detached(where)


def _detached(where: str) -> bool:
    """Whether the worktree at `where` has a detached HEAD and no rebase under way."""
    git_dir = followed(os.path.join(top_of(where), ".git"))
    if git_dir == UNKNOWN:
        return False
    if any(os.path.exists(os.path.join(git_dir, f)) for f in ("rebase-merge", "rebase-apply")):
        return False
    try:
        with open(os.path.join(git_dir, "HEAD"), "rb") as fh:
            return not fh.read(128).startswith(b"ref:")
    except OSError:
        return False


def switches_to(sub: str, rest: list[str], where: str) -> str | None:
    """The branch `git switch B` or `git checkout B` puts HEAD of the worktree at `where` on (for
    checkout, only a name that is a local branch: else it restores a file); else None."""
    if sub not in ("checkout", "switch") or "--" in rest:
        return None
    if any(
        a in ("-c", "-C", "--create", "--force-create", "--orphan", "-d", "--detach") for a in rest
    ):
        return None
    operands = [a for a in rest if not a.startswith("-")]
    if len(operands) != 1 or "$" in operands[0] or "__SUBST__" in operands[0]:
        return None
    name = operands[0]
    if sub == "checkout" and (
        any(a[:1] == "-" and a[1:2] != "-" and ("b" in a or "B" in a) for a in rest)
        or not _is_branch(where, name)
    ):
        return None
    return name


def _is_branch(where: str, name: str) -> bool:
    """Whether `name` is a local branch of the repository the worktree at `where` belongs to."""
    git_dir = followed(os.path.join(top_of(where), ".git"))
    if git_dir == UNKNOWN or ".." in name.split("/"):
        return False
    common = git_dir
    try:
        with open(os.path.join(git_dir, "commondir"), encoding="utf-8") as fh:
            common = os.path.join(git_dir, fh.read().strip())
    except OSError:
        pass
    if os.path.isfile(os.path.join(common, "refs", "heads", name)):
        return True
    try:
        with open(os.path.join(common, "packed-refs"), encoding="utf-8", errors="replace") as fh:
            return any(line.rstrip("\n").endswith(f" refs/heads/{name}") for line in fh)
    except OSError:
        return False


def switch_refusal(layout: Layout, folder: str, branch: str) -> str | None:
    """Why a command that puts HEAD of the worktree at `folder` on `branch` is refused: it is a
    task's or an agent's and `branch` is not its own; else None."""
    kind, task, agent = layout.where(os.path.realpath(folder))
    own = task if agent is None else f"{task}-{agent}"
    if kind != "worktree" or not task or branch in (own, f"refs/heads/{own}"):
        return None
    whose = f"agent {agent} of task {task}" if agent else f"task {task}"
    return (
        f"this command puts the worktree of {whose} on branch {branch}, not its own: its work "
        f"is on {own}, and reaches the base branch through the user's `taskproto land`; stay on "
        f"its branch: `git switch {own}`."
    )


def detach_refusal(layout: Layout, folder: str) -> str | None:
    """Why a command that leaves HEAD of the worktree at `folder` on no branch is refused: it is a
    task's or an agent's; else None."""
    kind, task, agent = layout.where(os.path.realpath(folder))
    if kind != "worktree" or not task:
        return None
    own = task if agent is None else f"{task}-{agent}"
    whose = f"agent {agent} of task {task}" if agent else f"task {task}"
    return (
        f"this command leaves HEAD of the worktree of {whose} on no branch (detached): a commit "
        f"there is outside task {task} and lost to git's gc; work on its branch: "
        f"`git switch {own}`."
    )

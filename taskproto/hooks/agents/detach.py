"""A git command that leaves a worktree's HEAD on no branch, for the tool guard: read from its
words and the worktree's HEAD file, refused in a task's or an agent's worktree before it runs. The
reference-transaction hook keeps the same rule whoever runs git (hooks/git/detached.py).

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

"""What a task's or an agent's branch may receive, decided in one place for every door: work is
committed from the branch's own worktree, in a state that allows commits, while the task is not
paused, and adds no file the `prohibited_patterns` setting names.

The reference-transaction hook's "prepared" phase (refs.py) applies these to every move of such a
branch, whatever git command made it (`git commit --no-verify` included); the `pre-commit` handler
(commit.py: the pre-commit framework, `taskproto hook pre-commit`, pre-merge-commit) applies them
to the staged files before git writes a commit. Standard library only.
"""

from __future__ import annotations

import os

from taskproto.git.files import ZERO_OID, run_git
from taskproto.hooks.git.run import Hook, Refused

TYPE_CHECKING = False  # not `from typing`: importing typing costs a hook ~10% of its time
if TYPE_CHECKING:
    from taskproto.state.light import TaskView


def worktree(hook: Hook, task: str, agent: str | None, refused: str) -> None:
    """`refused` ("commit refused on <label>") when this worktree is not the branch's own."""
    expected = hook.layout.worktree_of(task, agent)
    here = hook.repo.top or hook.repo.git_dir
    if os.path.realpath(expected) == here:
        return
    if os.path.isdir(expected):
        fix = f"commit from there: `cd {expected}`"
    else:
        fix = (
            "that worktree is missing: recreate it with `taskproto doctor --fix`, then commit there"
        )
    raise Refused(
        f"{refused}: it is committed from its own worktree {expected}, not from {here}; {fix}"
    )


def state(hook: Hook, task: str, view: TaskView, refused: str) -> None:
    """`refused` when the task's state allows no commits, or the task waits for the user."""
    flags = hook.flags(view)
    if not flags["allows_commits"]:
        states = flags["_all"]
        allowed = [name for name, f in states.items() if f.get("allows_commits")]
        nearest = [s for s in flags.get("next", []) if states.get(s, {}).get("allows_commits")]
        if nearest:
            fix = f"move the task there first: `taskproto transition {task} {nearest[0]}`"
        else:
            fix = f"the task must reach one of them first (see `taskproto task show {task}`)"
        raise Refused(
            f"{refused}: task {task} is in {view.state}, which does not allow commits "
            f"(workflow {view.workflow} allows them in {', '.join(allowed) or 'no state'}); {fix}"
        )
    if view.paused is not None:
        raise Refused(
            f"{refused}: task {task} waits for the user (they interrupted with a "
            f"{view.paused}), and its work is paused until they say to go on (or run "
            f"`taskproto resume {task}`)"
        )


def prohibited(hook: Hook, paths: list[str]) -> tuple[str, str] | None:
    """(the files, the patterns they match) among `paths`, or None: none is prohibited."""
    from fnmatch import fnmatchcase

    patterns = hook.setting("prohibited_patterns")
    bad = []
    for path in paths:
        base = path.rsplit("/", 1)[-1]
        hits = [p for p in patterns if fnmatchcase(base, p) or fnmatchcase(path, p)]
        if hits:
            bad.append((path, hits[0]))
    if not bad:
        return None
    return " ".join(p for p, _ in bad), ", ".join(dict.fromkeys(h for _, h in bad))


def staged(hook: Hook, refused: str) -> list[str]:
    """The files the next commit adds or changes (the index against HEAD)."""
    out = run_git(
        hook.repo.top or hook.repo.git_dir,
        "diff",
        "--cached",
        "--name-only",
        "-z",
        "--diff-filter=ACMR",
    )
    if out is None:
        raise Refused(
            f"{refused}: `git diff --cached` failed, so the staged files could not be checked "
            "against the prohibited patterns"
        )
    return _paths(out)


def brought(hook: Hook, old: str, new: str, refused: str) -> list[str]:
    """The files a move of a branch from `old` to `new` adds or changes; for a new branch, the
    files its commit adds or changes against its first parent (the base it starts from is not
    its work)."""
    here = hook.repo.top or hook.repo.git_dir
    plain = ("-r", "--no-commit-id", "--name-only", "-z", "--diff-filter=ACMR")
    if old == ZERO_OID:
        out = run_git(here, "diff-tree", "--root", "-m", "--first-parent", *plain, new)
    else:
        out = run_git(here, "diff-tree", *plain, old, new)
    if out is None:
        raise Refused(
            f"{refused}: `git diff-tree` failed, so the files it brings could not be checked "
            "against the prohibited patterns"
        )
    return _paths(out)


def _paths(out: bytes) -> list[str]:
    return [raw.decode("utf-8", "surrogateescape") for raw in out.split(b"\0") if raw]

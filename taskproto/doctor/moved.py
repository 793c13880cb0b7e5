"""Whole-repository events: a moved (or copied) repository or task root, and worktree folders that
an earlier doctor moved aside.

A worktree folder keeps a `.git` file naming its admin folder (`<common>/worktrees/<id>`), and that
admin folder keeps a `gitdir` file naming the worktree. Moving the repository or taskproto's root
breaks the pair, but both halves are still there: `git worktree repair` re-links them. Nothing is
moved and no uncommitted change is touched.
"""

from __future__ import annotations

import os
from pathlib import Path

from taskproto.doctor.model import ABANDON, Option, Severity, check

SET_ASIDE_MARK = ".unregistered-"

check(
    "worktree-moved",
    Severity.ERROR,
    "A task or agent worktree folder is where taskproto expects it, but git's registration still "
    "names the old place: the repository or taskproto's root was moved (or copied).",
    "`git worktree repair <path>`: git re-links the folder and its registration in place; nothing "
    "is moved, uncommitted work stays where it is",
)
check(
    "worktree-set-aside",
    Severity.ERROR,
    "A worktree folder moved aside (`code.unregistered-<time>`, by an earlier doctor) still holds "
    "a git worktree of this repository.",
    "move the folder back to `code/` (it is missing) and `git worktree repair` it; if `code/` "
    "came back meanwhile: escalate (compare the two, then keep one)",
    options=(
        Option(
            "Compare the folder set aside with the worktree, copy what you need, then delete the "
            "one you do not want",
            "nothing is lost: you see both",
            "a manual step",
        ),
        ABANDON,
    ),
)


def admin_of(folder: Path | str) -> Path | None:
    """The admin folder a worktree's `.git` file names, or None (no `.git` file)."""
    named = admin_named(folder)
    return None if named is None else Path(named)


def admin_named(folder: Path | str) -> str | None:
    """`admin_of` as text (doctor's detection reads thousands of these)."""
    try:
        with open(os.path.join(folder, ".git"), "rb") as fh:
            data = fh.read()
    except OSError:
        return None
    text = data.decode("utf-8", "replace")
    if "\r" in text:  # as reading it as text would (universal newlines)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.startswith("gitdir:"):
        return None
    return text[len("gitdir:") :].strip()


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return None


def relinkable(
    common_dir: Path, root: Path, folder: Path, branch: str, linked_from: Path | None = None
) -> Path | None:
    """Our admin folder that `folder` (the worktree at its expected place under `root`) belongs
    to, when only the link between them is broken; else None. `linked_from`: the folder that holds
    the worktree now, when it is not `folder` (one set aside).

    It must be one of this repository's admin folders (same id as the folder's `.git` file names),
    have `branch` checked out (or a detached HEAD, or a rebase of `branch` half done), and its
    `gitdir` must name a path ending in the same place under the (old) root: a folder of another
    repository is never taken.
    """
    named = admin_of(linked_from or folder)
    if named is None:
        return None
    admin = common_dir / "worktrees" / named.name
    head = _read(admin / "HEAD") or ""
    ours = f"refs/heads/{branch}"
    # git detaches HEAD by hand (`git switch --detach`) and while it rebases the branch: still
    # the same worktree, which doctor's worktree-wrong-branch and git-operation-in-progress judge
    detached = len(head) in (40, 64) and all(c in "0123456789abcdef" for c in head)
    rebasing = ours in (_read(admin / f / "head-name") for f in ("rebase-merge", "rebase-apply"))
    if head != f"ref: {ours}" and not detached and not rebasing:
        return None
    old = _read(admin / "gitdir")
    if old is None:
        return None
    try:
        rel = folder.relative_to(root)
    except ValueError:
        return None
    tail = os.sep + str(rel / ".git")
    if not old.endswith(tail):
        return None
    if linked_from is None and os.path.realpath(old) == os.path.realpath(folder / ".git"):
        return None  # both halves agree: not broken (git lists it; something else is wrong)
    return admin


def set_aside_folders(folder: Path) -> list[Path]:
    """Folders `<name>.unregistered-<time>` beside `folder` that are git worktrees (newest last)."""
    parent = folder.parent
    try:
        entries = sorted(os.listdir(parent))
    except OSError:
        return []
    prefix = folder.name + SET_ASIDE_MARK
    return [
        parent / e
        for e in entries
        if e.startswith(prefix) and (parent / e).is_dir() and admin_of(parent / e) is not None
    ]

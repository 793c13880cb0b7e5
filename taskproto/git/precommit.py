"""The pre-commit framework as git sees this repository: whether taskproto is set up with it, and
whether its config file is committed on the branch the main worktree has checked out (the base new
tasks start from).

pre-commit's hook script refuses to run in a worktree without `.pre-commit-config.yaml` ("No
.pre-commit-config.yaml file was found"), so while the file is only in the main worktree (untracked,
or staged and not committed) every commit and push from a task or agent worktree fails there.
doctor (`pre-commit-config-uncommitted`) and `init` say so; neither commits it for the user.
"""

from __future__ import annotations

import os
from pathlib import Path

from taskproto.git.command import Git
from taskproto.git.hookfiles import PRE_COMMIT

CONFIG = ".pre-commit-config.yaml"
# the ids of the hooks this repository's .pre-commit-hooks.yaml offers all start so
OUR_IDS = b"taskproto-"


def _head(path: Path, size: int = 512) -> bytes:
    try:
        with path.open("rb") as fh:
            return fh.read(size)
    except OSError:
        return b""


def _script_installed(hooks: Path) -> bool:
    """Whether the framework's script is one of git's hooks in `hooks`."""
    try:
        names = os.listdir(hooks)
    except OSError:
        names = []
    return any(
        "." not in n and not (hooks / n).is_symlink() and PRE_COMMIT in _head(hooks / n)
        for n in names
    )


def set_up(main: Path, hooks: Path) -> bool:
    """Whether this repository runs the framework: its script is one of git's hooks in `hooks`, or
    the config in the main worktree `main` names taskproto's hooks."""
    return _script_installed(hooks) or OUR_IDS in _head(main / CONFIG, 1 << 20)


def runs_ours(main: Path, hooks: Path) -> bool:
    """Whether the framework runs taskproto's guards here: its script is installed and the config
    in the main worktree `main` names taskproto's hooks."""
    return OUR_IDS in _head(main / CONFIG, 1 << 20) and _script_installed(hooks)


def uncommitted(main: Path) -> tuple[str, str] | None:
    """Why the commit checked out in the main worktree `main` lacks the config there ("untracked",
    "ignored", "added but not committed"), and that branch; None: it has one (changed since or
    not), or there is no such file. One git process, only when the file exists."""
    if not (main / CONFIG).is_file():
        return None
    out = Git(main).run("status", "--porcelain", "--branch", "--ignored", "--", CONFIG, check=False)
    lines = out.splitlines()
    head = lines[0][3:] if lines and lines[0].startswith("## ") else "HEAD"
    branch = head.removeprefix("No commits yet on ").removeprefix("Initial commit on ")
    branch = branch.split("...", 1)[0].split(" ", 1)[0]
    code = lines[1][:2] if len(lines) > 1 else ""
    if code in ("??", "!!"):
        return ("untracked" if code == "??" else "ignored"), branch
    if code.startswith("A"):  # staged only: the commit has none (changed since: still in it)
        return "added but not committed", branch
    return None


def problem(main: Path, hooks: Path) -> str | None:
    """The one line that says the config is not committed and what to do, or None."""
    if not (main / CONFIG).is_file() or not set_up(main, hooks):
        return None
    found = uncommitted(main)
    if found is None:
        return None
    how, branch = found
    return (
        f"{CONFIG} is {how} on {branch}: pre-commit refuses to run without it in the task and "
        f"agent worktrees made from {branch}, so commits and pushes there fail; commit {CONFIG}"
        + (" (it is ignored: take it out of .gitignore first)" if how == "ignored" else "")
    )

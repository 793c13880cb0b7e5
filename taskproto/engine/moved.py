"""A repository moved (or copied) and not re-linked yet: a task's worktree whose `.git` names an
admin folder that does not name it back (git/files.py `unlinked`). The commands that use a task's
worktrees warn once (claim, next) or refuse before git runs there (merge, update, approving a
commit), naming `taskproto init`, which re-links them (docs/doctor.md, "A moved repository")."""

from __future__ import annotations

from taskproto.config import Config
from taskproto.errors import TaskprotoError
from taskproto.git.files import unlinked

RELINK = "run `taskproto init` here, which re-links the worktrees"


def why(worktree: str, admin: str) -> str:
    return (
        f"the repository was moved and not re-linked: worktree {worktree} names {admin}, which "
        f"does not name it back; {RELINK}"
    )


def warn(config: Config, warnings: list[str], task: str) -> None:
    """Add the warning to `warnings` once, when the task's worktree is not linked here (its agents'
    moved with it: one look is enough)."""
    worktree = str(config.task_worktree(task))
    admin = unlinked(worktree)
    if admin is not None and why(worktree, admin) not in warnings:
        warnings.append(why(worktree, admin))


def refuse(worktree: str, what: str) -> None:
    """Refuse `what` in `worktree` when it is not linked here: git would fail there, saying only
    that it is not a repository."""
    admin = unlinked(worktree)
    if admin is not None:
        raise TaskprotoError(f"refusing to {what}: {why(worktree, admin)}")

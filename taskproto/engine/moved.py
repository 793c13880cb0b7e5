"""A repository moved (or copied) and not re-linked yet: a task's worktree whose `.git` names an
admin folder that does not name it back (layout.py `not_linked`). The commands that use a task's
worktrees warn once (claim, next; `task list` from its first task) or refuse before git runs there
(merge, update, approving a commit), naming `taskproto init`, which re-links them (docs/doctor.md,
"A moved repository or task root")."""

from __future__ import annotations

from taskproto.config import Config
from taskproto.errors import TaskprotoError
from taskproto.layout import not_linked


def warn(config: Config, warnings: list[str], task: str) -> None:
    """Add the warning to `warnings` once, when the task's worktree is not linked here (its agents'
    moved with it: one look is enough)."""
    why = not_linked(str(config.task_worktree(task)))
    if why is not None and why not in warnings:
        warnings.append(why)


def refuse(worktree: str, what: str) -> None:
    """Refuse `what` in `worktree` when it is not linked here: git would fail there, saying only
    that it is not a git repository."""
    why = not_linked(worktree)
    if why is not None:
        raise TaskprotoError(f"refusing to {what}: {why}")

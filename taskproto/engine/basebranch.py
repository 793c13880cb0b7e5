"""The base branch a task is updated from and lands on, and how it moves here.

With taskproto's shared remote, the base that moved is the remote's: another machine landed there,
or a queue worker did. `catch_up` fast-forwards this clone's branch to the remote's first (as the
queue's worker does), so `update` brings in what really conflicts and `land --update` lands on the
remote's head instead of being refused with "fetch first". A branch that moved here and there both
is refused: that is the user's `git pull`.
"""

from __future__ import annotations

from taskproto.engine.core import Core
from taskproto.errors import GitError, TaskprotoError
from taskproto.git.command import git_message


def move(core: Core, base: str, old: str, new: str) -> None:
    """Move branch `base` from `old` to `new` here: its worktree fast-forwarded where it is checked
    out, else a compare-and-swap of the ref."""
    if new == old:
        return
    checked_out = [w.path for w in core.repo.worktrees() if w.branch == base and not w.bare]
    if checked_out:
        core.repo.fast_forward(checked_out[0], new)
    else:
        core.repo.update_ref(f"refs/heads/{base}", new, old, message=f"taskproto land: {base}")


def catch_up(core: Core, base: str, pushes: bool = False) -> str | None:
    """The head of branch `base` here (None: no such branch), first fast-forwarded to the shared
    remote's when that one moved on; refused, nothing changed, when both moved. A caller that
    `pushes` what it lands on `base` (the queue) also refuses a base here with commits the remote
    lacks: landing would push them along unasked."""
    local = core.git.ref_sha(f"refs/heads/{base}")
    if core.remote is None:
        return local
    there = core.remote.fetch_branch(base, local)
    if local is None or there is None or there == local:
        return local
    name = core.remote.name
    if core.repo.is_ancestor(there, local):
        if pushes:
            raise TaskprotoError(
                f"{base} here has commits {name} lacks; push them or reset {base} to {name}'s "
                "first, then again; nothing was changed"
            )
        return local
    if not core.repo.is_ancestor(local, there):
        raise TaskprotoError(
            f"{base} here and {base} on {name} have both moved on; `git pull` {base} first, then "
            "again; nothing was changed"
        )
    try:
        move(core, base, local, there)
    except GitError as exc:
        raise TaskprotoError(
            f"{base} is behind {name}'s and could not be fast-forwarded here "
            f"({git_message(exc.stderr or exc.stdout)}); commit or stash your changes where {base} "
            "is checked out, then again; nothing was changed"
        ) from None
    return there

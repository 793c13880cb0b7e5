"""A task removed on one machine, as the shared remote records it (docs/remote.md, "Removed tasks").

`refs/taskproto/removed/<task>` on the remote points at a marker commit: its tree holds
`removed.json` (task, session, host, removed_at, and the journal head it removed) and its parent is
that head, so the whole history stays reachable from it. `task remove` (or, after a removal made
offline, the next `sync`) pushes it in one atomic push with the deletion of
`refs/taskproto/tasks/<task>`, expecting the journal head it saw: a change pushed meanwhile by
another machine wins, and the removal is refused until `taskproto sync`. Nothing here imports the
engine: the engine pushes the marker and applies the ones it fetches.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from taskproto import plainjson as json
from taskproto.errors import TaskprotoError, when
from taskproto.git.command import RemoteGit

REMOVED_PREFIX = "refs/taskproto/removed/"
REMOVED_FILE = "removed.json"


def removed_ref(task: str) -> str:
    return REMOVED_PREFIX + task


@dataclass(frozen=True)
class Removal:
    """A removal marker as read from the remote: who removed which journal head, where and when."""

    task: str
    sha: str  # the marker commit
    journal: str  # the journal head it removed (the marker's parent)
    session: str | None
    host: str
    removed_at: datetime

    @classmethod
    def parse(cls, task: str, sha: str, data: bytes | None) -> Removal | None:
        try:
            raw = json.loads(data or b"")
            return cls(
                task,
                sha,
                str(raw["journal"]),
                raw.get("session"),
                str(raw.get("host") or "?"),
                datetime.fromisoformat(raw["removed_at"]),
            )
        except (ValueError, KeyError, TypeError):
            return None  # not a marker we can read: it removes nothing here

    def who(self) -> str:
        session = f"session {self.session}" if self.session else "a user"
        return f"{session} on {self.host} at {when(self.removed_at)}"


def marker_commit(
    git: RemoteGit, task: str, head: str, session: str | None, host: str, removed_at: datetime
) -> str:
    """Write the marker commit of a removal of `task` whose journal was at `head`."""
    record = {
        "task": task,
        "session": session,
        "host": host,
        "removed_at": removed_at.isoformat(),
        "journal": head,
    }
    blob = git.write_blob_bytes((json.dumps(record, indent=2) + "\n").encode())
    tree = git.mktree([("100644", blob, REMOVED_FILE)])
    return git.commit_tree(tree, head, f"removed {task}: {session or '-'} on {host}")


def read_markers(git: RemoteGit, shas: dict[str, str]) -> dict[str, Removal]:
    """{task: removal} of the markers `shas` ({task: marker commit}): one cat-file, none if none."""
    blobs = git.read_blobs([f"{sha}:{REMOVED_FILE}" for sha in shas.values()])
    found = {t: Removal.parse(t, s, blobs.get(f"{s}:{REMOVED_FILE}")) for t, s in shas.items()}
    return {t: r for t, r in found.items() if r is not None}


class TaskRemovedThere(TaskprotoError):
    """A journaled change of a task the remote says was removed: refused, nothing changed."""

    def __init__(self, remote: str, task: str, gone: Removal | None) -> None:
        self.remote, self.task = remote, task
        if gone is None:
            text = (
                f"task {task!r} was removed on remote {remote!r} since this machine last synced; "
                f"run `taskproto sync` (it removes the task here too, or keeps it while its "
                "worktrees hold work); nothing was changed"
            )
        else:
            text = (
                f"task {task!r} was removed on remote {remote!r} by {gone.who()}; its copy here "
                "is kept only for the work in its worktrees: save that work (commit, push its "
                f"branches), then `taskproto task remove {task}` (--force drops it); nothing was "
                "changed"
            )
        super().__init__(text)

"""Which task each session owns, found from the session id alone: the session registry.

A claim writes `<state>/taskproto/sessions/<session>.json` (`<state>`: $XDG_STATE_HOME, else
~/.local/state) holding the repository's main worktree, taskproto's root and the task. A hook
then finds the session's task whatever folder the client was started in (outside the
repository, a folder since deleted, a relative path in the payload). The registry is an
index, never the authority: a reader checks that task.json still names the session as its
owner. Standard library only; writes are atomic.
"""

from __future__ import annotations

import os
import re

from taskproto import plainjson as json
from taskproto.git.objects import sha256_hex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SAFE = re.compile(r"[A-Za-z0-9._-]{1,128}\Z")


def folder(environ: dict[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    state = env.get("XDG_STATE_HOME") or os.path.join(
        env.get("HOME") or os.path.expanduser("~"), ".local", "state"
    )
    return os.path.join(os.path.realpath(state), "taskproto", "sessions")


def path_for(session: str, environ: dict[str, str] | None = None) -> str:
    name = (
        session
        if SAFE.match(session) and not session.startswith(".")
        else "h-" + sha256_hex(session.encode("utf-8", "surrogateescape"))
    )
    return os.path.join(folder(environ), name + ".json")


def record(session: str, main: str, root: str, task: str) -> None:
    """This session owns `task` of the repository at `main` (taskproto's root `root`)."""
    path = path_for(session)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = json.dumps({"session": session, "main": main, "root": root, "task": task}).encode()
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "wb") as fh:
        fh.write(data)
    os.replace(tmp, path)


def forget(session: str, task: str) -> None:
    """The session no longer owns `task` (released, or taken over): drop the entry if it names
    it."""
    entry = lookup(session)
    if entry is not None and entry.get("task") == task:
        try:
            os.unlink(path_for(session))
        except OSError:
            pass


def lookup(session: str, environ: dict[str, str] | None = None) -> dict[str, Any] | None:
    """The entry of `session`, or None (no claim recorded, or an unreadable file)."""
    if not session:
        return None
    try:
        with open(path_for(session, environ), "rb") as fh:
            data = json.loads(fh.read(65536))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not all(
        isinstance(data.get(k), str) for k in ("main", "root", "task")
    ):
        return None
    return data

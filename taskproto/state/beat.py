"""The owner's heartbeat, kept beside task.json in `<task>/heartbeat.json`: liveness, not history.

A heartbeat says "the owner is still here"; it is not a change of the task, so it is neither a
new revision of task.json nor a journal commit (task.json and its journal stay equal while a
session works). Its time counts for the owner's lease together with `owner.heartbeat_at` in
task.json (the time of the claim): the later of the two. Hooks write it with the standard
library alone; the write is atomic (a temporary file renamed over the old one).

A heartbeat file that is not one (a write cut short by a crash, a hand edit) is never written over
or deleted: the next write first sets it aside as `heartbeat.json.corrupt-<time>` and says so, and
`taskproto doctor` names it (`heartbeat-corrupt`) and sets it aside the same way.
"""

from __future__ import annotations

import os

from taskproto import plainjson as json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

NAME = "heartbeat.json"


def path(task_dir: str) -> str:
    return os.path.join(task_dir, NAME)


def write(task_dir: str, session: str, pid: int | None, at: str) -> str | None:
    """Record that `session` (client process `pid`) was alive at `at` (ISO time, UTC). Returns
    the name a corrupt heartbeat file found there was set aside as, or None."""
    target = path(task_dir)
    kept = set_aside(task_dir) if corrupt(task_dir) else None
    # named like every other temporary state file, so doctor's tmp-file check knows a leftover
    tmp = os.path.join(task_dir, f".tmp-{NAME}.{os.getpid()}.{os.urandom(4).hex()}")
    data = json.dumps({"session": session, "pid": pid, "at": at}).encode()
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)
    os.replace(tmp, target)
    # The file's time now, not its write's: the rename changed the folder later, maybe a clock
    # tick later, and the SessionStart fast path (hook.sh) takes a folder no newer than its
    # heartbeat file for one whose last change was the heartbeat.
    os.utime(target, follow_symlinks=False)
    return kept


def kept_line(task: str, kept: str) -> str:
    """What a command says when its heartbeat write set a corrupt file aside."""
    return (
        f"the heartbeat file of task {task} was not a heartbeat (half-written?): kept as {kept}, "
        "a new one written"
    )


def corrupt(task_dir: str) -> bool:
    """Whether the heartbeat file is there but is not a heartbeat (half-written, or not ours)."""
    return os.path.lexists(path(task_dir)) and read(task_dir) is None


def set_aside(task_dir: str) -> str | None:
    """Keep the heartbeat file as `heartbeat.json.corrupt-<UTC time>` beside it (never deleted);
    returns that name, or None when it was gone already (another writer set it aside)."""
    from datetime import UTC, datetime

    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    name = f"{NAME}.corrupt-{stamp}"
    try:
        os.rename(path(task_dir), os.path.join(task_dir, name))
    except FileNotFoundError:
        return None
    return name


def read(task_dir: str) -> dict[str, Any] | None:
    """The last heartbeat, or None (none yet, or a file that is not one: it is only a hint)."""
    try:
        with open(path(task_dir), "rb") as fh:
            data = json.loads(fh.read(4096))
    except (OSError, ValueError):
        return None
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("session"), str)
        or not isinstance(data.get("at"), str)
    ):
        return None
    return data

"""The merge queue and git's lock of a task's journal ref (`refs/taskproto/tasks/<task>.lock`).

A worker killed while it moved a task's journal ref leaves that lock, and every journal write of
the task fails until it goes. A lock cannot be removed at once: a user's `git pack-refs` or
`git gc` holds the same lock for a moment. So an entry whose task's journal ref is locked waits in
the queue (not taken, not failed, not sent back) while the worker goes on with the others; once
the lock is stale by the rule doctor's `journal-ref-locked` decides by (git/reffiles.py
`held_lock`), the worker repairs it with doctor's own fix (under the task's lock, journaled as a
repair) and lands the task. A draining `queue run` with nothing else to take polls the waiting
locks until one goes or turns stale (at most the grace period).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from taskproto.engine import Engine
from taskproto.errors import TaskprotoError
from taskproto.git import reffiles
from taskproto.state import journal

CHECK = "journal-ref-locked"  # doctor's check and fix of a stale journal ref lock
POLL_SECONDS = 0.1


@dataclass
class Waiting:
    """An entry left in the queue because its task's journal ref is locked."""

    task: str
    lock: str  # the lock file's path
    age: float  # seconds, when last looked at

    @property
    def detail(self) -> str:
        grace = int(reffiles.LOCK_GRACE_SECONDS)
        return (
            f"git's lock of its journal ref, {self.lock}, is {int(self.age)} s old; left queued "
            f"until it goes or is {grace} s old (a git process may hold it until then), when the "
            "queue deletes it as `taskproto doctor --fix` does"
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "result": "waiting",
            "detail": self.detail,
            "base_after": None,
            "lock": self.lock,
            "age_seconds": int(self.age),
            "grace_seconds": int(reffiles.LOCK_GRACE_SECONDS),
        }


def journal_lock(engine: Engine, task: str) -> tuple[str, float, bool] | None:
    """The lock file of the task's journal ref: (path, age, stale), None when there is none."""
    path = journal.lock_file(str(engine.config.repo), task)
    held = reffiles.held_lock(path, time.time())
    return None if held is None else (path, held[0], held[1])


def listed(engine: Engine, task: str) -> tuple[str, dict[str, Any]] | None:
    """What `queue list` says of a queued task whose journal ref git has locked: the words and the
    JSON; None when there is no lock."""
    found = journal_lock(engine, task)
    if found is None:
        return None
    path, age, stale = found
    grace = int(reffiles.LOCK_GRACE_SECONDS)
    then = (
        "stale: `taskproto queue run` (or `taskproto doctor --fix`) deletes it"
        if stale
        else f"`taskproto queue run` deletes it once it is {grace} s old, if it is still there"
    )
    words = f"waiting: git's lock of its journal ref, {path}, is {int(age)} s old; {then}"
    return words, {"path": path, "age_seconds": int(age), "stale": stale}


def fresh(engine: Engine, tasks: list[str]) -> dict[str, Waiting]:
    """Those of `tasks` whose journal ref holds a lock a live git may hold (not stale yet)."""
    found = {}
    for task in tasks:
        lock = journal_lock(engine, task)
        if lock is not None and not lock[2]:
            found[task] = Waiting(task, lock[0], lock[1])
    return found


def repair(engine: Engine, task: str) -> str:
    """Delete the task's stale journal ref lock with doctor's fix (under the task's lock, only if
    still stale then, journaled as a repair); what it did. Raises when the lock is still there."""
    from taskproto import doctor

    report = doctor.run(engine.config, [task], fix=True, only=frozenset({CHECK}))
    done = [f.action for f in report.fixes if f.finding.check == CHECK and f.status == "applied"]
    found = journal_lock(engine, task)
    if found is not None:
        failed = [f.error for f in report.fixes if f.finding.check == CHECK and f.error]
        raise TaskprotoError(
            f"the journal of {task} is locked by {found[0]} ({int(found[1])} s old) and the "
            f"repair left it{': ' + failed[0] if failed else ''}; run `taskproto doctor --fix`"
        )
    return done[0] if done else f"the lock of {task}'s journal ref went meanwhile"


def wait(waiting: dict[str, Waiting]) -> bool:
    """Poll the waiting entries' locks until one is gone or stale (True), or until the youngest
    could have turned stale and none did (False: each was written again meanwhile)."""
    if not waiting:
        return False
    youngest = min(w.age for w in waiting.values())
    deadline = time.monotonic() + max(reffiles.LOCK_GRACE_SECONDS - youngest, 0.0) + 2.0
    while time.monotonic() < deadline:
        for w in waiting.values():
            held = reffiles.held_lock(w.lock, time.time())
            if held is None or held[1]:
                return True
        time.sleep(POLL_SECONDS)
    return False

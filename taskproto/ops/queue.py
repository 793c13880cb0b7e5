"""The merge queue: approved tasks landed one at a time, each exactly once, by any machine.

The queue lives in git refs, `refs/taskproto/queue/<task>`: each a commit whose tree holds
`entry.json` (the task, the approved commit, the patch-id of the approved change against the base,
who added it and when) and whose parent is the approved commit, so pushing the entry carries the
work. With taskproto's shared remote set (docs/remote.md) the remote's refs are the queue and
every change of one is a compare-and-swap push (`--force-with-lease`), as a claim is; without, a
compare-and-swap `git update-ref` here. Oldest entry first.

A worker (`queue run`) takes the first entry no live worker holds by moving its ref from the
entry to a "taken" commit (the CAS: one winner), then merges the approved commit onto the base's
head without a worktree (`git merge-tree`), runs `[land] checks` from `.taskproto.toml` in a
throwaway worktree of that merge, and lands it when the checks pass and its patch-id is the
approved one: it records the landing intent (the new base commit) in the entry, moves the base (a
compare-and-swap too: pushed without force), records the landing on the task (`land`) and deletes
the entry. A conflict, failing checks or a changed patch-id send the task back instead
(engine/update.py `send_back`). A worker killed at any instant leaves a taken entry that the next
worker takes over once the taker is proved gone (same host, no such process) or its lease ran out;
an entry whose intended base commit is on the base already is finished, never landed again.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from taskproto import plainjson as json
from taskproto.engine import Engine, basebranch
from taskproto.engine import land as landing
from taskproto.engine import update as updating
from taskproto.errors import CorruptState, TaskNotFound, TaskprotoError, Untrusted
from taskproto.git.command import RemoteGit
from taskproto.names import task_name
from taskproto.ops import queue_locks
from taskproto.ops.queue_locks import Waiting
from taskproto.ops.queue_scratch import SCRATCH as SCRATCH  # the tests' name for it
from taskproto.ops.queue_scratch import run_checks, sweep
from taskproto.remote import QUEUE_PREFIX
from taskproto.sessions import hostname, pid_alive
from taskproto.state.models import Task, utcnow

PREFIX = QUEUE_PREFIX
ENTRY = "entry.json"
LEASE_SECONDS = 600.0  # a taken entry whose taker cannot be proved gone is free after this


@dataclass
class Entry:
    task: str
    sha: str  # the entry ref's commit
    data: dict[str, Any]

    @property
    def taken(self) -> dict[str, Any] | None:
        found = self.data.get("taken")
        return found if isinstance(found, dict) else None

    @property
    def intent(self) -> dict[str, Any] | None:
        found = self.data.get("intent")
        return found if isinstance(found, dict) else None

    def status(self) -> str:
        if self.intent is not None:
            return "landing"
        return "taken" if self.taken is not None else "queued"

    def as_json(self) -> dict[str, Any]:
        return {"task": self.task, "status": self.status(), "entry": self.sha, **self.data}


@dataclass
class Outcome:
    task: str
    result: str  # landed | finished | conflict | checks-failed | changed | gone
    detail: str
    base_after: str | None = None

    def as_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


class Queue:
    """The queue's refs: this repository's, or the shared remote's (see the module docstring)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.git = RemoteGit(engine.config.repo)
        self.remote = engine.config.remote
        self.tracking = f"{engine.remote.tracking}queue/" if engine.remote else PREFIX  # as sync
        self.held: dict[str, Entry] = {}  # task -> its entry as this worker last wrote it

    def entries(self, fetch: bool = True) -> list[Entry]:
        """Every entry, oldest first (with a shared remote and `fetch`: the remote's, fetched)."""
        if self.remote and fetch:
            self.git.fetch(self.remote, [f"+{PREFIX}*:{self.tracking}*"], prune=True)
        refs = dict(line.split(" ") for line in self.git.for_each_ref(self.tracking))
        blobs = self.git.read_blobs([f"{sha}:{ENTRY}" for sha in refs.values()]) if refs else {}
        found = [
            Entry(ref[len(self.tracking) :], sha, json.loads(blobs.get(f"{sha}:{ENTRY}") or b"{}"))
            for ref, sha in refs.items()
        ]
        return sorted(found, key=lambda e: (str(e.data.get("added_at")), e.task))

    def write(self, data: dict[str, Any], parent: str) -> str:
        blob = self.git.write_blob_bytes((json.dumps(data, indent=2) + "\n").encode())
        tree = self.git.mktree([("100644", blob, ENTRY)])
        return self.git.commit_tree(tree, parent, f"queue {data.get('task')}")

    def swap(self, task: str, new: str | None, old: str | None) -> bool:
        """Move the entry of `task` from `old` (None: none) to `new` (None: delete) if it still is
        `old`; False when someone else changed it first."""
        ref = PREFIX + task
        if self.remote:
            spec = f"{new}:{ref}" if new else f":{ref}"
            status = self.git.push(self.remote, [spec], {ref: old}).get(ref)
            if status is None or not status.ok:
                return False
            local = self.tracking + task
            if new:
                self.git.run("update-ref", local, new)
            else:
                self.git.run("update-ref", "-d", local, check=False)
            return True
        if new is None:
            return self.git.ok("update-ref", "-d", ref, old or "")
        return self.git.ok("update-ref", ref, new, old or "")


def _approved(engine: Engine, task: Task) -> str:
    landing.refuse_without_complete(engine, task)
    if task.state != landing.LANDS_FROM:
        raise TaskprotoError(
            f"task {task.name!r} is in {task.state}; the queue takes approved tasks in "
            f"{landing.LANDS_FROM} (`taskproto approve {task.name} --commit`, then `taskproto "
            f"next {task.name}`)"
        )
    return landing._approved(engine, task)


def add(engine: Engine, name: str, session: str | None) -> Entry:
    """Queue task `name` (approved, in COMPLETE). The user's."""
    engine.require_user(f"queueing task {name!r}")
    task = engine.load(task_name(name))
    approved = _approved(engine, task)
    base = task.base_branch
    tip = engine.git.ref_sha(f"refs/heads/{base}") if base else None
    if base is None or tip is None:
        raise TaskprotoError(f"task {name!r} has no base branch to land on; land it yourself")
    queue = Queue(engine)
    data = {
        "task": task.name,
        "approved": approved,
        "patch_id": engine.repo.patch_id(tip, approved),
        "base_branch": base,
        "added_at": utcnow().isoformat(),
        "by": session,
    }
    sha = queue.write(data, approved)
    if not queue.swap(task.name, sha, None):
        raise TaskprotoError(
            f"task {name!r} is queued already (`taskproto queue list`); "
            f"`taskproto queue remove {name}` first to queue it again"
        )
    return Entry(task.name, sha, data)


def remove(engine: Engine, name: str) -> Entry:
    """Take task `name` out of the queue, unless a worker is landing it. The user's."""
    engine.require_user(f"removing task {name!r} from the queue")
    queue = Queue(engine)
    found = {e.task: e for e in queue.entries()}.get(name)
    if found is None:
        raise TaskprotoError(f"task {name!r} is not queued (`taskproto queue list`)")
    if found.intent is not None:
        raise TaskprotoError(
            f"a worker is landing task {name!r} now; it leaves the queue when it has landed"
        )
    if not queue.swap(name, None, found.sha):
        raise TaskprotoError(f"the entry of task {name!r} changed meanwhile; look again")
    return found


def _gone(taken: dict[str, Any], now: datetime) -> bool:
    """Whether the worker that took an entry is proved gone: same host and no such process, or
    its lease ran out."""
    if str(taken.get("expires_at") or "") < now.isoformat():
        return True
    pid = taken.get("pid")
    if taken.get("host") != hostname() or not isinstance(pid, int):
        return False
    return not pid_alive(pid)


def _lease(engine: Engine) -> float:
    value = (engine.config.raw.get("land") or {}).get("lease_seconds", LEASE_SECONDS)
    return float(value) if isinstance(value, (int, float)) else LEASE_SECONDS


def take(engine: Engine, queue: Queue, waiting: dict[str, Waiting] | None = None) -> Entry | None:
    """The first entry no live worker holds, taken by compare-and-swap (None: nothing to take).
    An entry whose journal ref holds a fresh lock is left queued and put in `waiting`."""
    for _ in range(20):
        now = utcnow()
        free = [e for e in queue.entries() if e.taken is None or _gone(e.taken, now)]
        waits = queue_locks.fresh(engine, [e.task for e in free])
        if waiting is not None:
            waiting.clear()
            waiting.update(waits)
        free = [e for e in free if e.task not in waits]
        if not free:
            return None
        entry = free[0]
        data = dict(entry.data)
        data["taken"] = {
            "host": hostname(),
            "pid": os.getpid(),
            "at": now.isoformat(),
            "expires_at": (now + timedelta(seconds=_lease(engine))).isoformat(),
        }
        sha = queue.write(data, entry.sha)
        if queue.swap(entry.task, sha, entry.sha):
            return Entry(entry.task, sha, data)
    return None


def run_once(
    engine: Engine, session: str | None, waiting: dict[str, Waiting] | None = None
) -> Outcome | None:
    """Take one entry and land it or send it back (see the module docstring); None when the queue
    has nothing to take. `waiting`: set to the entries left queued on a fresh journal ref lock; a
    stale one is repaired as doctor does first (queue_locks.py). The user's."""
    engine.require_user("running the merge queue")
    queue = Queue(engine)
    if engine.remote is not None:
        engine.sync()  # tasks queued on other machines appear here
    sweep(engine)  # what killed workers left
    entry = take(engine, queue, waiting)
    if entry is None:
        return None
    repaired = ""
    if queue_locks.journal_lock(engine, entry.task) is not None:
        repaired = f" (first: {queue_locks.repair(engine, entry.task)})"
    try:
        outcome = _process(engine, queue, entry, session)
    except TaskprotoError:  # refused (the base here, say): the entry is free again at once
        _give_back(engine, queue, queue.held.get(entry.task, entry))
        raise
    outcome.detail += repaired
    return outcome


def _base_tip(engine: Engine, base: str) -> str:
    """The base's head, here and (with a shared remote) on the remote: the local branch is
    fast-forwarded to the remote's first, by the rule `update` and `land` follow
    (engine/basebranch.py)."""
    local = basebranch.catch_up(engine, base, pushes=True)
    if local is None:
        raise TaskprotoError(f"base branch {base!r} does not exist here; create it, then again")
    return local


def _process(engine: Engine, queue: Queue, entry: Entry, session: str | None) -> Outcome:
    name, approved = entry.task, str(entry.data["approved"])
    base = str(entry.data["base_branch"])
    for _ in range(10):  # again while other machines move the base under us
        tip = _base_tip(engine, base)
        intent = entry.intent
        if intent is not None and engine.repo.is_ancestor(str(intent["base_after"]), tip):
            return _finish(engine, queue, entry, session, "finished", str(intent["base_after"]))
        try:
            task = _load(engine, name)
        except TaskNotFound:
            queue.swap(name, None, entry.sha)
            return Outcome(name, "gone", f"no task {name} here (`taskproto sync`?); dropped")
        except CorruptState as exc:
            queue.swap(name, None, entry.sha)
            return Outcome(name, "gone", f"{exc}; dropped: queue it again once repaired")
        if task.landed is not None or task.state != landing.LANDS_FROM:
            queue.swap(name, None, entry.sha)
            return Outcome(name, "gone", f"task {name} is in {task.state}: not landed by the queue")
        approval = task.checkpoint.commit_approval
        if approval is None or approval.stale or approval.sha != approved:
            queue.swap(name, None, entry.sha)
            return Outcome(name, "gone", f"the approval of {name} is no longer {approved[:12]}")
        tree, conflicts = engine.repo.merge_tree(tip, approved)
        if tree is None:
            message = updating.conflict_text(base, tip, conflicts, "", f"task {name}")
            note = f"{base} {tip[:12]} conflicts in {', '.join(conflicts)}; sent back (queue)"
            return _back(engine, queue, entry, "update_conflict", message, note, conflicts, session)
        title = task.description.strip().splitlines()[0] if task.description.strip() else name
        new = engine.repo.commit_tree(
            tree,
            [tip, approved],
            f"Merge task {name} into {base}: {title}\n\nTask: {name}\nApproved: {approved}\n",
        )
        if engine.repo.patch_id(tip, new) != entry.data.get("patch_id"):
            message = (
                f"Landed onto {base} ({tip[:12]}), the change is not the one approved (its "
                f"patch-id differs): `taskproto update {name}`, review it and approve it again."
            )
            note = f"the change differs on {base} {tip[:12]}; approve it again (queue)"
            return _back(engine, queue, entry, "changed_on_base", message, note, [], session, True)
        failed = run_checks(engine, new)
        if failed is not None:
            message = f"The landing checks failed on it merged onto {base}:\n{failed}"
            note = f"the checks failed on {base} {tip[:12]}; sent back (queue)"
            return _back(engine, queue, entry, "checks_failed", message, note, [], session)
        data = {**entry.data, "intent": {"base_before": tip, "base_after": new}}
        sha = queue.write(data, entry.sha)
        if not queue.swap(name, sha, entry.sha):
            return Outcome(name, "gone", "another worker took the entry over; it lands it")
        entry = queue.held[name] = Entry(name, sha, data)
        try:
            landing.move_base(engine, base, tip, new)
        except TaskprotoError:
            if not _moved(engine, base, tip):
                raise  # refused, not raced (the base's worktree, the server): given back
            continue  # the base moved meanwhile: merge onto its new head
        return _finish(engine, queue, entry, session, "landed", new)
    raise TaskprotoError(f"{base} kept moving while landing {name}; run the queue again")


def _heads(engine: Engine, base: str) -> list[str | None]:
    """The base's head here and (with a shared remote) there; TaskprotoError when unreadable."""
    local = engine.git.ref_sha(f"refs/heads/{base}")
    return [local] + ([engine.remote.fetch_branch(base, local)] if engine.remote else [])


def _moved(engine: Engine, base: str, tip: str) -> bool:
    """Whether `base` moved on from `tip`, here or on the shared remote (a race: merge again)."""
    try:
        return any(head not in (None, tip) for head in _heads(engine, base))
    except TaskprotoError:
        return False  # cannot tell: the refusal stands


def _give_back(engine: Engine, queue: Queue, entry: Entry) -> None:
    """A refused run's entry made free again: untaken, and its landing intent cleared unless its
    commit may be on the base already (then the next worker finishes it; nothing is undone)."""
    drop = {"taken"}
    if entry.intent is not None:
        after = str(entry.intent.get("base_after"))
        try:
            heads = _heads(engine, str(entry.data.get("base_branch")))
            if not any(h and (h == after or engine.repo.is_ancestor(after, h)) for h in heads):
                drop.add("intent")
        except TaskprotoError:
            pass  # cannot tell: the intent stays, for the next worker to check
    data = {k: v for k, v in entry.data.items() if k not in drop}
    queue.swap(entry.task, queue.write(data, entry.sha), entry.sha)


def _load(engine: Engine, name: str) -> Task:
    """The task; one a killed worker left between its journal commit and task.json (`Untrusted`:
    journal-ahead) is first restored from its journal by doctor's fix for it, as the user."""
    try:
        return engine.load(name)
    except Untrusted:
        from taskproto import doctor

        doctor.run(engine.config, [name], fix=True, only=frozenset({"journal-ahead"}))
        return engine.load(name)


def _finish(
    engine: Engine, queue: Queue, entry: Entry, session: str | None, result: str, new: str
) -> Outcome:
    """The base holds the task's landing: record it on the task (once) and drop the entry."""
    detail = ""
    try:
        task: Task | None = _load(engine, entry.task)
    except TaskNotFound:
        task = None  # landed and removed: a worker was killed before it dropped the entry
    except CorruptState:  # killed while `land` removed it, after it recorded the landing
        task, detail = None, f"; task {entry.task} was half removed: `taskproto doctor --fix`"
    if task is not None and task.landed is None and task.state == landing.LANDS_FROM:
        if engine.branch_head(entry.task) is None:  # queued on another machine: its work is here
            engine.repo.create_branch(entry.task, str(entry.data["approved"]))
        engine.land(entry.task, "merge", session=session)
    queue.swap(entry.task, None, entry.sha)
    where = f"on {entry.data.get('base_branch')} at {new[:12]}{detail}"
    return Outcome(entry.task, result, where, new)


def _back(
    engine: Engine,
    queue: Queue,
    entry: Entry,
    trigger: str,
    message: str,
    note: str,
    files: list[str],
    session: str | None,
    to_approval: bool = False,
) -> Outcome:
    name = entry.task
    facts = {"base_branch": entry.data.get("base_branch"), "result": trigger, "files": files}
    with engine.locked(name) as task:
        state = updating.send_back(
            engine, task, trigger, message, note, note, facts, session, to_approval
        )
    queue.swap(name, None, entry.sha)
    result = {"update_conflict": "conflict", "checks_failed": "checks-failed"}
    if to_approval:  # the change differs on the base: the user's to look at again
        then = f"`taskproto update {name}`, review it, approve it again"
    else:
        then = f"its agent resolves it (`taskproto prompt {name}` says what it was sent), then "
        then += "approve it again"
    then += f" and `taskproto queue add {name}`"
    return Outcome(
        name, result.get(trigger, "changed"), f"sent back to {state}: {note}; next: {then}"
    )

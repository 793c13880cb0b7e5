"""The engine's core: reading tasks, and the one write path every change takes.

`save` is that path: it writes task.json atomically as the next revision, appends the journal
commit, and with a shared remote pushes the journal too (or undoes the local change when the push
fails). `mutate` (lock, load, change, save) and doctor's repairs (`lock`, then `save`) end in it.
If anything fails before the save, nothing changes: a refused change leaves task.json as it was.
"""

from __future__ import annotations

import os

from taskproto import plainjson as json
from taskproto.config import Config
from taskproto.engine import attention, signing
from taskproto.engine.locking import Lock, LockedTask, bytes_or_none, log_view, short_reason
from taskproto.engine.prompting import Prompts
from taskproto.engine.renewal import OfferRenewal
from taskproto.errors import (
    MISSING_TASK_FILE,
    CorruptState,
    GitError,
    OwnershipError,
    TaskNotFound,
    TaskprotoError,
    UnknownState,
    Untrusted,
    UserOnly,
    WriteFailed,
)
from taskproto.git.command import Git
from taskproto.machine.registry import get_workflow
from taskproto.machine.steps import FireContext
from taskproto.machine.workflow import Workflow
from taskproto.names import TaskName, agent_name, task_name
from taskproto.state import index, integrity, journal, many, store
from taskproto.state.bound import bound
from taskproto.state.models import AgentStatus, Task, utcnow
from taskproto.state.taskfile import TaskFiles

# Every command and hook that changes a task runs this module: nothing at run time from `typing`,
# `pathlib`, `dataclasses` or `contextlib`. Paths are strings here; `lock()` hands doctor a Path.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from datetime import datetime
    from pathlib import Path
    from typing import Any

    from taskproto.git.repo import Repo
    from taskproto.git.signing import Setup
    from taskproto.remote import Remote

    Change = Callable[[Task], "tuple[Task, str] | None"]


class Actor:
    """Who asks: the user, or an agent (and how we know). Agents are refused the user's actions."""

    __slots__ = ("agent", "why")

    def __init__(self, agent: bool = False, why: str = "") -> None:
        self.agent, self.why = agent, why

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Actor) and (other.agent, other.why) == (self.agent, self.why)

    def __hash__(self) -> int:
        return hash((self.agent, self.why))

    def __repr__(self) -> str:
        return f"Actor(agent={self.agent!r}, why={self.why!r})"


USER = Actor()


class Core:
    """One repository's tasks. Holds no task state between calls: every change re-reads under the
    lock."""

    def __init__(self, config: Config, actor: Actor = USER) -> None:
        self.config = config
        self.actor = actor
        self.layout = config.layout  # paths as strings: the write path needs no pathlib
        self.git = Git(self.layout.main)  # single git calls on the fast paths (journal, refs)
        self._repo: Repo | None = None
        self._held: set[str] = set()  # tasks whose lock this process holds now
        self.touched: set[str] = set()  # tasks this process read: their owner's heartbeat renews
        self.remote: Remote | None = None
        if config.remote:
            from taskproto.remote import Remote

            self.remote = Remote(config)
        self.files = TaskFiles()  # the bytes of the tasks this process saves (state/taskfile.py)
        self.warnings: list[str] = []
        self.beats_kept: dict[str, str] = {}  # task -> its corrupt heartbeat file set aside
        self.last_lock_wait: float | None = None  # seconds the last change waited for its lock
        self.prompts = Prompts(config)  # the prompt of the state the latest transition reached
        self.offer = OfferRenewal(self.layout)  # SessionStart's offer, after a change

    @property
    def last_prompt(self) -> str | None:
        """The prompt of the state the latest transition reached (engine/prompting.py)."""
        return self.prompts.text()

    @last_prompt.setter
    def last_prompt(self, value: str | None) -> None:
        self.prompts.set(value)

    @property
    def repo(self) -> Repo:
        """GitPython, for worktrees, branches and reading many objects (opened on first use)."""
        if self._repo is None:
            from taskproto.git.repo import Repo

            self._repo = Repo(self.config.repo)
        return self._repo

    # --- reading -------------------------------------------------------------------

    def task_names(self) -> list[TaskName]:
        return many.names_of(self.layout.task_names())

    def load_many(
        self, names: Sequence[str] | None = None
    ) -> tuple[dict[str, Task], dict[str, str]]:
        """Every task here, or those of `names`, by state/many.py's one rule: one still being
        created left out, the journals read through one git process, a broken one reported."""
        return many.load_many(self.layout, self.task_names() if names is None else names, self.load)

    def task_file(self, name: str) -> str:
        """task.json of task `name` (a valid name, a folder that exists, no link on the way)."""
        valid = task_name(name)
        path = store.refuse_links(self.layout.tasks, self.layout.task_file(valid))
        if not os.path.isdir(self.layout.task_dir(valid)):
            raise TaskNotFound(valid)
        return os.fspath(path)

    def task_path(self, name: str) -> Path:
        from pathlib import Path

        return Path(self.task_file(name))

    def status_path(self, task: str, agent: str) -> str:
        return os.fspath(
            store.refuse_links(self.layout.tasks, self.layout.status_file(task, agent_name(agent)))
        )

    def load(self, name: str, verify: bool = True) -> Task:
        """The task, checked against its journal and its workflow (`verify`; doctor reads without).

        A task.json the journal does not vouch for is refused (Untrusted), and so is a workflow or
        state that does not exist (UnknownState). A check that fails while another process may be
        saving is made once more under the task's lock.
        """
        path = self.task_file(name)
        self.touched.add(name)
        try:
            data = store.read_bytes(path)
        except FileNotFoundError:
            raise CorruptState(path, MISSING_TASK_FILE, None) from None
        task, raw = self._parse(name, path, data, move_aside=False)
        if verify:
            found = self._problem(task, data, raw)
            if found is not None and name not in self._held:
                with self.locked(name, verify=True) as task:  # checked while no save can run
                    return task
            self.verify(task, data, found)
        return task

    def _parse(self, name: str, path: str, data: bytes, move_aside: bool) -> tuple[Task, object]:
        """The task `data` holds, and what the integrity check reads of it: what this process
        saved last when `data` is exactly its bytes, else parsed and validated."""
        task = self.files.take(name, data)
        if task is not None:
            return task, log_view(task)
        return store.parse_raw(Task, path, data, move_aside)

    def _problem(self, task: Task, data: bytes, raw: object = None) -> tuple[str, str] | None:
        parsed = raw if isinstance(raw, dict) else None  # the document already decoded, if any
        return integrity.check(self.config.layout.dirs, task.name, data, parsed)

    def verify(self, task: Task, data: bytes, found: tuple[str, str] | None | bool = True) -> None:
        """Refuse a task its journal does not vouch for, or whose workflow or state is unknown
        (`found`: the check's result when the caller made it already)."""
        if found is True:
            found = self._problem(task, data)
        if isinstance(found, tuple):
            raise Untrusted(task.name, found[0], integrity.refusal(task.name, found))
        self.known_state(task)

    def known_state(self, task: Task) -> Workflow:
        try:
            wf = self.workflow(task)
        except TaskprotoError as exc:
            raise UnknownState(
                f"task {task.name} uses workflow {task.workflow!r}, which cannot be loaded "
                f"({exc}); manual intervention required: run `taskproto doctor`"
            ) from None
        if not wf.has_state(task.state):
            raise UnknownState(
                f"task {task.name} is in state {task.state!r}, which workflow {wf.name} does not "
                "have; manual intervention required: run `taskproto doctor`"
            )
        return wf

    def workflow(self, task: Task) -> Workflow:
        return get_workflow(task.workflow, self.config)

    def agent_status(self, task: str, agent: str) -> AgentStatus | None:
        try:
            return store.load_status(self.status_path(task, agent))
        except FileNotFoundError:
            return None

    def agent_statuses(self, task: Task) -> dict[str, str]:
        result: dict[str, str] = {}
        for agent in task.required_agents:
            try:
                status = self.agent_status(task.name, agent)
                result[agent] = status.status.value if status else "missing"
            except TaskprotoError:
                result[agent] = "corrupt"
        return result

    def branch_head(self, name: str) -> str | None:
        dirs = self.config.layout.dirs
        return dirs.branch_sha(name) if dirs is not None else self.git.ref_sha(f"refs/heads/{name}")

    # --- the write path ------------------------------------------------------------

    def lock(self, name: str) -> Lock:
        """Hold the task's lock (its folder must exist); yields the path of its task.json."""
        return Lock(self, name)

    def changed(self) -> None:
        """A task was made, changed or removed: renew SessionStart's offer once no lock is held."""
        self.offer.due = True
        if not self._held:
            self.offer.renew()

    def locked(self, name: str, verify: bool = True) -> LockedTask:
        """Hold the task's lock and yield its task, loaded fresh (a corrupt file is moved aside)
        and, with `verify`, checked against its journal and workflow (see `load`)."""
        return LockedTask(self, name, verify)

    def save(
        self,
        old: Task | None,
        new: Task,
        message: str,
        files: Mapping[str, bytes] | Mapping[Path, bytes] | None = None,
        schema1: bool = False,
    ) -> Task:
        """Journal `new` as the next revision, then write it (`schema1`: as schema 1 holds it, for
        `taskproto migrate --down`). Lock held.

        `old` is the task as it was loaded (None when task.json was missing or unreadable); when
        `new` is `old` itself, task.json is left as it is and only `files` (agents' status files)
        and the journal change. The journal commit comes first: it is the authority, so a crash
        after it leaves task.json one revision behind its journal (doctor restores it), never a
        task.json the journal cannot vouch for. When the journal cannot be written, nothing is.
        With a shared remote the journal is pushed too, expecting the remote's head; when that
        fails, every file and the local journal are put back and the error raised.
        """
        path = self.layout.task_file(new.name)
        writes = {os.fspath(target): data for target, data in (files or {}).items()}
        problem = integrity.log_state_problem(log_view(new))
        if problem is not None:  # the journal never records a state no step of the log reached
            raise TaskprotoError(
                f"refused to save task {new.name}: {problem}; run `taskproto doctor`"
            )
        if new is not old:
            if not schema1:
                bound(old, new)  # the log's tail: the rest is the journal's (state/bound.py)
            new.revision = (old or new).revision + 1
            new.updated_at = utcnow()
            writes[path] = store.dump_schema1(new) if schema1 else self.files.dump(new)
        plan = None
        if self.remote is not None:
            releasing = (
                old.owner.session if old is not None and old.owner and new.owner is None else None
            )
            plan = self.remote.prepare_publish(new.name, releasing)  # refused before any write
        before = {target: bytes_or_none(target) for target in writes}
        local_before = self.journal_head(new.name)
        sign = signing.wanted(self.actor.agent, self.git, self.config, old, new)  # the user's
        local_after = self.journal(new, message, writes, sign)
        done: dict[str, bytes | None] = {}
        try:
            for target, data in writes.items():
                store.atomic_write(target, data)  # all or nothing per file
                done[target] = before[target]
            if self.remote is not None and plan is not None:
                self.remote.publish(plan, local_after, message)
        except BaseException:
            # the journal went first: take it back with the files, so nothing is half saved
            self.files.forget(new.name)
            self._undo_save(done, new.name, local_before, local_after)
            raise
        if path in writes:
            self.files.remember(new.name, writes[path])
        signing.note_failure(self.warnings, sign, new.name)
        self.indexed(new, None if schema1 else writes.get(path))
        return new

    def indexed(self, task: Task, raw: bytes | None = None) -> None:
        """The task's row in the index (state/index.py) from `raw`, task.json's bytes as just
        written (parsed in C, not dumped again); the change is complete (the offer is due)."""
        data = task.model_dump(mode="json", by_alias=True) if raw is None else json.loads(raw)
        index.record(self.layout, task.name, data, self.agent_statuses(task))
        attention.note(self.layout, data)  # what now needs the user, once (engine/attention.py)
        self.offer.due = True

    def _undo_save(
        self, before: dict[str, bytes | None], name: str, old: str | None, new: str | None
    ) -> None:
        for target, data in before.items():
            if data is None:
                try:
                    os.unlink(target)
                except FileNotFoundError:
                    pass
            else:
                store.atomic_write(target, data)
        index.touch(self.layout)  # task.json was written twice: hook.sh must look again
        journal.take_back(self.git, self.layout.dirs, name, old, new)

    def first_record(
        self, task: Task, message: str, made: str | None = None, later: list[str] | None = None
    ) -> None:
        """task.json of a task being made (`task create`, or doctor finishing one): its journal's
        first commit, then the file, each only if missing; when the journal has one already,
        task.json is exactly what it recorded. Lock held. An import passes `made` (the commit,
        durable already) and `later` (gets task.json's path, to sync: engine/imported.py)."""
        path = self.layout.task_file(task.name)
        head = self.journal_head(task.name)
        if os.path.exists(path):
            if head is None:
                self.journal(store.load_task(path), message, {})
            return
        data = store.dump(task)
        if head is None and made is not None:
            journal.move(
                self.git, self.layout.dirs, journal.ref_for(task.name), made, None, message
            )
        elif head is None:
            self.journal(task, message, {path: data})
        else:
            data = journal.read_file(self.repo, head) or data  # what the journal recorded
        store.atomic_write(path, data, sync=later is None)
        if later is not None:
            later.append(path)
        self.indexed(store.parse(Task, path, data, move_aside=False), data)

    def adopt(self, name: str, task_json: bytes, statuses: dict[str, bytes]) -> None:
        """Write a journal commit's task.json and agents' status files (`statuses`: agent ->
        bytes) as this task's: sync takes the remote's journal (engine/sync.py). Lock held; the
        caller moves the journal ref."""
        for agent, data in statuses.items():
            status = self.layout.status_file(name, agent)
            os.makedirs(os.path.dirname(status), exist_ok=True)
            store.atomic_write(status, data)
        path = self.layout.task_file(name)
        store.atomic_write(path, task_json)
        self.indexed(store.parse(Task, path, task_json, move_aside=False), task_json)

    def journal_head(self, name: str) -> str | None:
        dirs = self.config.layout.dirs
        ref = journal.ref_for(name)
        return dirs.ref_sha(ref) if dirs is not None else self.git.ref_sha(ref)

    def journal(
        self, task: Task, message: str, writes: Mapping[str, bytes], sign: Setup | None = None
    ) -> str:
        """Append the journal commit of `task`: task.json and the agents' status files as they
        will be once `writes` (path -> new bytes) are written (signed: `sign`). Returns it."""
        path = self.layout.task_file(task.name)
        data = writes.get(path)
        files = {journal.TASK_FILE: data if data is not None else store.read_bytes(path)}
        files.update(journal.agent_files(self.layout, task.name, task.required_agents, writes))
        journal.keep_good_statuses(files, lambda: (self.repo, self.journal_head(task.name)))
        try:
            return journal.append(
                self.git, self.layout.dirs, task.name, files, message, task.revision, sign
            )
        except OSError as exc:
            where = f"the journal of {task.name}" + (f" ({exc.filename})" if exc.filename else "")
            raise WriteFailed(where, exc.errno, exc.strerror or str(exc)) from None
        except GitError as exc:
            raise TaskprotoError(
                f"the journal of {task.name} could not be written, so nothing was saved "
                f"({short_reason(exc)}); run `taskproto doctor --fix`, then retry"
            ) from None

    def mutate(self, name: str, change: Change) -> Task:
        """Lock, load, apply `change` (the new task and a journal message, or None: nothing to do),
        save."""
        with self.locked(name) as task:
            result = change(task)
            if result is None:
                return task
            new, message = result
            return self.save(task, new, message)

    # --- what guards and moves need ---------------------------------------------------

    def owner_error(self, task: Task, action: str) -> OwnershipError:
        from taskproto.engine.stale_claim import owner_error  # a gone owner's, a stale claim's

        return owner_error(self.config, self.remote, task, action)

    def require_user(self, action: str) -> None:
        """Refuse `action` (one of the user's: approvals, --force, ...) when an agent asks."""
        if self.actor.agent:
            raise UserOnly(action, self.actor.why)

    def check_force(self, force: bool) -> None:
        if force:
            self.require_user("--force")

    def check_mover(self, task: Task, session: str | None, force: bool, what: str) -> bool:
        """Only the owner moves an owned task; returns True when --force overrode a live owner."""
        self.check_force(force)
        if task.owner is None or task.owner.session == session:
            return False
        if force:
            return True
        raise self.owner_error(task, f"only its owner can {what} (or pass --force, logged)")

    def context(
        self,
        task: Task,
        session: str | None,
        forced: bool = False,
        note: str | None = None,
        params: dict[str, Any] | None = None,
        time: datetime | None = None,
    ) -> FireContext:
        """The facts guards read when a transition fires now."""
        return FireContext(
            time=time or utcnow(),
            session=session,
            forced=forced,
            agent_statuses=self.agent_statuses(task),
            branch_head=self.branch_head(task.name),
            params=params or {},
            note=note,
        )

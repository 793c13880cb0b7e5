"""The engine's core: reading tasks, and the one write path every change takes.

`save` is that path: it writes task.json atomically as the next revision, appends the
journal commit, and with a shared remote pushes the journal too (or undoes the local
change when the push fails). `mutate` (lock, load, change, save) and doctor's repairs
(`lock`, then `save`) both end in it. If anything fails before the save, nothing on disk
changes; a refused change leaves task.json byte for byte as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from taskproto.config import Config
from taskproto.errors import (
    CorruptState,
    GitError,
    OwnershipError,
    TaskNotFound,
    TaskprotoError,
    UserOnly,
)
from taskproto.git.command import Git
from taskproto.git.repo import Repo
from taskproto.machine.registry import get_workflow
from taskproto.machine.workflow import FireContext, Workflow
from taskproto.names import TaskName, agent_name, task_name
from taskproto.remote import Remote
from taskproto.state import journal, store
from taskproto.state.lock import task_lock
from taskproto.state.models import AgentStatus, Task, utcnow

Change = Callable[[Task], "tuple[Task, str | None] | None"]


@dataclass(frozen=True)
class Actor:
    """Who asks: the user, or an agent (and how we know). Agents are refused the user's actions."""

    agent: bool = False
    why: str = ""


USER = Actor()


class Core:
    """One repository's tasks. Holds no task state between calls: every change re-reads under the
    lock."""

    def __init__(self, config: Config, actor: Actor = USER) -> None:
        self.config = config
        self.actor = actor
        self.git = Git(config.repo)  # single git calls on the fast paths (journal writes, refs)
        self._repo: Repo | None = None
        self.remote: Remote | None = Remote(config) if config.remote else None
        self.warnings: list[str] = []
        self.last_lock_wait: float | None = (
            None  # seconds the last locked change waited for the lock
        )
        self.last_prompt: str | None = (
            None  # the prompt rendered by the latest transition, if its workflow has one
        )

    @property
    def repo(self) -> Repo:
        """GitPython, for worktrees, branches and reading many objects (opened on first use)."""
        if self._repo is None:
            self._repo = Repo(self.config.repo)
        return self._repo

    # --- reading -------------------------------------------------------------------

    def task_names(self) -> list[TaskName]:
        names = []
        for entry in self.config.layout.task_names():
            try:
                names.append(task_name(entry))
            except TaskprotoError:
                continue
        return names

    def task_path(self, name: str) -> Path:
        valid = task_name(name)
        path = store.refuse_links(self.config.tasks_dir, self.config.task_file(valid))
        if not self.config.task_dir(valid).is_dir():
            raise TaskNotFound(valid)
        return path

    def status_path(self, task: str, agent: str) -> Path:
        return store.refuse_links(
            self.config.tasks_dir, self.config.status_file(task, agent_name(agent))
        )

    def load(self, name: str) -> Task:
        path = self.task_path(name)
        try:
            return store.load_task(path)
        except FileNotFoundError:
            raise CorruptState(str(path), "task.json is missing", None) from None

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

    @contextmanager
    def lock(self, name: str) -> Iterator[Path]:
        """Hold the task's lock (its folder must exist); yields the path of its task.json."""
        path = self.task_path(name)
        with task_lock(path.parent, name, self.config.lock_timeout) as waited:
            self.last_lock_wait = waited
            yield path

    @contextmanager
    def locked(self, name: str) -> Iterator[Task]:
        """Hold the task's lock and yield its task, loaded fresh (a corrupt file is moved aside)."""
        with self.lock(name) as path:
            try:
                task = store.load_task(path, move_aside=True)
            except FileNotFoundError:
                raise CorruptState(str(path), "task.json is missing", None) from None
            yield task

    def save(
        self,
        old: Task | None,
        new: Task,
        message: str | None,
        files: Mapping[Path, bytes] | None = None,
    ) -> Task:
        """Write `new` as the next revision and journal it (unless `message` is None). Lock held.

        `old` is the task as it was loaded (None when task.json was missing or unreadable); when
        `new` is `old` itself, task.json is left as it is and only `files` (agents' status files,
        written atomically first) and the journal change. With a shared remote the journal is
        pushed too, expecting the remote's head; when that fails, every file and the local
        journal are put back and the error raised.
        """
        path = self.config.task_file(new.name)
        writes = dict(files or {})
        if new is not old:
            new.revision = (old or new).revision + 1
            new.updated_at = utcnow()
            writes[path] = store.dump(new)
        if self.remote is None or message is None:
            for target, data in writes.items():
                store.atomic_write(target, data)
            if message is not None:
                self.journal(new, message)
            return new
        releasing = (
            old.owner.session if old is not None and old.owner and new.owner is None else None
        )
        plan = self.remote.prepare_publish(
            new.name, releasing
        )  # refused before anything is written
        before = {target: target.read_bytes() if target.is_file() else None for target in writes}
        local_before = journal.head(self.git, new.name)
        for target, data in writes.items():
            store.atomic_write(target, data)
        self.journal(new, message)
        local_after = journal.head(self.git, new.name)
        try:
            self.remote.publish(plan, local_after, message)
        except BaseException:
            self._undo_save(before, new.name, local_before, local_after)
            raise
        return new

    def _undo_save(
        self,
        before: dict[Path, bytes | None],
        name: str,
        old_head: str | None,
        new_head: str | None,
    ) -> None:
        for target, data in before.items():
            if data is None:
                target.unlink(missing_ok=True)
            else:
                store.atomic_write(target, data)
        if new_head is not None and new_head != old_head:
            ref = journal.ref_for(name)
            if old_head is None:
                self.git.delete_ref(ref, new_head)
            else:
                self.git.update_ref(
                    ref, old_head, new_head, message="taskproto: undo (push failed)"
                )

    def take_journal(self, name: str, sha: str, old_head: str | None) -> Task:
        """Make the journal commit `sha` this task's record: task.json and the status files from its
        tree, then the journal ref moved from `old_head` (None: none yet) to it. Lock held.

        For a journal that came from elsewhere (sync); no new journal commit is written.
        """
        files = self.repo.history(sha, limit=1)
        data = files[0].files.get(journal.TASK_FILE) if files else None
        if data is None:
            raise TaskprotoError(f"journal commit {sha[:12]} of {name!r} holds no task.json")
        path = self.config.task_file(name)
        task = store.parse(Task, path, data, move_aside=False)
        for agent in task.required_agents:
            status = files[0].files.get(journal.status_entry(agent))
            if status is not None:
                self.config.agent_dir(name, agent).mkdir(parents=True, exist_ok=True)
                store.atomic_write(self.config.status_file(name, agent), status)
        store.atomic_write(path, data)
        self.git.update_ref(journal.ref_for(name), sha, old_head, message="taskproto: sync")
        return task

    def journal(self, task: Task, message: str) -> None:
        """Append a journal commit holding task.json and the agents' status files."""
        files = {journal.TASK_FILE: self.config.task_file(task.name)}
        for agent in task.required_agents:
            try:
                status = self.status_path(task.name, agent)
            except TaskprotoError:
                continue  # a planted link: never copy what it points at into the journal
            if status.is_file() and not status.is_symlink():
                files[journal.status_entry(agent)] = status
        try:
            journal.append(self.git, task.name, files, f"{message}\n\nrevision: {task.revision}\n")
        except GitError as exc:
            # task.json is saved; doctor brings the journal back into agreement.
            self.warnings.append(
                f"the journal of {task.name} was not updated ({exc}); run `taskproto doctor --fix`"
            )

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
        assert task.owner is not None
        since = task.owner.claimed_at.isoformat(timespec="seconds")
        return OwnershipError(task.name, task.owner.session, since, task.owner.host, action)

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

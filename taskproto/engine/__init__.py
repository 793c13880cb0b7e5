"""The one path every state change takes: lock, load, change, save atomically, journal.

If anything fails before the save, nothing on disk changes; a refused transition
leaves task.json byte for byte as it was.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from taskproto.config import Config, ensure_root
from taskproto.engine import prompts
from taskproto.engine import worktree as wt
from taskproto.errors import (
    CorruptState,
    GitError,
    OwnershipError,
    SessionRequired,
    TaskExists,
    TaskNotFound,
    TaskprotoError,
)
from taskproto.git.command import Git
from taskproto.machine.registry import get_workflow
from taskproto.machine.workflow import FireContext, Workflow, fire, transition_to
from taskproto.names import agent_name, task_name
from taskproto.sessions import hostname, owner_gone
from taskproto.state import journal, store
from taskproto.state.lock import task_lock
from taskproto.state.models import (
    AgentState,
    AgentStatus,
    Approval,
    Counters,
    LogEntry,
    Owner,
    Task,
    utcnow,
)

if TYPE_CHECKING:
    from taskproto.remote import Remote


@dataclass
class ClaimResult:
    task: Task
    outcome: str  # claimed | renewed | takeover | forced
    previous: Owner | None = None
    reason: str | None = None


@dataclass
class Engine:
    config: Config
    warnings: list[str] = field(default_factory=list)
    last_lock_wait: float | None = None  # seconds the last locked change waited for the lock
    last_prompt: str | None = (
        None  # the prompt rendered by the latest fire(), if its workflow has one
    )

    def __post_init__(self) -> None:
        self.git = Git(self.config.repo)
        self.remote: Remote | None = None
        if self.config.remote:  # cross-machine claims and journals (taskproto/remote.py)
            from taskproto.remote import Remote

            self.remote = Remote(self.config)

    # --- reading -----------------------------------------------------------

    def task_names(self) -> list[str]:
        tasks = self.config.tasks_dir
        if not tasks.is_dir():
            return []
        names = []
        for entry in sorted(os.listdir(tasks)):
            try:
                task_name(entry)
            except TaskprotoError:
                continue
            if (tasks / entry).is_dir():
                names.append(entry)
        return names

    def task_path(self, name: str) -> Path:
        task_name(name)
        path = store.refuse_links(self.config.tasks_dir, self.config.task_file(name))
        if not self.config.task_dir(name).is_dir():
            raise TaskNotFound(name)
        return path

    def status_path(self, task: str, agent: str) -> Path:
        agent_name(agent)
        return store.refuse_links(self.config.tasks_dir, self.config.status_file(task, agent))

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
        return self.git.ref_sha(f"refs/heads/{name}")

    # --- the write path ------------------------------------------------------

    @contextmanager
    def locked(self, name: str) -> Iterator[Task]:
        """Hold the task's lock and yield its task, loaded fresh (corrupt files are moved aside)."""
        path = self.task_path(name)
        with task_lock(path.parent, name, self.config.lock_timeout) as waited:
            self.last_lock_wait = waited
            try:
                yield store.load_task(path, move_aside=True)
            except FileNotFoundError:
                raise CorruptState(str(path), "task.json is missing", None) from None

    def save(self, old: Task, new: Task, message: str | None) -> Task:
        """Write `new` as the next revision; journal it unless message is None. Lock held."""
        new.revision = old.revision + 1
        new.updated_at = utcnow()
        store.save_task(self.config.task_file(new.name), new)
        if message is not None:
            self.journal(new, message)
        return new

    def journal(self, task: Task, message: str) -> None:
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

    def mutate(self, name: str, change: Callable[[Task], tuple[Task, str | None] | None]) -> Task:
        """Lock, load, apply `change` (returns the new task and a journal message, or None for no-op)."""
        with self.locked(name) as task:
            result = change(task)
            if result is None:
                return task
            new, message = result
            if self.remote is not None and message is not None:
                return self.remote.write_through(
                    self, task, new, message
                )  # here and on the remote, or neither
            return self.save(task, new, message)

    # --- tasks -------------------------------------------------------------

    def create_task(
        self,
        name: str,
        agents: Sequence[str] = (),
        base: str | None = None,
        workflow: str = "task-protocol",
        description: str = "",
        session: str | None = None,
        context: dict[str, Any] | None = None,
        counters: dict[str, int] | None = None,
    ) -> Task:
        task_name(name)
        for a in agents:
            agent_name(a)
        if len(set(agents)) != len(agents):
            raise TaskprotoError(f"agent names must be unique: {', '.join(agents)}")
        wf = get_workflow(workflow, self.config)
        base_sha = self.git.rev_parse(base or "HEAD")
        if base_sha is None:
            raise TaskprotoError(
                f"base {base or 'HEAD'!r} is not a commit; pass --base with a branch or sha"
            )
        if journal.head(self.git, name):
            raise TaskprotoError(
                f"a journal for task {name!r} already exists ({journal.ref_for(name)}); "
                "run `taskproto doctor` to restore the task, or pick another name"
            )
        ensure_root(self.config)
        task_dir = self.config.task_dir(name)
        try:
            task_dir.mkdir()
        except FileExistsError:
            raise TaskExists(name) from None
        try:
            wt.create(self.config, self.git, name, agents, base_sha)
            now = utcnow()
            for a in agents:
                self.config.agent_dir(name, a).mkdir(parents=True, exist_ok=True)
                store.save_status(
                    self.config.status_file(name, a), AgentStatus(agent=a, updated_at=now)
                )
            task = Task(
                name=name,
                workflow=wf.name,
                state=wf.initial,
                description=description,
                base=base_sha,
                created_at=now,
                updated_at=now,
                revision=1,
                required_agents=list(agents),
                context=context or {},
                counters=Counters(**(counters or {})),
                transition_log=[
                    LogEntry(
                        from_state=None,
                        to_state=wf.initial,
                        trigger="create",
                        time=now,
                        session=session,
                        kind="create",
                    )
                ],
            )
            store.save_task(self.config.task_file(name), task)
            self.journal(task, f"create: {wf.initial}")
            return task
        except BaseException:
            if self.config.task_worktree(name).exists():
                wt._undo(
                    self.git,
                    wt.Made(
                        worktrees=[self.config.task_worktree(name)]
                        + [self.config.agent_worktree(name, a) for a in agents],
                        branches=[name] + [f"{name}-{a}" for a in agents],
                    ),
                )
            shutil.rmtree(task_dir, ignore_errors=True)
            raise

    def remove_task(self, name: str, force: bool = False) -> wt.RemovalPlan:
        task_dir = self.task_path(name).parent
        with task_lock(task_dir, name, self.config.lock_timeout):
            try:
                agents = store.load_task(self.config.task_file(name)).required_agents
            except (TaskprotoError, FileNotFoundError):
                if not force:
                    raise TaskprotoError(
                        f"task.json of {name!r} is missing or corrupt, so its agents are unknown; "
                        "run `taskproto doctor --fix` first, or pass --force"
                    ) from None
                agents_dir = task_dir / "agents"
                agents = sorted(os.listdir(agents_dir)) if agents_dir.is_dir() else []
            plan = wt.remove(self.config, self.git, name, agents, force)
        journal.archive(self.git, name, utcnow().strftime("%Y%m%dT%H%M%SZ"))
        return plan

    # --- ownership -----------------------------------------------------------

    def _owner_error(self, task: Task, action: str) -> OwnershipError:
        assert task.owner is not None
        return OwnershipError(
            task.name,
            task.owner.session,
            task.owner.claimed_at.isoformat(timespec="seconds"),
            task.owner.host,
            action,
        )

    def claim(
        self, name: str, session: str | None, pid: int | None = None, force: bool = False
    ) -> ClaimResult:
        if self.remote is not None:
            return self.remote.claim(
                self, name, session, pid, force
            )  # remote first, then _claim_local
        return self._claim_local(name, session, pid, force)

    def _claim_local(
        self, name: str, session: str | None, pid: int | None = None, force: bool = False
    ) -> ClaimResult:
        if not session:
            raise SessionRequired("claim")
        outcome: dict[str, Any] = {}

        def change(task: Task) -> tuple[Task, str | None]:
            now = utcnow()
            new = task.model_copy(deep=True)
            previous = task.owner
            if previous is not None and previous.session == session:
                new.owner = previous.model_copy(
                    update={"heartbeat_at": now, "pid": pid or previous.pid}
                )
                outcome.update(outcome="renewed")
                return new, None
            kind: Literal["claim", "takeover"] = "claim"
            reason: str | None = None
            forced = False
            if previous is not None:
                reason = owner_gone(previous, now, self.config.lease_minutes)
                if reason is not None:
                    kind = "takeover"
                elif force:
                    kind, forced, reason = (
                        "takeover",
                        True,
                        "forced with --force while the owner was live",
                    )
                else:
                    raise self._owner_error(
                        task, "wait for it to be released, or take over with --force (logged)"
                    )
            new.owner = Owner(
                session=session, host=hostname(), pid=pid, claimed_at=now, heartbeat_at=now
            )
            note = f"from {previous.session}: {reason}" if previous is not None else None
            new.transition_log.append(
                LogEntry(
                    from_state=task.state,
                    to_state=task.state,
                    trigger=kind,
                    time=now,
                    session=session,
                    kind=kind,
                    forced=forced,
                    note=note,
                )
            )
            outcome.update(
                outcome="forced" if forced else ("takeover" if previous else "claimed"),
                previous=previous,
                reason=reason,
            )
            return new, f"{kind}: {session}"

        task = self.mutate(name, change)
        return ClaimResult(task, outcome["outcome"], outcome.get("previous"), outcome.get("reason"))

    def claim_next(self, session: str | None, pid: int | None = None) -> ClaimResult:
        """Claim the first task that is free (unowned or owner provably gone), oldest first."""
        if self.remote is not None:
            return self.remote.claim_next(self, session, pid)
        if not session:
            raise SessionRequired("claim")
        candidates = []
        for name in self.task_names():
            try:
                task = self.load(name)
            except TaskprotoError:
                continue
            if task.owner is not None and task.owner.session == session:
                return self.claim(name, session, pid)
            if self.workflow(task).state(task.state).terminal:
                continue
            if task.owner is None or owner_gone(task.owner, utcnow(), self.config.lease_minutes):
                candidates.append(task)
        for task in sorted(candidates, key=lambda t: (t.created_at, t.name)):
            try:
                return self.claim(task.name, session, pid)
            except OwnershipError:
                continue  # lost the race for this one; try the next
        raise TaskprotoError("no task is free to claim (see `taskproto task list`)")

    def release(self, name: str, session: str | None, force: bool = False) -> Task:
        def change(task: Task) -> tuple[Task, str | None]:
            if task.owner is None:
                raise TaskprotoError(f"task {name!r} is not claimed by anyone; nothing to release")
            if task.owner.session != session and not force:
                raise self._owner_error(
                    task, "only its owner can release it (or pass --force, logged)"
                )
            now = utcnow()
            new = task.model_copy(deep=True)
            new.owner = None
            new.transition_log.append(
                LogEntry(
                    from_state=task.state,
                    to_state=task.state,
                    trigger="release",
                    time=now,
                    session=session,
                    kind="release",
                    forced=task.owner.session != session,
                    note=f"released {task.owner.session}",
                )
            )
            return new, f"release: {task.owner.session}"

        return self.mutate(name, change)

    def heartbeat(self, name: str, session: str | None) -> Task:
        if not session:
            raise SessionRequired("heartbeat")
        if self.remote is not None:
            self.load(name)  # a missing task is refused before the network is touched
            self.remote.renew(name, session)

        def change(task: Task) -> tuple[Task, str | None]:
            if task.owner is None or task.owner.session != session:
                who = f"owned by {task.owner.session}" if task.owner else "not claimed"
                raise TaskprotoError(
                    f"task {name!r} is {who}; claim it first with `taskproto claim {name}`"
                )
            new = task.model_copy(deep=True)
            assert new.owner is not None
            new.owner.heartbeat_at = utcnow()
            return new, None  # liveness, not history: not journaled

        return self.mutate(name, change)

    def _check_mover(self, task: Task, session: str | None, force: bool, what: str) -> bool:
        """Only the owner moves an owned task; returns True when --force overrode a live owner."""
        if task.owner is None or task.owner.session == session:
            return False
        if force:
            return True
        raise self._owner_error(task, f"only its owner can {what} (or pass --force, logged)")

    # --- transitions -------------------------------------------------------

    def fire(
        self,
        name: str,
        trigger: str | None = None,
        target: str | None = None,
        session: str | None = None,
        force: bool = False,
        note: str | None = None,
        params: dict[str, Any] | None = None,
        extra: Callable[[Task, Task], None] | None = None,
    ) -> Task:
        """Fire `trigger`, or the trigger that leads to state `target`."""

        def change(task: Task) -> tuple[Task, str | None]:
            wf = self.workflow(task)
            forced = self._check_mover(task, session, force, "move it")
            trig = trigger or transition_to(wf, task.name, task.state, str(target))
            ctx = self.context(task, session, forced, note, params)
            new = fire(wf, task, trig, ctx)
            if extra is not None:
                extra(task, new)
            # The next state's prompt is rendered before the save: a broken template
            # refuses the transition and leaves task.json as it was.
            self.last_prompt = prompts.render(self.config, new)
            return new, f"{trig}: {task.state} -> {new.state}"

        return self.mutate(name, change)

    def context(
        self,
        task: Task,
        session: str | None,
        forced: bool = False,
        note: str | None = None,
        params: dict[str, Any] | None = None,
        time: datetime | None = None,
    ) -> FireContext:
        return FireContext(
            time=time or utcnow(),
            session=session,
            forced=forced,
            agent_statuses=self.agent_statuses(task),
            branch_head=self.branch_head(task.name),
            params=params or {},
            note=note,
        )

    # --- approvals -----------------------------------------------------------

    def approve(self, name: str, kind: str, session: str | None, sha: str | None = None) -> Task:
        """Record the user's plan or commit approval (what the guards read)."""

        def change(task: Task) -> tuple[Task, str | None]:
            state = self.workflow(task).state(task.state)
            if state.approval != kind:
                where = [s.name for s in self.workflow(task).states if s.approval == kind]
                raise TaskprotoError(
                    f"task {name!r} is in {task.state}; a {kind} approval is recorded in "
                    f"{', '.join(where) or 'no state of this workflow'}"
                )
            now = utcnow()
            new = task.model_copy(deep=True)
            if kind == "plan":
                new.checkpoint.plan_approval = Approval(by=session, at=now)
                detail = "plan"
            else:
                head = self.branch_head(name)
                target = self.git.rev_parse(sha) if sha else head
                if target is None:
                    raise TaskprotoError(
                        f"{sha or name!r} is not a commit; pass --commit SHA of the task branch"
                    )
                new.checkpoint.commit_approval = Approval(sha=target, by=session, at=now)
                detail = f"commit {target[:12]}"
            new.transition_log.append(
                LogEntry(
                    from_state=task.state,
                    to_state=task.state,
                    trigger=f"approve_{kind}",
                    time=now,
                    session=session,
                    kind="approval",
                    note=detail,
                )
            )
            return new, f"approve: {detail}"

        return self.mutate(name, change)

    # --- agents --------------------------------------------------------------

    def set_agent_status(
        self,
        name: str,
        agent: str,
        status: AgentState,
        message: str | None = None,
        session: str | None = None,
        force: bool = False,
    ) -> AgentStatus:
        agent_name(agent)
        result: list[AgentStatus] = []

        def change(task: Task) -> tuple[Task, str | None] | None:
            if agent not in task.required_agents:
                raise TaskprotoError(
                    f"{agent!r} is not an agent of task {name!r} (agents: {', '.join(task.required_agents) or 'none'})"
                )
            self._check_mover(task, session, force, "update its agents")
            path = self.status_path(name, agent)
            try:
                current = store.load_status(path, move_aside=True)
            except FileNotFoundError:
                current = AgentStatus(agent=agent, updated_at=utcnow())
            new_status = current.model_copy(
                update={
                    "status": status,
                    "updated_at": utcnow(),
                    "error_message": message if status == AgentState.ERROR else None,
                }
            )
            path.parent.mkdir(parents=True, exist_ok=True)
            store.save_status(path, new_status)
            result.append(new_status)
            self.journal(task, f"agent {agent}: {status.value}")
            return None

        self.mutate(name, change)
        return result[0]

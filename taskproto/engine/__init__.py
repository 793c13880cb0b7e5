"""The engine: every change to a task goes through here (lock, load, change, save, journal, remote).

`Engine` is the library's public API, used by the CLI, the MCP server, the hooks, doctor
and the per-workflow operations. Its methods validate names where they enter and call
the modules that do the work, each named for its job:

- core.py         reading tasks, and `save`: the one write path (with the remote write-through)
- tasks.py        creating and removing tasks
- claims.py       claims, takeovers, releases, heartbeats (here, then on the shared remote)
- transitions.py  firing triggers, approvals, agent statuses, stale approvals
- merge.py        `merge`: agents' branches into the task branch, one agent at a time
- diff.py         the one diff: a task or agent branch against the task's base
- land.py         `land`: the approved commit onto the base branch, then CLEANUP
- update.py       `update`: the base's new commits into a task branch (a conflict goes back)
- rollback.py     the user's rollback to an earlier point of the log, and `ack` of a review
- deps.py         dependencies between tasks: what a task waits for, adding and removing them
- ready.py        the ready queue: what can start now, most urgent first
- sync.py         `taskproto sync` with the shared remote
- worktree.py     task and agent worktrees and branches
- summary.py      the stable JSON shape of a task
"""

from __future__ import annotations

from taskproto.engine.core import USER, Actor, Core
from taskproto.names import agent_name, task_name
from taskproto.state.models import (
    DEFAULT_PRIORITY,
    AgentState,
    AgentStatus,
    Approval,
    Interruption,
    LogEntry,
    Task,
)

TYPE_CHECKING = False  # every command loads this module: no `typing` at run time
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from taskproto.engine import diff as diffs
    from taskproto.engine import land as landing
    from taskproto.engine import merge as merging
    from taskproto.engine import ready, sync, walk
    from taskproto.engine import update as updating
    from taskproto.engine import worktree as wt
    from taskproto.engine.claims import ClaimResult
    from taskproto.engine.transitions import Step, StepFn

# Each operation's module is imported when the operation runs: a transition needs core.py and
# transitions.py, not claims, sync, land or the ready queue (a few ms of every command's start).
_LAZY = {
    "ClaimResult": "taskproto.engine.claims",
    "Step": "taskproto.engine.transitions",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["USER", "Actor", "ClaimResult", "Engine", "Step", "StepFn"]


class Engine(Core):
    """One repository's tasks (see the module docstring for where each operation lives)."""

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
        after: Sequence[str] = (),
        priority: int = DEFAULT_PRIORITY,
    ) -> Task:
        from taskproto.engine import tasks

        valid = [agent_name(a) for a in agents]
        return tasks.create_task(
            self,
            task_name(name),
            valid,
            base,
            workflow,
            description,
            session,
            context,
            counters,
            after,
            priority,
        )

    def remove_task(
        self, name: str, force: bool = False, session: str | None = None
    ) -> wt.RemovalPlan:
        from taskproto.engine import tasks

        return tasks.remove_task(self, task_name(name), force, session)

    def abort_task(self, name: str, force: bool = False) -> wt.RemovalPlan:
        """Undo a `task create` that was killed half-way, whole."""
        from taskproto.engine import tasks

        return tasks.abort_create(self, task_name(name), force)

    def claim(
        self, name: str, session: str | None, pid: int | None = None, force: bool = False
    ) -> ClaimResult:
        from taskproto.engine import claims, moved

        result = claims.claim(self, task_name(name), session, pid, force)
        moved.warn(self.config, self.warnings, result.task.name)
        return result

    def claim_next(self, session: str | None, pid: int | None = None) -> ClaimResult:
        from taskproto.engine import claims, moved

        result = claims.claim_next(self, session, pid)
        moved.warn(self.config, self.warnings, result.task.name)
        return result

    def add_dependency(self, name: str, on: Sequence[str], session: str | None = None) -> Task:
        from taskproto.engine import deps

        return deps.add(self, task_name(name), on, session)

    def remove_dependency(self, name: str, on: Sequence[str], session: str | None = None) -> Task:
        from taskproto.engine import deps

        return deps.remove(self, task_name(name), on, session)

    def ready(self, fetch: bool = True) -> ready.Queue:
        """The ready queue (with a shared remote and `fetch`, synced first: the remote's queue)."""
        from taskproto.engine import ready, sync

        claims, conflicts = {}, {}
        if self.remote is not None and fetch:
            report = sync.sync(self)
            claims, conflicts = report.claims, report.conflicts()
        elif self.remote is not None:
            claims = self.remote.tracked_claims()
        q = ready.queue(self, claims)
        q.sync_conflicts = conflicts
        return q

    def release(self, name: str, session: str | None, force: bool = False) -> Task:
        from taskproto.engine import claims

        return claims.release(self, task_name(name), session, force)

    def heartbeat(self, name: str, session: str | None) -> Task:
        from taskproto.engine import claims

        return claims.heartbeat(self, task_name(name), session)

    def fire(
        self,
        name: str,
        trigger: str | None = None,
        target: str | None = None,
        session: str | None = None,
        force: bool = False,
        note: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> Task:
        """Fire `trigger`, or the trigger that leads to state `target`."""
        from taskproto.engine import transitions

        return transitions.fire_trigger(
            self, task_name(name), trigger, target, session, force, note, params
        )

    def whole_log(self, name: str) -> tuple[list[LogEntry], list[Interruption]]:
        """Every log entry and interruption the task ever had, read from its journal (task.json
        holds their tails: state/bound.py)."""
        from taskproto.engine.migrate import whole

        log, interruptions = whole(self, task_name(name))
        return (
            [LogEntry.model_validate(e) for e in log],
            [Interruption.model_validate(i) for i in interruptions],
        )

    def next(
        self,
        name: str,
        target: str | None = None,
        session: str | None = None,
        force: bool = False,
    ) -> walk.Walk:
        """Fire the step the workflow allows next, or walk to state `target` (engine/walk.py)."""
        from taskproto.engine import moved
        from taskproto.engine import walk as walking

        walked = walking.walk(self, task_name(name), target, session, force)
        moved.warn(self.config, self.warnings, walked.task)
        return walked

    def advance(
        self,
        name: str,
        step: StepFn,
        session: str | None = None,
        force: bool = False,
        what: str = "move it",
    ) -> Task:
        """Run a workflow operation's `step` (which may fire several triggers) as one locked
        change."""
        from taskproto.engine import transitions

        return transitions.advance(self, task_name(name), step, session, force, what)

    def approve(
        self,
        name: str,
        kind: str,
        session: str | None,
        sha: str | None = None,
        seen: dict[str, object] | None = None,
    ) -> Task:
        from taskproto.engine import transitions

        return transitions.approve(self, task_name(name), kind, session, sha, seen)

    def set_agent_status(
        self,
        name: str,
        agent: str,
        status: AgentState,
        message: str | None = None,
        session: str | None = None,
        force: bool = False,
        escalated: bool = False,
    ) -> AgentStatus:
        from taskproto.engine import transitions

        return transitions.set_agent_status(
            self, task_name(name), agent_name(agent), status, message, session, force, escalated
        )

    def mark_approval_stale(
        self, name: str, reason: str, session: str | None = None, repair: str | None = None
    ) -> bool:
        from taskproto.engine import transitions

        return transitions.mark_approval_stale(self, task_name(name), reason, session, repair)

    def merge(
        self,
        name: str,
        agents: Sequence[str] = (),
        session: str | None = None,
        force: bool = False,
    ) -> merging.MergeReport:
        """Merge the agents' branches (all, or `agents`) into the task branch, one at a time."""
        from taskproto.engine import merge as merging

        return merging.merge_agents(self, task_name(name), agents, session, force)

    def diff(self, name: str, agent: str | None = None) -> diffs.Diff:
        """The task branch (or `agent`'s branch) against the task's base."""
        from taskproto.engine import diff as diffs

        return diffs.branch_diff(self, self.load(name), agent)

    def land(
        self,
        name: str,
        strategy: landing.Strategy = "merge",
        push: bool = False,
        onto: str | None = None,
        session: str | None = None,
        update: str | None = None,
    ) -> landing.LandReport:
        """Put the approved commit on the base branch and clean up (the user's alone); with
        `update` (merge or rebase), bring a base that moved in first (engine/land.py)."""
        from taskproto.engine import land as landing

        return landing.land(self, task_name(name), strategy, push, onto, session, update)

    def update(
        self,
        name: str,
        mode: updating.Mode = "merge",
        agents: bool = False,
        session: str | None = None,
        carry: bool = False,
    ) -> updating.UpdateReport:
        """Bring the base's new commits into the task branch (the user's; engine/update.py)."""
        from taskproto.engine import update as updating

        return updating.update(self, task_name(name), mode, agents, session, carry)

    def rollback(
        self,
        name: str,
        state: str | None = None,
        revision: int | None = None,
        session: str | None = None,
    ) -> tuple[Task, list[Approval]]:
        from taskproto.engine import rollback

        return rollback.rollback(self, task_name(name), state, revision, session)

    def acknowledge(self, name: str, session: str | None = None) -> Task:
        from taskproto.engine import rollback

        return rollback.acknowledge(self, task_name(name), session)

    def renew_heartbeat(self, session: str | None) -> list[str]:
        """After any command: renew `session`'s heartbeat on every task the command read that this
        session owns (the heartbeat file only; no task.json write, no journal, no network). Returns
        the tasks renewed. Never raises: a command's outcome does not depend on it."""
        if not session:
            return []
        from taskproto.state import light

        renewed, warnings = light.renew_heartbeats(
            self.config.layout, sorted(self.touched), session
        )
        self.warnings.extend(warnings)
        return renewed

    def sync(self) -> sync.SyncReport:
        from taskproto.engine import sync

        return sync.sync(self)

"""Moving a task: firing triggers, approvals, agent statuses, stale approvals. Each is one locked
change."""

from __future__ import annotations

import os

from taskproto.engine.core import Core
from taskproto.errors import TaskprotoError, TransitionRejected
from taskproto.machine.steps import FireContext
from taskproto.machine.workflow import Workflow, fire, transition_to
from taskproto.names import AgentName
from taskproto.state import store
from taskproto.state.models import (
    AgentState,
    AgentStatus,
    Approval,
    ApproverSeen,
    DiffStat,
    Task,
    utcnow,
)

# on every transition's path: no `typing` or `dataclasses` at run time
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    StepFn = Callable[["Step"], "tuple[Task, str]"]


class Step:
    """One locked change of a task by its workflow: what a step function may read and fire."""

    __slots__ = ("core", "task", "workflow", "session", "forced")

    def __init__(
        self, core: Core, task: Task, workflow: Workflow, session: str | None, forced: bool
    ) -> None:
        self.core = core
        self.task = task  # as loaded under the lock
        self.workflow, self.session, self.forced = workflow, session, forced

    def context(self, params: dict[str, Any] | None = None, note: str | None = None) -> FireContext:
        return self.core.context(self.task, self.session, self.forced, note, params)

    def fire(
        self,
        task: Task,
        trigger: str,
        params: dict[str, Any] | None = None,
        note: str | None = None,
    ) -> Task:
        by_user = [t for t in self.workflow.triggers_from(task.state) if t.trigger == trigger]
        if by_user and all(t.by == "user" for t in by_user):
            self.core.require_user(f"`{trigger}` in {task.state} (workflow {self.workflow.name})")
        return fire(self.workflow, task, trigger, self.context(params, note))

    def first(
        self,
        task: Task,
        triggers: Sequence[str],
        params: dict[str, Any] | None = None,
        note: str | None = None,
    ) -> Task:
        """Fire the first of `triggers` whose guards pass (workflows make their guards disjoint)."""
        rejected: TransitionRejected | None = None
        for trigger in triggers:
            try:
                return self.fire(task, trigger, params, note)
            except TransitionRejected as exc:
                rejected = rejected or exc
        assert rejected is not None
        raise rejected


def advance(
    core: Core,
    name: str,
    step: StepFn,
    session: str | None = None,
    force: bool = False,
    what: str = "move it",
) -> Task:
    """Run `step` as one locked, journaled change. The new state's prompt is kept for
    `core.last_prompt`; a repository's own template is rendered before the save, so a broken one
    refuses the change and leaves task.json as it was (engine/prompting.py)."""

    def change(task: Task) -> tuple[Task, str]:
        forced = core.check_mover(task, session, force, what)
        waiting = task.paused_by()
        if waiting is not None and core.actor.agent:
            raise TransitionRejected(
                task.name,
                task.state,
                "transition" if what == "move it" else what,  # `task 't1': transition refused`
                f"the user interrupted with a {waiting.type} "
                f"({waiting.time:%Y-%m-%d %H:%M:%S}Z) and the work waits until they say to go on; "
                f"answer and wait (the user resumes with `taskproto resume {task.name}`)",
            )
        workflow = core.workflow(task)
        if task.depends_on and task.state == workflow.initial:
            # a task that waits for others does not start, claimed or not (docs/ready.md)
            from taskproto.engine.deps import Blocked, Resolver

            waits = Resolver(core).waits_for(task)
            if waits and not force:
                raise Blocked(
                    task.name,
                    waits,
                    "start it when they are done (`taskproto ready` lists what can start), or "
                    "move it anyway with --force (the user's, logged)",
                )
            forced = forced or bool(waits)
            if not waits:
                from taskproto.engine.startpoint import catch_up

                task = catch_up(core, task, session)  # starts from the code it waited for
        if task.context.get("worktrees") == "at claim":  # an imported task starts: make them
            from taskproto.engine.imported import materialize

            task = materialize(core, task, session)
        new, message = step(Step(core, task, workflow, session, forced))
        core.prompts.keep(new)
        return new, message

    return core.mutate(name, change)


def fire_trigger(
    core: Core,
    name: str,
    trigger: str | None = None,
    target: str | None = None,
    session: str | None = None,
    force: bool = False,
    note: str | None = None,
    params: dict[str, Any] | None = None,
) -> Task:
    """Fire `trigger`, or the trigger that leads to state `target`."""

    def step(s: Step) -> tuple[Task, str]:
        trig = trigger or transition_to(s.workflow, s.task.name, s.task.state, str(target))
        new = s.fire(s.task, trig, params, note)
        return new, f"{trig}: {s.task.state} -> {new.state}"

    return advance(core, name, step, session, force)


def misplaced_approval(name: str, state: str, kind: str, wf: Workflow) -> str:
    """Why a `kind` approval is refused in `state`: where it is recorded instead (the one line
    of every door: the CLI, the board, the TUI)."""
    where = [s.name for s in wf.states if s.approval == kind]
    return (
        f"task {name!r} is in {state}; a {kind} approval is recorded in "
        f"{', '.join(where) or 'no state of this workflow'}"
    )


def approve(
    core: Core,
    name: str,
    kind: str,
    session: str | None,
    sha: str | None = None,
    seen: dict[str, object] | None = None,
) -> Task:
    """Record the user's plan or commit approval (what the guards read), with the approver's
    context `seen` that the door found (the CLI: its own process's; the board: its requester's;
    none through the Python API)."""

    core.require_user(f"approving the {kind} of task {name!r}")

    def change(task: Task) -> tuple[Task, str]:
        wf = core.workflow(task)
        if wf.state(task.state).approval != kind:
            raise TaskprotoError(misplaced_approval(name, task.state, kind, wf))
        now = utcnow()
        new = task.model_copy(deep=True)
        found = ApproverSeen.model_validate(seen) if seen is not None else None
        if kind == "plan":
            new.checkpoint.plan_approval = Approval(by=session, at=now, seen=found)
            detail = "plan"
        else:
            from taskproto.engine import diff

            target, stat = _approvable(core, task, sha)
            new.checkpoint.commit_approval = Approval(
                sha=target, by=session, at=now, diffstat=stat, seen=found
            )
            detail = f"commit {target[:12]} ({diff.stat_text(stat)})"
        new.record(
            trigger=f"approve_{kind}",
            time=now,
            session=session,
            kind="approval",
            note=detail,
        )
        return new, f"approve: {detail}"

    return core.mutate(name, change)


def _approvable(core: Core, task: Task, sha: str | None) -> tuple[str, DiffStat]:
    """The commit a commit approval may name: exactly the task branch's head, with nothing
    uncommitted beside it in the task worktree; and the diff stat the user approves."""
    from taskproto.engine import diff
    from taskproto.engine.merge import check_worktree

    name = task.name
    head = check_worktree(core, name, core.config.task_worktree(name), "approve a commit")
    if sha is not None:
        target = core.git.rev_parse(sha)
        if target is None:
            raise TaskprotoError(
                f"{sha!r} is not a commit; pass --commit alone to approve the head"
            )
        if target != head:
            raise TaskprotoError(
                f"{sha!r} ({target[:12]}) is not the head of branch {name} ({head[:12]}); an "
                f"approval is of the exact head: review `taskproto diff {name}` and run "
                f"`taskproto approve {name} --commit`"
            )
    return head, diff.branch_diff(core, task, head=head).stat()


def set_agent_status(
    core: Core,
    name: str,
    agent: AgentName,
    status: AgentState,
    message: str | None = None,
    session: str | None = None,
    force: bool = False,
    escalated: bool = False,
) -> AgentStatus:
    """Write the agent's status.json and journal it. task.json is not rewritten: an agent's status
    lives in its own file, and the journal commit holds both. `escalated` marks the supervisor's
    ERROR past the retry budget; it stays while the agent stays in ERROR."""
    with core.locked(name) as task:
        if agent not in task.required_agents:
            agents = ", ".join(task.required_agents) or "none"
            raise TaskprotoError(f"{agent!r} is not an agent of task {name!r} (agents: {agents})")
        if not own_agent_session(core, name, agent, session):
            core.check_mover(task, session, force, "update its agents")
        path = core.status_path(name, agent)
        try:
            current = store.load_status(path, move_aside=True)
        except FileNotFoundError:
            current = AgentStatus(agent=agent, updated_at=utcnow())
        updated = current.model_copy(
            update={
                "status": status,
                "updated_at": utcnow(),
                "error_message": message if status == AgentState.ERROR else None,
                "escalated": escalated or (current.escalated and status == AgentState.ERROR),
            }
        )
        os.makedirs(os.path.dirname(path), exist_ok=True)
        core.save(task, task, f"agent {agent}: {status.value}", files={path: store.dump(updated)})
    return updated


def own_agent_session(core: Core, name: str, agent: AgentName, session: str | None) -> bool:
    """Whether `session` is the one `taskproto agent start` ran `agent` of task `name` as (its
    run.json's: the id taskproto fixed, or the one its client's first hook named): that agent
    reports its own status, as the seeds' agents do, while another session owns the task."""
    from taskproto import plainjson as json

    if not session:
        return False
    try:
        # run.json lies beside status.json (ops/agent_records.py); no pathlib on this path
        with open(
            os.path.join(os.path.dirname(core.status_path(name, agent)), "run.json"), "rb"
        ) as fh:
            record = json.loads(fh.read())
    except (OSError, ValueError):
        return False
    if not isinstance(record, dict):
        return False
    return session in (record.get("session"), record.get("client_session"))


def agent_working(core: Core, name: str, agent: AgentName, session: str | None) -> bool:
    """The agent's own hooks saw it work: its status moves PENDING -> WORKING, journaled. Only
    from PENDING (WORKING, COMPLETE and ERROR stay as they are); no owner check: this is the one
    move an agent's hooks make, of its own status, as `agent set` would. Whether it moved."""
    with core.locked(name) as task:
        path = core.status_path(name, agent)
        if agent not in task.required_agents or not os.path.exists(path):
            return False
        current = store.load_status(path, move_aside=True)
        if current.status != AgentState.PENDING:
            return False
        updated = current.model_copy(update={"status": AgentState.WORKING, "updated_at": utcnow()})
        who = f" (session {session})" if session else ""
        message = f"agent {agent}: WORKING, seen by its hooks{who}"
        core.save(task, task, message, files={path: store.dump(updated)})
    return True


def mark_approval_stale(
    core: Core, name: str, reason: str, session: str | None = None, repair: str | None = None
) -> bool:
    """Mark the commit approval stale if the task branch no longer points at the approved commit.

    `repair` names the doctor check that asked (logged as a repair). Returns whether it changed
    anything (the approval may be current, or already stale).
    """
    changed: list[bool] = []

    def change(task: Task) -> tuple[Task, str] | None:
        approval = task.checkpoint.commit_approval
        head = core.branch_head(task.name)
        if approval is None or approval.sha is None or approval.stale or approval.sha == head:
            return None
        new = task.model_copy(deep=True)
        assert new.checkpoint.commit_approval is not None
        new.checkpoint.commit_approval.stale = True
        new.checkpoint.commit_approval.stale_reason = reason
        new.record(
            trigger=repair or "approval_stale",
            time=utcnow(),
            session=session,
            kind="repair" if repair else "approval",
            note=reason,
        )
        changed.append(True)
        return new, f"approval stale: {reason}"

    core.mutate(name, change)
    return bool(changed)

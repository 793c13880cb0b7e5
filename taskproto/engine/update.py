"""`taskproto update`: the base branch's new commits into a task branch (the user's).

The task worktree must be clean. The base is brought in with a merge commit (`merge`, the default)
or by replaying the task's commits onto it (`rebase`), as taskproto's own move (no commit hooks;
the commit approval is marked stale before the branch moves, so the git hooks have nothing to
write). On a conflict git's operation is aborted, so the worktree and the branch are as they were;
the conflict is journaled (`context["update"]`), the task goes back to its work state (the first
state of its workflow that allows commits and that it reached) and the owning agent gets it as a
revision naming the files and their conflicted hunks (state/review.py: its hooks' context and its
next `taskproto prompt` carry it).

A head that changes revokes the commit approval, and a task past its approval state goes back to
it, to be approved again; except with `carry` (`land --update`, the queue): when the approved
change is unchanged (`git patch-id --stable` of the task against the base, before and after), the
approval is carried to the new head, recorded as the user's who asked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from taskproto.engine.core import Core
from taskproto.engine.merge import check_worktree
from taskproto.errors import TaskprotoError
from taskproto.machine.workflow import Workflow
from taskproto.names import TaskName, agent_branch
from taskproto.state import review
from taskproto.state.models import Approval, LogEntry, Task, utcnow

Mode = Literal["merge", "rebase"]
MODES: tuple[Mode, ...] = ("merge", "rebase")
KEY = "update"  # task.context[KEY]: the latest update's facts


class UpdateConflict(TaskprotoError):
    """The base conflicts with the task branch: nothing was changed in the worktree; the conflict
    went back to the agent as a revision."""

    def __init__(self, task: str, base: str, files: list[str], state: str, where: str) -> None:
        self.task, self.base, self.files, self.state = task, base, files, state
        shown = ", ".join(files[:10]) + (f" and {len(files) - 10} more" if len(files) > 10 else "")
        super().__init__(
            f"updating {where} from {base} conflicts in {shown}: nothing was changed, the worktree "
            f"is as it was; task {task} is back in {state} with the conflict sent to its agent as "
            f"a revision (`taskproto prompt {task}`); once resolved there, approve it again"
        )


@dataclass
class UpdateReport:
    task: str
    base_branch: str
    base: str  # the base's head brought in
    mode: Mode
    head_before: str
    head: str
    result: Literal["updated", "up-to-date"]
    state: str
    approval: Literal["none", "kept", "carried", "revoked"]
    patch_id: str | None = None
    agents: dict[str, str] = field(default_factory=dict)  # agent -> updated | up-to-date

    def as_json(self) -> dict[str, object]:
        return dict(self.__dict__)


def work_state(wf: Workflow, task: Task) -> str:
    """Where a task goes back to work: its state when that allows commits, else the first state of
    its workflow that allows commits and that it reached."""
    if wf.state(task.state).allows_commits:
        return task.state
    for s in wf.states:
        if s.allows_commits and s.name in task.reached:
            return s.name
    return task.state


def approval_state(wf: Workflow, task: Task) -> str:
    """Where a task whose head changed is approved again: its state when it is before or at the
    commit approval, else the (last reached) state that records the commit approval."""
    names = [s.name for s in wf.states]
    asks = [s.name for s in wf.states if s.approval == "commit" and s.name in task.reached]
    if not asks or task.state not in names or wf.state(task.state).allows_commits:
        return task.state
    target = asks[-1]
    return target if names.index(task.state) > names.index(target) else task.state


def approved_patch_id(core: Core, task: Task, base_tip: str) -> str | None:
    """The patch-id of the change the user approved (the approved commit against the base), or
    None when no current approval is recorded."""
    approval = task.checkpoint.commit_approval
    if approval is None or approval.sha is None or approval.stale:
        return None
    return core.repo.patch_id(base_tip, approval.sha)


def base_tip(
    core: Core, name: str, base: str | None, no_base: str, no_branch: str
) -> tuple[str, str]:
    """The task's base branch and its head; refused, with `no_base` or `no_branch` (what to do;
    "" for nothing) appended, when none is recorded or the branch does not exist."""
    if not base:
        raise TaskprotoError(
            f"task {name!r} has no base branch recorded (it was created from a commit); {no_base}"
        )
    from taskproto.engine.basebranch import catch_up

    tip = catch_up(core, base)  # with a shared remote, the remote's head (fast-forwarded here)
    if tip is None:
        of, then = (f" of task {name!r}", "") if not no_branch else ("", f"; {no_branch}")
        raise TaskprotoError(f"base branch {base!r}{of} does not exist{then}")
    return base, tip


def update(
    core: Core,
    name: TaskName,
    mode: Mode = "merge",
    agents: bool = False,
    session: str | None = None,
    carry: bool = False,
) -> UpdateReport:
    """Bring the base's new commits into task `name` (see the module docstring)."""
    core.require_user(f"updating task {name!r}")
    if mode not in MODES:
        raise TaskprotoError(f"unknown update mode {mode!r}; use merge or rebase")
    with core.locked(name) as task:
        base, tip = base_tip(
            core, name, task.base_branch, "merge the commits it needs in its worktree yourself", ""
        )
        worktree = core.config.task_worktree(name)
        start = check_worktree(core, name, worktree, f"update task {name!r}")
        before_pid = approved_patch_id(core, task, tip) if carry else None
        report = UpdateReport(name, base, tip, mode, start, start, "up-to-date", task.state, "none")
        if task.checkpoint.commit_approval is not None:
            report.approval = "kept"
        if not core.repo.is_ancestor(tip, start):
            task = _stale_first(core, task, f"updating it from {base} ({tip[:12]})", session)
            message = f"Update task {name} from {base}\n\n{base} at {tip} (taskproto update)"
            files, hunks = core.repo.bring_in(worktree, tip, mode, message)
            if files:
                back = _conflict(core, task, base, tip, mode, files, hunks, session, name)
                raise UpdateConflict(name, base, files, back, f"task {name}")
            head = core.branch_head(name) or start
            report.head, report.result = head, "updated"
            task = _updated(core, task, report, before_pid, session)
            report.state = task.state
        if agents:
            report.agents = _agents(core, task, tip, mode, session)
    return report


def _stale_first(core: Core, task: Task, reason: str, session: str | None) -> Task:
    """Mark a live commit approval stale before the task branch moves (saved, journaled)."""
    approval = task.checkpoint.commit_approval
    if approval is None or approval.stale:
        return task
    new = task.model_copy(deep=True)
    new.record(trigger="approval_stale", time=utcnow(), session=session, kind="approval")
    new.transition_log[-1] = new.transition_log[-1].model_copy(update={"note": reason})
    assert new.checkpoint.commit_approval is not None
    new.checkpoint.commit_approval.stale = True
    new.checkpoint.commit_approval.stale_reason = reason
    return core.save(task, new, f"approval stale: {reason}")


def _move(task: Task, new: Task, to: str, trigger: str, session: str | None, note: str) -> None:
    """Log `trigger` on `new`: back to state `to` (a rollback-kind step) or a note where it is."""
    now = utcnow()
    if to == task.state:
        new.record(trigger=trigger, time=now, session=session, kind="merge", note=note)
        return
    new.state = to
    new.transition_log.append(
        LogEntry(
            from_state=task.state,
            to_state=to,
            trigger=trigger,
            time=now,
            session=session,
            kind="rollback",
            note=note,
        )
    )


def _revoke(new: Task, reason: str) -> None:
    approval = new.checkpoint.commit_approval
    if approval is None:
        return
    new.checkpoint.revoked.append(
        approval.model_copy(
            update={"kind": "commit", "revoked_at": utcnow(), "revoked_reason": reason}
        )
    )
    new.checkpoint.commit_approval = None


def _updated(
    core: Core, task: Task, report: UpdateReport, before_pid: str | None, session: str | None
) -> Task:
    """Journal a clean update: the approval carried (same change) or revoked."""
    wf = core.workflow(task)
    new = task.model_copy(deep=True)
    after_pid = core.repo.patch_id(report.base, report.head)
    report.patch_id = after_pid
    moved = f"{report.head_before[:12]} -> {report.head[:12]}"
    note = f"{report.base_branch} {report.base[:12]} brought in ({report.mode}): {moved}"
    to = task.state
    if before_pid is not None and before_pid == after_pid:
        old = task.checkpoint.commit_approval
        assert old is not None
        _revoke(new, f"carried to {report.head[:12]}: the same change (patch-id {after_pid})")
        from taskproto.engine.diff import branch_diff

        stat = branch_diff(core, new, head=report.head).stat()  # what it approves: the new head's
        new.checkpoint.commit_approval = Approval(
            sha=report.head, by=session, at=utcnow(), diffstat=stat, seen=old.seen
        )
        new.checkpoint.commit_sha = report.head
        report.approval = "carried"
        note += f"; the approval is carried (same patch-id {(after_pid or '')[:12]})"
    elif task.checkpoint.commit_approval is not None:
        _revoke(new, f"the head moved {moved} (update from {report.base_branch})")
        report.approval = "revoked"
        to = approval_state(wf, task)
        if to != task.state:
            new.checkpoint.commit_sha = report.head
        note += "; the commit approval is revoked: approve the new head"
    new.context[KEY] = {
        "time": utcnow().isoformat(),
        "base_branch": report.base_branch,
        "base": report.base,
        "mode": report.mode,
        "result": "updated",
        "head_before": report.head_before,
        "head": report.head,
        "patch_id": after_pid,
    }
    _move(task, new, to, "update", session, note)
    try:
        return core.save(task, new, f"update: {note}")
    except BaseException:  # unrecorded: the branch goes back where it was
        worktree = core.config.task_worktree(task.name)
        core.repo.run("reset", "--quiet", "--hard", report.head_before, cwd=worktree)
        raise


def conflict_text(base: str, tip: str, files: list[str], hunks: str, where: str) -> str:
    lines = [
        f"Bringing {base} ({tip[:12]}) into {where} conflicts in: {', '.join(files)}.",
        f"Merge {base} into your branch, resolve these files, commit, and hand it back.",
    ]
    if hunks:
        lines += ["The conflicted hunks:", "```diff", hunks.rstrip(), "```"]
    return "\n".join(lines)


def _conflict(
    core: Core,
    task: Task,
    base: str,
    tip: str,
    mode: Mode,
    files: list[str],
    hunks: str,
    session: str | None,
    where: str,
) -> str:
    """Journal the conflict and send it back to the agent as a revision, the task to its work
    state; returns that state."""
    head = core.branch_head(task.name)
    facts = {
        "base_branch": base,
        "base": tip,
        "mode": mode,
        "result": "conflict",
        "head_before": head,
        "head": head,
        "files": files,
    }
    note = f"{base} {tip[:12]} conflicts ({mode}) in {', '.join(files)}; sent back to the agent"
    message = conflict_text(base, tip, files, hunks, where)
    revoke = f"{base} conflicts with the approved change in {', '.join(files)}"
    return send_back(core, task, "update_conflict", message, note, revoke, facts, session)


def send_back(
    core: Core,
    task: Task,
    trigger: str,
    message: str,
    note: str,
    revoke: str,
    facts: Mapping[str, object],
    session: str | None,
    to_approval: bool = False,
) -> str:
    """Send task `task` (locked) back: its commit approval revoked (`revoke`: why), the task to
    its work state (or, with `to_approval`, to where it is approved again), `message` to its agent
    as a revision (state/review.py), `facts` kept as `context["update"]`; journaled with `note`.
    Returns the state it went to."""
    wf = core.workflow(task)
    new = task.model_copy(deep=True)
    to = approval_state(wf, task) if to_approval else work_state(wf, task)
    head = core.branch_head(task.name)
    if new.checkpoint.commit_approval is not None:
        _revoke(new, revoke)
    _move(task, new, to, trigger, session, note)
    now = utcnow().isoformat()
    new.context[KEY] = {"time": now, **facts, "trigger": trigger, "state": to}
    review.send(
        new,
        {
            "time": now,
            "by": session,
            "trigger": trigger,
            "from_state": task.state,
            "state": to,
            "head": head,
            "message": message,
            "log_index": task.log_offset + len(new.transition_log) - 1,
        },
    )
    core.save(task, new, f"{trigger}: {note}")
    return to


def _agents(core: Core, task: Task, tip: str, mode: Mode, session: str | None) -> dict[str, str]:
    """The base into each agent's branch, in its worktree; a conflict is sent back like the task's
    (naming the agent), after the agents before it were updated."""
    results: dict[str, str] = {}
    for agent in task.required_agents:
        branch = agent_branch(task.name, agent)
        worktree = core.config.agent_worktree(task.name, agent)
        head = check_worktree(core, branch, worktree, f"update {branch}")
        if core.repo.is_ancestor(tip, head):
            results[agent] = "up-to-date"
            continue
        message = f"Update {branch} from {task.base_branch}\n\n{tip} (taskproto update --agents)"
        files, hunks = core.repo.bring_in(worktree, tip, mode, message)
        if files:
            base = task.base_branch or tip
            back = _conflict(core, task, base, tip, mode, files, hunks, session, f"agent {agent}")
            raise UpdateConflict(task.name, base, files, back, f"agent {agent}'s branch {branch}")
        results[agent] = "updated"
    return results

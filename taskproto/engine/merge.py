"""`taskproto merge`: the agents' branches into the task branch, one agent at a time.

Each agent's branch is merged with a merge commit (`--no-ff`, so each agent's work stays visible)
in the task's own worktree, in the order of the task's required agents, and each result (the agent
commit merged, the merge commit, or the conflicting files) is saved in task.json and journaled
before the next agent. A conflict stops there: git's merge is aborted, so the worktree and the
branch are as they were before that agent, and the agents merged before it stay merged. The lock is
held throughout; a live commit approval is marked stale before the branch moves, so the git hooks
that watch the branch have nothing to write.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from taskproto.engine import moved
from taskproto.engine.core import Core
from taskproto.errors import MergeConflict, TaskprotoError
from taskproto.names import TaskName, agent_branch, agent_name
from taskproto.state.models import MergeRecord, Task, utcnow


@dataclass
class MergeReport:
    task: str
    head_before: str
    head: str
    results: list[MergeRecord] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        return {
            "task": self.task,
            "head_before": self.head_before,
            "head": self.head,
            "results": [r.model_dump(mode="json") for r in self.results],
        }


def chosen_agents(task: Task, agents: Sequence[str]) -> list[str]:
    """The agents to merge, in the task's own (stable) order whatever order they were named in."""
    wanted = {agent_name(a) for a in agents}
    unknown = sorted(wanted - set(task.required_agents))
    if unknown:
        listed = ", ".join(task.required_agents) or "none"
        names = ", ".join(map(repr, unknown))
        raise TaskprotoError(f"{names} is not an agent of task {task.name!r} (agents: {listed})")
    chosen = [a for a in task.required_agents if not wanted or a in wanted]
    if not chosen:
        raise TaskprotoError(f"task {task.name!r} has no agents to merge")
    return chosen


def check_worktree(core: Core, name: str, worktree: Path, what: str) -> str:
    """The task worktree must exist, have the task branch checked out and hold no uncommitted
    change; returns the branch's head."""
    if not worktree.is_dir():
        raise TaskprotoError(
            f"the worktree of task {name!r} ({worktree}) is missing; "
            "recreate it with `taskproto doctor --fix`"
        )
    moved.refuse(str(worktree), what)  # git would say only "not a git repository"
    branch = core.repo.run("rev-parse", "--abbrev-ref", "HEAD", cwd=worktree).strip()
    if branch != name:
        raise TaskprotoError(
            f"the worktree of task {name!r} has {branch!r} checked out, not branch {name!r}; "
            f"`git -C {worktree} switch {name}` first"
        )
    dirty = core.repo.changed_files(worktree)
    if dirty:
        shown = ", ".join(dirty[:10]) + (f" and {len(dirty) - 10} more" if len(dirty) > 10 else "")
        raise TaskprotoError(
            f"refusing to {what}: the task worktree {worktree} has uncommitted changes in {shown}; "
            "commit or stash them first"
        )
    head = core.branch_head(name)
    if head is None:
        raise TaskprotoError(f"branch {name!r} does not exist; run `taskproto doctor`")
    return head


def _logged(task: Task, trigger: str, session: str | None, note: str) -> Task:
    new = task.model_copy(deep=True)
    new.record(
        trigger=trigger,
        time=utcnow(),
        session=session,
        kind="merge",
        note=note,
    )
    return new


def merge_agents(
    core: Core,
    name: TaskName,
    agents: Sequence[str],
    session: str | None,
    force: bool = False,
) -> MergeReport:
    """Merge the agents' branches into the task branch (all agents when `agents` is empty).

    Raises MergeConflict at the first agent that conflicts, after saving what was merged before
    it and the conflict itself.
    """
    with core.locked(name) as task:
        wf = core.workflow(task)
        if not wf.state(task.state).allows_merge:
            where = ", ".join(s.name for s in wf.states if s.allows_merge) or "no state"
            raise TaskprotoError(
                f"task {name!r} is in {task.state}: merging agents is not allowed there "
                f"(workflow {wf.name} allows it in {where})"
            )
        core.check_mover(task, session, force, "merge its agents")
        chosen = chosen_agents(task, agents)
        worktree = core.config.task_worktree(name)
        start = check_worktree(core, name, worktree, f"merge into task {name!r}")
        heads: dict[str, str] = {}
        for agent in chosen:
            sha = core.branch_head(agent_branch(name, agent))
            if sha is None:
                raise TaskprotoError(
                    f"branch {agent_branch(name, agent)!r} of agent {agent} does not exist; "
                    "run `taskproto doctor`"
                )
            heads[agent] = sha
        report = MergeReport(name, start, start)
        current = _stale_first(core, task, name, heads, start, session)
        for agent in chosen:
            record, current = _merge_one(core, current, worktree, agent, heads[agent], session)
            report.results.append(record)
            report.head = core.branch_head(name) or report.head
            if record.result == "conflict":
                merged = [r.agent for r in report.results if r.result == "merged"]
                raise MergeConflict(name, agent, record.files, merged)
        return report


def _stale_first(
    core: Core, task: Task, name: str, heads: dict[str, str], start: str, session: str | None
) -> Task:
    """Mark a live commit approval stale before the task branch moves (saved, journaled)."""
    approval = task.checkpoint.commit_approval
    moving = [a for a, sha in heads.items() if not core.repo.is_ancestor(sha, start)]
    if approval is None or approval.stale or not moving:
        return task
    reason = f"merging agent(s) {', '.join(moving)} moves branch {name} from {start[:12]}"
    new = _logged(task, "approval_stale", session, reason)
    new.transition_log[-1] = new.transition_log[-1].model_copy(update={"kind": "approval"})
    assert new.checkpoint.commit_approval is not None
    new.checkpoint.commit_approval.stale = True
    new.checkpoint.commit_approval.stale_reason = reason
    return core.save(task, new, f"approval stale: {reason}")


def _merge_one(
    core: Core, task: Task, worktree: Path, agent: str, sha: str, session: str | None
) -> tuple[MergeRecord, Task]:
    name = task.name
    branch = agent_branch(name, agent)
    before = core.branch_head(name)
    assert before is not None
    now = utcnow()
    if core.repo.is_ancestor(sha, before):
        record = MergeRecord(agent=agent, commit=sha, result="up-to-date", at=now, session=session)
        last = next((r for r in reversed(task.merges) if r.agent == agent), None)
        if last is not None and last.commit == sha and last.result != "conflict":
            return record, task  # recorded already: nothing new to journal
    else:
        message = f"Merge agent {agent} into task {name}\n\n{branch} at {sha} (taskproto merge)"
        files = core.repo.merge(worktree, sha, message)
        if files:
            record = MergeRecord(
                agent=agent, commit=sha, result="conflict", files=files, at=now, session=session
            )
        else:
            record = MergeRecord(
                agent=agent,
                commit=sha,
                result="merged",
                merge_commit=core.branch_head(name),
                at=now,
                session=session,
            )
    detail = {
        "merged": f"{branch} {sha[:12]} merged as {(record.merge_commit or '?')[:12]}",
        "up-to-date": f"{branch} {sha[:12]} already in {name}",
        "conflict": f"{branch} {sha[:12]} conflicts in {', '.join(record.files)}; not merged",
    }[record.result]
    new = _logged(task, "merge", session, f"{agent}: {detail}")
    new.merges.append(record)
    try:
        saved = core.save(task, new, f"merge: {agent} {record.result}: {detail}")
    except BaseException:
        if record.result == "merged":  # unrecorded: take our merge commit back off the branch
            core.repo.run("reset", "--quiet", "--hard", before, cwd=worktree)
        raise
    return record, saved

"""What an agent resuming a task should do now, per state (the seed's session-interruption
recovery)."""

from __future__ import annotations

from taskproto.engine import Engine
from taskproto.state import review
from taskproto.state.models import Task


def _changes(engine: Engine, task: Task) -> str:
    """The diff stat of the task branch's head: what an approval would approve."""
    from taskproto.engine.diff import branch_diff, stat_text
    from taskproto.errors import TaskprotoError

    try:
        return f"Changes to approve: {stat_text(branch_diff(engine, task).stat())}."
    except TaskprotoError as exc:
        return f"Changes to approve: unknown ({exc})."


def resume_instructions(engine: Engine, task: Task) -> str:
    """A few lines for the agent: the task, its state, and how to go on from exactly there."""
    wf = engine.workflow(task)
    state = wf.state(task.state)
    lines = [f"=== RESUMING TASK: {task.name} (state {task.state}, workflow {task.workflow}) ==="]
    if task.description:
        lines.append(f"Task: {task.description}")
    if state.approval == "plan":
        if task.checkpoint.plan_approval is not None:
            lines.append(
                f"The plan is approved: proceed with `taskproto transition {task.name} "
                "IMPLEMENTATION`."
            )
        else:
            lines.append(
                "Waiting for plan approval: re-present the plan to the user. The user approves "
                "with "
                f"`taskproto approve {task.name} --plan` in their own terminal; do not run it "
                "yourself."
            )
    elif state.approval == "commit":
        sha = task.checkpoint.commit_sha or engine.branch_head(task.name) or "?"
        lines.append(
            f"Re-present the changes (commit {sha[:12]}) to the user for approval. The user "
            f"reviews `taskproto diff {task.name}` and approves with "
            f"`taskproto approve {task.name} --commit` in their own terminal; do not run it "
            "yourself."
        )
        lines.append(_changes(engine, task))
    elif state.resume:  # a task with no agents gets no words about them
        alone = not task.required_agents and state.resume_alone
        lines.append(state.resume_alone if alone else state.resume)
    if task.required_agents and not state.terminal:
        statuses = engine.agent_statuses(task)
        incomplete = {a: s for a, s in statuses.items() if s != "COMPLETE"}
        if incomplete:
            lines.append(
                "Agents still incomplete: " + ", ".join(f"{a} ({s})" for a, s in incomplete.items())
            )
        else:
            lines.append("All agents are COMPLETE.")
    if state.allows_edits:
        lines.append("Edits are allowed in this state, inside the task's worktrees only.")
    else:
        lines.append("Edits are not allowed in this state.")
    nxt = ", ".join(
        f"{t.dest} (`taskproto transition {task.name} {t.dest}`)"
        for t in wf.triggers_from(task.state)
    )
    if nxt:
        lines.append(f"Next steps the workflow allows: {nxt}.")
    feedback = review.context_text(task)
    if feedback:
        lines.append(feedback)
    return "\n".join(lines)


def user_instructions(engine: Engine, task: Task) -> str:
    """The same moment told to the user who resumed it: the commands that are theirs (`taskproto
    next`, an approval with the head it is of), never the agent's `transition`."""
    wf = engine.workflow(task)
    state = wf.state(task.state)
    name = task.name
    head = (engine.branch_head(name) or "")[:12]
    bound = f" --head {head}" if head else ""
    lines = []
    if state.approval == "plan" and task.checkpoint.plan_approval is None:
        lines.append(
            f"The plan waits for your approval: read it (`taskproto task show {name}`), then "
            f"`taskproto approve {name} --plan{bound}`."
        )
    elif state.approval == "commit" and not _approved(task, head):
        lines.append(
            f"The changes wait for your approval: review `taskproto diff {name}`, then "
            f"`taskproto approve {name} --commit {head or 'HEAD'}`."
        )
    if task.required_agents and not state.terminal:
        statuses = engine.agent_statuses(task)
        incomplete = {a: s for a, s in statuses.items() if s != "COMPLETE"}
        if incomplete:
            lines.append(
                "Agents not done yet: " + ", ".join(f"{a} ({s})" for a, s in incomplete.items())
            )
    if wf.triggers_from(task.state):
        lines.append(f"The workflow's next step, when it is due: `taskproto next {name}`.")
    else:
        lines.append(f"{task.state} is the end of workflow {task.workflow}.")
    return "\n".join(lines)


def _approved(task: Task, head: str) -> bool:
    approval = task.checkpoint.commit_approval
    if approval is None or not approval.sha or approval.stale:
        return False
    return bool(head) and approval.sha.startswith(head)

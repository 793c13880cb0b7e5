"""task-protocol: INIT → … → CLEANUP with the guards a real team needs."""

from __future__ import annotations

from taskproto.machine.steps import effect, guard

# Standard library only (machine/steps.py `LIGHT`): the models are imported by `definition()`.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from taskproto.machine.steps import FireContext
    from taskproto.machine.workflow import Workflow
    from taskproto.state.models import Task

COMPLETE = "COMPLETE"  # models.AgentState.COMPLETE (a StrEnum: equal to its value)

NAME = "task-protocol"


@guard("plan_approved")
def plan_approved(task: Task, ctx: FireContext) -> str | None:
    if task.checkpoint.plan_approval is None:
        return (
            "no plan approval is recorded; the user approves the plan with `taskproto approve "
            f"{task.name} --plan`"
        )
    return None


@guard("agents_complete")
def agents_complete(task: Task, ctx: FireContext) -> str | None:
    missing = [a for a in task.required_agents if ctx.agent_statuses.get(a) != COMPLETE]
    if missing:
        detail = ", ".join(f"{a} is {ctx.agent_statuses.get(a, 'missing')}" for a in missing)
        return (
            f"every required agent must be COMPLETE: {detail}; mark one done with `taskproto agent "
            f"set {task.name} {missing[0]} --status COMPLETE`, or wait with `taskproto agent wait "
            f"{task.name}`"
        )
    return None


@guard("commit_approved")
def commit_approved(task: Task, ctx: FireContext) -> str | None:
    approval = task.checkpoint.commit_approval
    hint = f"`taskproto approve {task.name} --commit`"
    if approval is None or approval.sha is None:
        return f"the user has not approved a commit; review the task branch and run {hint}"
    if ctx.branch_head is None:
        return f"task branch {task.name} does not exist; run `taskproto doctor`"
    if approval.sha != ctx.branch_head:
        return (
            f"the approval is stale: approved {approval.sha[:12]} but branch {task.name} is now at "
            f"{ctx.branch_head[:12]}; approve the new head with {hint}"
        )
    return None


@effect("clear_plan_approval")
def clear_plan_approval(task: Task, ctx: FireContext) -> None:
    task.checkpoint.plan_approval = None


@effect("clear_commit_approval")
def clear_commit_approval(task: Task, ctx: FireContext) -> None:
    task.checkpoint.commit_approval = None


@effect("present_head")
def present_head(task: Task, ctx: FireContext) -> None:
    task.checkpoint.commit_sha = ctx.branch_head


def definition() -> Workflow:
    from taskproto.machine.workflow import StateDef, Workflow
    from taskproto.machine.workflow import TransitionDef as _T

    states = [
        StateDef(
            name="INIT",
            description="Task created, not yet classified.",
            resume="Early state: classify the task and move on to CLASSIFIED.",
        ),
        StateDef(
            name="CLASSIFIED",
            resumable=True,
            description="Scope and required agents decided.",
            resume="Early state: gather requirements (move to REQUIREMENTS).",
        ),
        StateDef(
            name="REQUIREMENTS",
            resumable=True,
            description="Agents gather requirements.",
            resume="Check which requirement agents are still incomplete and re-invoke them.",
            resume_alone="Gather the requirements, then move on to SYNTHESIS.",
        ),
        StateDef(
            name="SYNTHESIS",
            description="Draft the implementation plan; wait for the user's plan approval.",
            checkpoint=True,
            approval="plan",
            resume="If the plan is approved, proceed to IMPLEMENTATION; otherwise re-present the "
            "plan to the user for approval.",
        ),
        StateDef(
            name="IMPLEMENTATION",
            resumable=True,
            allows_merge=True,
            description="Agents implement on their own branches.",
            allows_commits=True,
            allows_edits=True,
            resume="Check which agents are still incomplete and resume their implementation "
            "rounds.",
            resume_alone="Resume the implementation in the task's worktree.",
        ),
        StateDef(
            name="VALIDATION",
            resumable=True,
            allows_merge=True,
            description="Build and tests on the task branch.",
            allows_commits=True,
            allows_edits=True,
            resume="Re-run the validation checks (build and tests) from the start.",
        ),
        StateDef(
            name="REVIEW",
            resumable=True,
            description="Review agents decide.",
            resume="Check which review agents have decided and resume the incomplete reviews.",
            resume_alone="Resume the review of the task's changes.",
        ),
        StateDef(
            name="AWAITING_USER_APPROVAL",
            description="Wait for the user to approve the exact head commit.",
            checkpoint=True,
            approval="commit",
            resume="Re-present the changes (the presented commit) to the user for approval.",
        ),
        StateDef(
            name="COMPLETE",
            # approved, not landed: the tasks that wait for it start once it is on the base
            # (CLEANUP, after `taskproto land`), so they start from its code
            description="Approved; the user lands the approved commit on the base branch.",
            resume="Resume the completion procedure: the user lands the approved commit with "
            "`taskproto land`.",
        ),
        StateDef(
            name="CLEANUP",
            description="Remove worktrees and branches.",
            terminal=True,
            resume="Resume cleanup: `taskproto task remove` the task once its work is on the base "
            "branch (`taskproto land` does it when every commit is reachable from there).",
        ),
    ]

    transitions = [
        _T(trigger="classify", source=["INIT"], dest="CLASSIFIED"),
        _T(trigger="gather_requirements", source=["CLASSIFIED"], dest="REQUIREMENTS"),
        _T(trigger="synthesize", source=["REQUIREMENTS"], dest="SYNTHESIS"),
        _T(
            trigger="implement",
            source=["SYNTHESIS"],
            dest="IMPLEMENTATION",
            guards=["plan_approved"],
        ),
        _T(
            trigger="validate",
            source=["IMPLEMENTATION"],
            dest="VALIDATION",
            guards=["agents_complete"],
        ),
        _T(
            trigger="validation_failed",
            source=["VALIDATION"],
            dest="IMPLEMENTATION",
            description="Validation failed: back to implementation.",
        ),
        _T(trigger="review", source=["VALIDATION"], dest="REVIEW"),
        _T(
            trigger="reject_to_implementation",
            source=["REVIEW"],
            dest="IMPLEMENTATION",
            description="Review rejected the implementation.",
        ),
        _T(
            trigger="reject_to_synthesis",
            source=["REVIEW"],
            dest="SYNTHESIS",
            effects=["clear_plan_approval"],
            description="Review rejected the plan: it must be approved again.",
        ),
        _T(
            trigger="request_approval",
            source=["REVIEW"],
            dest="AWAITING_USER_APPROVAL",
            effects=["present_head"],
        ),
        _T(
            trigger="request_changes",
            source=["AWAITING_USER_APPROVAL"],
            dest="IMPLEMENTATION",
            effects=["clear_commit_approval"],
            description="The user asked for changes.",
        ),
        _T(
            trigger="complete",
            source=["AWAITING_USER_APPROVAL"],
            dest="COMPLETE",
            guards=["commit_approved"],
        ),
        # the user's: `taskproto land` fires it once the approved commit is on the base; firing it
        # alone abandons the task's work (nothing lands)
        _T(
            trigger="cleanup",
            source=["COMPLETE"],
            dest="CLEANUP",
            by="user",
            hint="taskproto land {task}",
        ),
    ]

    return Workflow(
        name=NAME,
        description="Multi-agent task protocol: plan approval, agent worktrees, validation, review "
        "and a user approval of the exact head commit.",
        initial="INIT",
        states=states,
        transitions=transitions,
        uses_agents=True,
    )

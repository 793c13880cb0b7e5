"""plan-task: CONTEXTUALIZE → … → VERIFIED, each work state submitting a validated artifact.

Accepted artifacts go to the task's context store (`Task.artifacts`);
revision feedback and the developer's answers live in `Task.context`
(`feedback_notes`, `answers`). Every guard and effect is pure: the artifact,
feedback and answers arrive in `FireContext.params`.
"""

from __future__ import annotations

from pydantic import ValidationError

from taskproto.machine.builtin.plan_artifacts import ARTIFACTS, field_errors
from taskproto.machine.steps import FireContext, effect, guard
from taskproto.machine.workflow import StateDef, TransitionDef, Workflow
from taskproto.state.models import Task

NAME = "plan-task"

# (work state, review state, the state after approval)
STAGES = [
    ("CONTEXTUALIZE", "REVIEW_CONTEXT", "STRATEGIZE"),
    ("STRATEGIZE", "REVIEW_STRATEGY", "DESIGN"),
    ("DESIGN", "REVIEW_DESIGN", "GENERATE_SLOTS"),
    ("GENERATE_SLOTS", "REVIEW_PLAN", "VERIFIED"),
]
WORK_OF_REVIEW = {review: work for work, review, _ in STAGES}


def unanswered(task: Task) -> list[int]:
    """1-based numbers of questions_for_developer that have no answer yet."""
    questions = (task.artifacts.get("context_artifact") or {}).get("questions_for_developer") or []
    answers = task.context.get("answers") or {}
    return [i for i in range(1, len(questions) + 1) if not str(answers.get(str(i), "")).strip()]


@guard("artifact_valid")
def artifact_valid(task: Task, ctx: FireContext) -> str | None:
    if task.state not in ARTIFACTS:
        return f"{task.state} takes no artifact"
    _, model = ARTIFACTS[task.state]
    artifact = ctx.params.get("artifact")
    if artifact is None:
        return (
            f"submit needs an artifact: `taskproto submit {task.name} --artifact FILE.json` "
            f"({model.__name__})"
        )
    try:
        model.model_validate(artifact)
    except ValidationError as exc:
        errors = field_errors(exc)
        detail = "\n".join(f"  {e}" for e in errors)
        return (
            f"the artifact is not a valid {model.__name__} ({len(errors)} error(s)); nothing "
            f"changed:\n{detail}"
        )
    return None


@guard("questions_answered")
def questions_answered(task: Task, ctx: FireContext) -> str | None:
    open_ = unanswered(task)
    if open_:
        nums = ", ".join(str(n) for n in open_)
        return (
            f"questions_for_developer {nums} unanswered; answer each with "
            f"`taskproto answer {task.name} N TEXT`"
        )
    return None


@guard("feedback_given")
def feedback_given(task: Task, ctx: FireContext) -> str | None:
    if not str(ctx.params.get("feedback") or "").strip():
        return f"a revision needs feedback: `taskproto revise {task.name} --feedback TEXT`"
    return None


@effect("store_artifact")
def store_artifact(task: Task, ctx: FireContext) -> None:
    key, model = ARTIFACTS[task.state]
    task.artifacts[key] = model.model_validate(ctx.params["artifact"]).model_dump(mode="json")
    if task.state == "CONTEXTUALIZE":
        task.context["answers"] = {}  # new questions: earlier answers no longer match their numbers


@effect("keep_feedback")
def keep_feedback(task: Task, ctx: FireContext) -> None:
    notes = task.context.setdefault("feedback_notes", [])
    notes.append(
        {
            "state": WORK_OF_REVIEW.get(task.state, task.state),
            "review": task.state,
            "text": str(ctx.params["feedback"]).strip(),
            "time": ctx.time.isoformat(),
            "session": ctx.session,
        }
    )


def _states() -> list[StateDef]:
    states: list[StateDef] = []
    for work, review, _ in STAGES:
        key, model = ARTIFACTS[work]
        states.append(
            StateDef(
                name=work,
                resumable=True,
                description=f"Produce the {model.__name__}; submit it with `taskproto submit`.",
                resume=f"Render the prompt (`taskproto prompt`) and submit a {model.__name__}.",
            )
        )
        states.append(
            StateDef(
                name=review,
                checkpoint=True,
                description=f"Review {key}: `taskproto approve` or `taskproto revise --feedback`.",
                resume=f"Present {key} to the user; approve it or request a revision with "
                "feedback.",
            )
        )
    states.append(
        StateDef(
            name="VERIFIED",
            terminal=True,
            description="The execution plan is verified.",
            resume="Planning is done: carry out the SLOTs of execution_plan_artifact.",
        )
    )
    return states


def _transitions() -> list[TransitionDef]:
    out: list[TransitionDef] = []
    for work, review, after in STAGES:
        out.append(
            TransitionDef(
                trigger="submit",
                source=[work],
                dest=review,
                guards=["artifact_valid"],
                effects=["store_artifact"],
            )
        )
        guards = ["questions_answered"] if review == "REVIEW_CONTEXT" else []
        out.append(
            TransitionDef(trigger="approve", source=[review], dest=after, guards=guards, by="user")
        )
        out.append(
            TransitionDef(
                trigger="request_revision",
                source=[review],
                dest=work,
                guards=["feedback_given"],
                effects=["keep_feedback"],
                description="Back to the work state; the feedback is kept for its prompt.",
                by="user",
            )
        )
    return out


def definition() -> Workflow:
    return Workflow(
        name=NAME,
        description="Plan a task in four reviewed stages: context, strategy, design, execution "
        "plan of SLOTs.",
        initial="CONTEXTUALIZE",
        states=_states(),
        transitions=_transitions(),
    )

"""MCP tools of the workflows with operations of their own: plan-task, tight-loop, phone-a-team.

Each tool is listed only when this taskproto has the library it calls (`taskproto.ops.plan_task`,
`taskproto.ops.tight_loop`, `taskproto.ops.phone_a_team`); without it the tool is absent, never a
stand-in. The input schemas are built from that library's own tables (artifact models, phases,
rubric).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal

from mcp.types import ToolAnnotations
from pydantic import Field

from taskproto.mcp.base import READ_ONLY, WRITES
from taskproto.mcp.models import PromptResult, WorkflowStep

if TYPE_CHECKING:
    from taskproto.mcp.base import Session


def has(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


def _inline(schema: dict[str, Any]) -> dict[str, Any]:
    """A model's JSON schema with its $refs inlined, so it can sit inside another schema."""
    defs = schema.pop("$defs", {})

    def walk(node: Any, depth: int) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                target = defs.get(ref.rsplit("/", 1)[1], {})
                return walk(target, depth + 1) if depth < 6 else {"type": "object"}
            return {k: walk(v, depth) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v, depth) for v in node]
        return node

    return dict(walk(schema, 0))


def _artifact_input() -> Any:
    if not has("taskproto.machine.builtin.plan_artifacts"):
        return dict[str, Any]
    from taskproto.machine.builtin.plan_artifacts import ARTIFACTS

    by_state = "; ".join(f"{state}: {model.__name__}" for state, (_, model) in ARTIFACTS.items())
    return Annotated[
        dict[str, Any],
        Field(
            description=f"The artifact of the task's current state ({by_state}). It is validated "
            "against that "
            "state's model; an invalid one is refused with every field error and changes nothing.",
            json_schema_extra={
                "anyOf": [_inline(model.model_json_schema()) for _, model in ARTIFACTS.values()]
            },
        ),
    ]


if TYPE_CHECKING:
    ArtifactInput = dict[str, Any]
else:
    ArtifactInput = _artifact_input()
Task = Annotated[
    str, Field(description="The task's name (see the `status` tool).", min_length=1, max_length=100)
]
Phase = Annotated[
    Literal["PLAN", "EXECUTE", "REVIEW", "FULL_AUTO"],
    Field(
        description="The phase that takes the turn (tight-loop: PLAN -> EXECUTE -> REVIEW -> PLAN, "
        "or FULL_AUTO "
        "to end the loop from REVIEW)."
    ),
]
Verdict = Annotated[Literal["pass", "fail"], Field(description="pass or fail")]


def tools(base: Session) -> list[tuple[str, Callable[..., Any], ToolAnnotations]]:
    found: list[tuple[str, Callable[..., Any], ToolAnnotations]] = []
    ops = WorkflowTools(base)
    if has("taskproto.ops.plan_task"):
        found += [
            ("prompt", ops.prompt, READ_ONLY),
            ("submit_artifact", ops.submit_artifact, WRITES),
        ]
    if has("taskproto.ops.tight_loop"):
        found.append(("handoff", ops.handoff, WRITES))
    if has("taskproto.ops.phone_a_team"):
        found.append(("round_decide", ops.round_decide, WRITES))
    return found


class WorkflowTools:
    def __init__(self, base: Session) -> None:
        self.base = base

    def prompt(self, task: Task) -> PromptResult:
        """The current state's prompt, rendered from the workflow's template with the task's context
        store."""
        from taskproto.ops import plan_task as planning

        engine = self.base.engine()
        text = planning.prompt(engine, task)
        loaded = engine.load(task)
        return PromptResult(task=task, workflow=loaded.workflow, state=loaded.state, prompt=text)

    def submit_artifact(self, task: Task, artifact: ArtifactInput) -> WorkflowStep:
        """plan-task: submit the current work state's artifact; on success the task moves to its
        review state.

        The artifact each state takes is described in the input schema. The result carries the next
        state's prompt.
        """
        from taskproto.ops import plan_task as planning

        session = self.base.need_session("submit_artifact")
        engine = self.base.engine()
        step = planning.submit(engine, task, artifact, session)
        return WorkflowStep.model_validate(
            {
                "task": task,
                "from": step.before,
                "to": step.task.state,
                "revision": step.task.revision,
                "prompt": step.prompt,
                "counters": step.task.counters.model_dump(),
                "warnings": engine.warnings,
            }
        )

    def handoff(
        self,
        task: Task,
        to: Phase,
        decision: Annotated[
            Literal["YES", "NO"],
            Field(
                description="The answer to the current phase's gate question (REVIEW: YES loops, "
                "NO ends the loop)."
            ),
        ],
        results: Annotated[
            Any,
            Field(
                description="What the next phase needs: the results only, never the "
                "earlier phase's questions."
            ),
        ] = None,
        from_phase: Annotated[
            Literal["PLAN", "EXECUTE", "REVIEW"] | None,
            Field(description="The phase handing off; refused unless it holds the turn."),
        ] = None,
    ) -> WorkflowStep:
        """tight-loop: end the current phase's turn and hand it to the next phase, with the decision
        and results."""
        from taskproto.ops import tight_loop as tightloop

        session = self.base.need_session("handoff")
        engine = self.base.engine()
        before = engine.load(task).state
        moved = tightloop.handoff(engine, task, to, decision, results, from_phase, session=session)
        return WorkflowStep.model_validate(
            {
                "task": task,
                "from": before,
                "to": moved.state,
                "revision": moved.revision,
                "counters": moved.counters.model_dump(),
                "prompt": engine.last_prompt,  # the handoff prompt the next phase starts from
                "warnings": engine.warnings,
            }
        )

    def round_decide(
        self,
        task: Task,
        acceptance: Verdict,
        risks: Verdict,
        validation: Annotated[
            Literal["pass", "documented", "fail"],
            Field(description="pass, documented (not done, with a documented reason) or fail"),
        ],
        note: Annotated[
            str | None, Field(description="Why; kept in the log.", max_length=2000)
        ] = None,
    ) -> WorkflowStep:
        """phone-a-team: decide the round from the rubric: converge (all pass), next round, or
        forced stop."""
        from taskproto.machine.builtin.phone_a_team import parse_rubric
        from taskproto.ops import phone_a_team as team

        session = self.base.need_session("round_decide")
        engine = self.base.engine()
        rubric = parse_rubric(f"acceptance={acceptance},risks={risks},validation={validation}")
        before = engine.load(task)
        moved = team.decide(engine, task, rubric, note, session=session)
        return WorkflowStep.model_validate(
            {
                "task": task,
                "from": before.state,
                "to": moved.state,
                "revision": moved.revision,
                "counters": moved.counters.model_dump(),
                "trigger": moved.transition_log[-1].trigger,
                "warnings": engine.warnings,
            }
        )

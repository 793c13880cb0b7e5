"""Record a user's interruption on a task without ever changing its state.

Only a RESUMPTION returns to the work, from the state the task was in before the
first interruption (which is simply its state: nothing here moves it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from taskproto.classify.interruptions import (
    DEFAULT_RULES,
    Classification,
    Rule,
    classify,
    is_approval_like,
)
from taskproto.classify.rule_merge import merge_rules
from taskproto.config import Config
from taskproto.engine import Engine
from taskproto.errors import ConfigError, TaskprotoError
from taskproto.state import review
from taskproto.state.models import Interruption, Task, utcnow

# `taskproto resume` is the user's explicit go: recorded as a resumption whatever the words.
RESUME_RULE = Rule("explicit-resume", "RESUMPTION", r".", 1.0)
MAX_TEXT = 300  # how much of the message the log keeps, for context


class NothingToResume(TaskprotoError):
    """`taskproto resume` (or the board's, the TUI's) on a task with no open interruption or
    escalation: nothing was written."""


def waits_for_resume(task: Task) -> bool:
    """Whether the user's go has something to answer: the work waits on the user's interruption,
    or an escalation is open. The one rule of `taskproto resume`, the board's and the TUI's."""
    return task.paused_by() is not None or bool(task.escalations)


def nothing_to_resume(name: str) -> NothingToResume:
    return NothingToResume(
        f"task {name!r} has no open interruption or escalation to resume from: its work goes on "
        f"as it is (`taskproto next {name}` when the step is due)"
    )


def configured_rules(config: Config) -> Sequence[Rule]:
    """The classifier's rules with the user's `[[interrupt.rules]]` applied."""
    section = config.raw.get("interrupt", {})
    overrides = section.get("rules", []) if isinstance(section, dict) else []
    if not overrides:
        return DEFAULT_RULES
    if not isinstance(overrides, list) or not all(isinstance(o, dict) for o in overrides):
        raise ConfigError("interrupt.rules must be a list of tables ([[interrupt.rules]])")
    try:
        return merge_rules(DEFAULT_RULES, overrides)
    except ValueError as exc:
        raise ConfigError(f"config: {exc}") from None


def _storable(text: str) -> str:
    """JSON cannot hold lone surrogates (from undecodable bytes): replace them."""
    return text.encode("utf-8", "replace").decode("utf-8")


@dataclass(frozen=True)
class Recorded:
    task: Task
    classification: Classification
    preserved_state: str
    approval_like: bool  # at a checkpoint: the user seems to approve; ask them to record it
    resume: str | None  # resume instructions, on a resumption

    def to_dict(self) -> dict[str, Any]:
        return {
            "task": self.task.name,
            **self.classification.to_dict(),
            "state": self.preserved_state,
            "state_unchanged": True,
            "approval_like": self.approval_like,
            "resume": self.resume,
            "interruptions": len(self.task.interruptions),
        }


def record(
    engine: Engine,
    name: str,
    text: str,
    session: str | None = None,
    rules: Sequence[Rule] | None = None,
    only_if_waiting: bool = False,
) -> Recorded:
    """Classify `text`, append it to the task's interruption log, and prove the state did not
    move. `only_if_waiting`: refused (nothing written) when nothing waits for a resumption."""
    result = classify(text, rules if rules is not None else configured_rules(engine.config))
    preserved: list[str] = []

    def change(task: Task) -> tuple[Task, str]:
        if engine.actor.agent and (task.owner is None or task.owner.session != session):
            # an agent speaks for the user only on its own task, where the hooks record its
            # client's prompts; another task's log is not its to write (#39)
            engine.require_user(
                f"recording an interruption on task {name!r}, which this session "
                f"({session or 'none'}) does not own,"
            )
        waiting = waits_for_resume(task)
        if only_if_waiting and not waiting:
            raise nothing_to_resume(name)
        preserved.append(task.state)
        resumed = result.type == "RESUMPTION"
        if resumed and waiting:
            engine.require_user(f"resuming task {name!r} (the user says when the work goes on)")
        new = task.model_copy(deep=True)
        now = utcnow()
        new.interruptions.append(
            Interruption(
                type=result.type,
                time=now,
                state=task.state,
                rule=result.rule,
                session=session,
                text=_storable(text[:MAX_TEXT]) if text else None,
            )
        )
        message = f"interrupt: {result.type} in {task.state}"
        if resumed and task.escalations:  # the user's go answers what was escalated to them
            reasons = ", ".join(e.reason for e in task.escalations)
            new.escalations = []
            new.record(
                trigger="resolve",
                time=now,
                session=session,
                kind="note",
                note=f"the user resumed the task: escalation resolved ({reasons})",
            )
            message += f"; escalation resolved ({reasons})"
        return new, message

    after = engine.mutate(name, change)
    state = preserved[0]
    if (
        after.state != state
    ):  # the seed's CRITICAL check: nothing may move a task while it is interrupted
        raise TaskprotoError(
            f"CRITICAL: the state of task {name!r} changed from {state} to {after.state} while an "
            "interruption "
            "was handled; this violates state preservation: run `taskproto doctor` and `taskproto "
            "log`"
        )
    checkpoint = engine.workflow(after).state(state).checkpoint
    approval_like = checkpoint and is_approval_like(text)
    resume = None
    if result.type == "RESUMPTION":
        from taskproto.engine.resume import resume_instructions

        resume = resume_instructions(engine, after)
    return Recorded(after, result, state, approval_like, resume)


def context_message(rec: Recorded) -> str:
    """What the agent is told after the interruption is recorded."""
    name, state = rec.task.name, rec.preserved_state
    if rec.classification.type == "RESUMPTION" and rec.resume:
        text = f"taskproto: the user asked to resume task {name}.\n{rec.resume}"
    else:
        text = (
            f"taskproto: this message was recorded as an interruption ({rec.classification.type}) "
            "of task "
            f"{name}. The task's state stays {state}: answer it, then wait for the user to say to "
            "continue; "
            "do not resume the work or change the state on your own."
        )
    feedback = review.context_text(rec.task)
    if feedback and rec.classification.type != "RESUMPTION":
        text += "\n" + feedback  # on a resumption, the resume instructions carry it
    if rec.approval_like:
        kind = rec.task.checkpoint
        what = (
            "--plan"
            if kind.plan_approval is None and state != "AWAITING_USER_APPROVAL"
            else "--commit"
        )
        text += (
            "\nThe message reads like an approval. Approvals are recorded only by the user: ask "
            "them to run "
            f"`taskproto approve {name} {what}` in their own terminal."
        )
    return text


def user_message(engine: Engine, rec: Recorded) -> str:
    """What the user who recorded the interruption (`taskproto interrupt record` in their own
    terminal) is told: the state it waits in and their commands; `context_message` is the
    agent's."""
    name, state = rec.task.name, rec.preserved_state
    if rec.classification.type == "RESUMPTION":
        from taskproto.engine.resume import user_instructions

        return user_instructions(engine, rec.task)
    text = (
        f"The task waits in {state}: its agent answers and does not go on. When the work may "
        f"go on: `taskproto resume {name}`."
    )
    if rec.approval_like:
        what = (
            "--plan"
            if rec.task.checkpoint.plan_approval is None and state != "AWAITING_USER_APPROVAL"
            else "--commit"
        )
        text += (
            "\nIt reads like an approval, which only its command records: "
            f"`taskproto approve {name} {what}`."
        )
    return text


def resume(engine: Engine, name: str, session: str | None = None) -> Recorded:
    """The user says to go on: a resumption recorded in their words, whatever the classifier
    says; refused when nothing waits for it (`waits_for_resume`)."""
    engine.require_user(f"resuming task {name!r}")
    text = "continue (the user resumed the task with `taskproto resume`)"
    return record(engine, name, text, session, rules=[RESUME_RULE], only_if_waiting=True)

"""plan-task's operations: submit an artifact, approve, request a revision, answer, render the
prompt.

Each is one locked engine change. The transition, the artifact and the next
state's prompt are one unit: the prompt is rendered before task.json is saved,
and if rendering or saving fails, neither the state nor the context store moves
(a refused or failed change never reaches the disk; the save itself is atomic).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taskproto import plainjson as json
from taskproto.engine import Engine
from taskproto.errors import TaskprotoError, ValidationFailed, WriteFailed
from taskproto.machine import prompts
from taskproto.machine.builtin.plan_task import NAME
from taskproto.state.models import Task, utcnow


@dataclass
class Step:
    task: Task
    before: str
    prompt: str | None


def read_artifact(path: Path) -> Any:
    """The JSON in `path`, or ValidationFailed saying why it is not JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValidationFailed(f"{path}: no such file; pass --artifact FILE.json") from None
    except (
        ValueError,
        RecursionError,
    ) as exc:  # bad JSON or UTF-8, nesting or an integer past the limits
        raise ValidationFailed(
            f"{path} is not valid JSON ({exc or type(exc).__name__}); nothing changed"
        ) from None


def _fire(
    engine: Engine,
    name: str,
    trigger: str,
    session: str | None,
    params: dict[str, Any],
    note: str | None = None,
    force: bool = False,
) -> Step:
    before = engine.load(name).state
    try:
        task = engine.fire(
            name, trigger=trigger, session=session, params=params, note=note, force=force
        )
    except WriteFailed as exc:
        # The atomic save failed (disk full, file-size limit, I/O error): task.json is as it was.
        raise TaskprotoError(
            f"task {name!r}: saving task.json failed ({exc.reason}); nothing was changed"
        ) from None
    return Step(task, before, engine.last_prompt)


def submit(
    engine: Engine, name: str, artifact: Any, session: str | None = None, force: bool = False
) -> Step:
    """Fire `submit` with `artifact`; the guard validates it against the current state's model."""
    return _fire(engine, name, "submit", session, {"artifact": artifact}, force=force)


def approve(engine: Engine, name: str, session: str | None = None, force: bool = False) -> Step:
    """Fire the workflow's `approve` trigger (any workflow that has one). A workflow with none
    (task-protocol) is refused naming the flags that approve there."""
    wf = engine.workflow(engine.load(name))
    if not any(t.trigger == "approve" for t in wf.transitions):
        raise TaskprotoError(
            f"task {name!r}: workflow {wf.name} has no `approve` trigger; approve its plan with "
            f"`taskproto approve {name} --plan`, or its head with `taskproto approve {name} "
            "--commit`"
        )
    return _fire(engine, name, "approve", session, {}, force=force)


def revise(
    engine: Engine, name: str, feedback: str, session: str | None = None, force: bool = False
) -> Step:
    """Fire `request_revision`; the feedback is kept for the work state's next prompt."""
    return _fire(
        engine,
        name,
        "request_revision",
        session,
        {"feedback": feedback},
        note=feedback.strip()[:200] or None,
        force=force,
    )


def answer(
    engine: Engine,
    name: str,
    number: int,
    text: str,
    session: str | None = None,
    force: bool = False,
) -> Task:
    """Record the answer to question `number` (1-based) of questions_for_developer: the
    developer's (the user's), never an agent's."""
    if not text.strip():
        raise TaskprotoError("an answer cannot be empty")
    engine.require_user(f"answering the developer's question {number} of task {name!r}")

    def change(task: Task) -> tuple[Task, str]:
        if task.state != "REVIEW_CONTEXT":
            raise TaskprotoError(
                f"task {name!r} is in {task.state}; questions_for_developer are answered in "
                "REVIEW_CONTEXT"
                f" of a {NAME} task"
            )
        engine.check_mover(task, session, force, "answer its questions")
        questions = task.artifacts.get("context_artifact", {}).get("questions_for_developer") or []
        if not 1 <= number <= len(questions):
            raise TaskprotoError(
                f"task {name!r} has {len(questions)} question(s); {number} is not one of them "
                f"(see `taskproto prompt {name}`)"
            )
        new = task.model_copy(deep=True)
        new.context.setdefault("answers", {})[str(number)] = text.strip()
        new.record(
            trigger="answer",
            time=utcnow(),
            session=session,
            kind="note",
            note=f"question {number}: {text.strip()[:200]}",
        )
        return new, f"answer: question {number}"

    return engine.mutate(name, change)


def prompt(engine: Engine, name: str) -> str:
    """The current state's prompt (raises when the workflow has no template for it and no revision
    is pending: then the revision is the prompt)."""
    from taskproto.state import review

    task = engine.load(name)
    text = prompts.render(engine.config, task)
    if text is None and review.context_text(task):
        return review.context_text(task) + "\n"
    if text is None:
        raise TaskprotoError(
            f"workflow {task.workflow} has no prompt template for {task.state} "
            f"(looked in {engine.config.root / 'templates' / task.workflow} and the package)"
        )
    return text


def plan_markdown(engine: Engine, task: Task) -> str:
    """The plan a person reads: every accepted artifact as Markdown (`plan.md.j2`, overridable).

    For `task show` and the board; the same macros render the artifacts in the prompts.
    """
    if task.workflow != NAME:
        raise TaskprotoError(f"task {task.name!r} is a {task.workflow} task, not {NAME}")
    return prompts.render_named(engine.config, NAME, "plan.md.j2", prompts.scope(task))

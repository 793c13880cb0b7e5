"""`taskproto submit|revise|answer|prompt` (plan-task; `approve` without flags is in flow.py)."""

from __future__ import annotations

from pathlib import Path

import click

from taskproto.cli.common import AppState, emit, flush_warnings, json_option, pass_state

force_option = click.option(
    "--force", is_flag=True, help="Act on a task owned by another live session (logged)."
)


@click.command("submit")
@click.argument("name")
@click.option(
    "--artifact",
    "artifact",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The work state's artifact as a JSON file.",
)
@force_option
@json_option
@pass_state
def submit(state: AppState, name: str, artifact: Path, force: bool, as_json: bool) -> None:
    """Submit the current work state's artifact; it is validated against the state's model.

    An invalid artifact is refused with pydantic's field-level errors and
    changes nothing. An accepted one goes to the context store and the task
    moves to the review state.
    """
    from taskproto.ops import plan_task as planning

    step = planning.submit(
        state.engine, name, planning.read_artifact(artifact.absolute()), state.session_id(), force
    )
    flush_warnings(state)
    emit(
        as_json,
        {
            "task": name,
            "from": step.before,
            "to": step.task.state,
            "revision": step.task.revision,
            "prompt": step.prompt,
        },
        lambda: click.echo(
            f"{name}: {step.before} -> {step.task.state}; next prompt: `taskproto prompt {name}`"
        ),
    )


@click.command("revise")
@click.argument("name")
@click.option(
    "--feedback", required=True, help="What to change; kept for the work state's next prompt."
)
@force_option
@json_option
@pass_state
def revise(state: AppState, name: str, feedback: str, force: bool, as_json: bool) -> None:
    """Request a revision: a review state goes back to its work state, keeping the feedback."""
    from taskproto.ops import plan_task as planning

    step = planning.revise(state.engine, name, feedback, state.session_id(), force)
    flush_warnings(state)
    emit(
        as_json,
        {"task": name, "from": step.before, "to": step.task.state, "revision": step.task.revision},
        lambda: click.echo(f"{name}: {step.before} -> {step.task.state} (feedback kept)"),
    )


@click.command("answer")
@click.argument("name")
@click.argument("number", type=int)
@click.argument("text")
@force_option
@json_option
@pass_state
def answer(state: AppState, name: str, number: int, text: str, force: bool, as_json: bool) -> None:
    """Answer question NUMBER (1-based) of the context analysis's questions_for_developer (the
    developer's answer: refused to an agent)."""
    from taskproto.machine.builtin.plan_task import unanswered
    from taskproto.ops import plan_task as planning

    task = planning.answer(state.engine, name, number, text, state.session_id(), force)
    flush_warnings(state)
    left = unanswered(task)
    emit(
        as_json,
        {"task": name, "question": number, "unanswered": left},
        lambda: click.echo(
            f"{name}: question {number} answered; "
            + (f"still unanswered: {', '.join(map(str, left))}" if left else "all answered")
        ),
    )


@click.command("prompt")
@click.argument("name")
@json_option
@pass_state
def prompt(state: AppState, name: str, as_json: bool) -> None:
    """Render the current state's prompt from its template (with the context store and feedback)."""
    from taskproto.ops import plan_task as planning

    text = planning.prompt(state.engine, name)
    emit(as_json, {"task": name, "prompt": text}, lambda: click.echo(text, nl=False))


COMMANDS = [submit, revise, answer, prompt]

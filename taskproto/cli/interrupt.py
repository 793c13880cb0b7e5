"""`taskproto interrupt classify|record`."""

from __future__ import annotations

import sys

import click

from taskproto import plainjson as json
from taskproto.cli.common import AppState, emit, flush_warnings, json_option, pass_state
from taskproto.errors import TaskprotoError


@click.group("interrupt")
def interrupt_group() -> None:
    """Classify and record what the user says while a task is under way."""


@interrupt_group.command("classify")
@click.argument("text")
@json_option
@pass_state
def classify_cmd(state: AppState, text: str, as_json: bool) -> None:
    """Print RESUMPTION, AUDIT, QUESTION, STATUS_REQUEST or OTHER for TEXT.

    TEXT of '-' reads one message per line from stdin and answers one line
    (or one JSON object) per message, in order.
    """
    from taskproto.classify.interruptions import DEFAULT_RULES, classify

    rules = DEFAULT_RULES
    try:
        from taskproto.ops.interrupts import configured_rules

        rules = configured_rules(state.engine.config)  # type: ignore[assignment]
    except Exception:  # noqa: BLE001 - outside a repository the default rules apply
        rules = DEFAULT_RULES
    if text == "-":
        stdin = sys.stdin.buffer.read().decode("utf-8", "replace")
        messages = stdin.splitlines()
    else:
        messages = [text]
    out = []
    for message in messages:
        result = classify(message, rules)
        out.append(json.dumps(result.to_dict()) if as_json else result.type)
    if out:
        click.echo("\n".join(out))


@interrupt_group.command("record")
@click.argument("name")
@click.argument("text")
@json_option
@pass_state
def record_cmd(state: AppState, name: str, text: str, as_json: bool) -> None:
    """Classify TEXT, append it to task NAME's interruption log, and keep the state where it was.

    Run by you: the state the task waits in and your commands (`taskproto resume`, an
    approval, `taskproto next`). Run by an agent: the agent's instructions (on a resumption,
    the resume instructions for the preserved state).
    TEXT of '-' reads the message from stdin. An agent records only on its own session's task.
    """
    from taskproto.ops.interrupts import context_message, record, user_message

    if text == "-":
        text = sys.stdin.buffer.read().decode("utf-8", "replace")
    if not text.strip():  # the client hooks skip an empty prompt too: it would pause on nothing
        raise TaskprotoError(
            f"the message is empty: nothing was recorded on task {name!r}; pass the user's "
            "words as TEXT (or '-' to read them from stdin)"
        )
    engine = state.engine
    rec = record(engine, name, text, state.session_id())
    flush_warnings(state)
    # an agent reads the agent's instructions; a person, what waits and the person's commands
    told = context_message(rec) if engine.actor.agent else user_message(engine, rec)
    emit(
        as_json,
        rec.to_dict(),
        lambda: click.echo(
            f"{rec.classification.type} recorded on {name}; state remains {rec.preserved_state}\n"
            + told
        ),
    )


@click.command("resume")
@click.argument("name")
@json_option
@pass_state
def resume_cmd(state: AppState, name: str, as_json: bool) -> None:
    """The user says to go on: record a resumption on task NAME (the user's command).

    After a question or any other interruption in a working state, the agent's edits and
    transitions wait until the user says to continue: in the chat (the client's hook records
    it), or with this command. An escalation (`taskproto escalate`) stays open, and the task out
    of `ready`, until the user resumes it so. It prints what waits for you in the task's state
    and your next command (`taskproto next`, an approval); --json carries the agent's resume
    instructions too. With no open interruption or escalation there is nothing to resume: it is
    refused and nothing is recorded.
    """
    from taskproto.engine.resume import user_instructions
    from taskproto.ops.interrupts import resume

    rec = resume(state.engine, name, state.session_id())
    flush_warnings(state)
    told = user_instructions(state.engine, rec.task)  # the agent's instructions are in `resume`
    emit(
        as_json,
        rec.to_dict(),
        lambda: click.echo(f"{name}: resumed in {rec.preserved_state}\n{told}"),
    )


COMMANDS = [interrupt_group, resume_cmd]

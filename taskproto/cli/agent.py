"""`taskproto agent set`: an agent's status on a task."""

from __future__ import annotations

import click

from taskproto.cli.common import AppState, emit, flush_warnings, json_option, pass_state

TYPE_CHECKING = False
if TYPE_CHECKING:
    from taskproto.engine import Engine


@click.group("agent")
def agent_group() -> None:
    """Agent status (PENDING, WORKING, COMPLETE, ERROR) and waiting for it; running the agents
    themselves: start, ps, stop, pause, resume, logs, attach, say."""


@agent_group.command("set")
@click.argument("name")
@click.argument("agent")
@click.option(
    "--status",
    "status",
    required=True,
    type=click.Choice(
        ["PENDING", "WORKING", "IN_PROGRESS", "COMPLETE", "ERROR"], case_sensitive=False
    ),
    help="IN_PROGRESS is read as WORKING.",
)
@click.option("--message", help="Error message (kept with ERROR).")
@click.option(
    "--force", is_flag=True, help="Update an agent of a task owned by another live session."
)
@json_option
@pass_state
def agent_set(
    state: AppState,
    name: str,
    agent: str,
    status: str,
    message: str | None,
    force: bool,
    as_json: bool,
) -> None:
    """Set AGENT's status on task NAME."""
    from taskproto.state.models import AgentState

    result = state.engine.set_agent_status(
        name,
        agent,
        AgentState("WORKING" if status.upper() == "IN_PROGRESS" else status.upper()),
        message,
        state.session_id(),
        force,
    )
    flush_warnings(state)
    from taskproto.cli.render import agent_set_lines

    lines = agent_set_lines(name, agent, result.status.value, message)
    emit(as_json, result.model_dump(mode="json"), lambda: click.echo("\n".join(lines)))


@agent_group.command("wait")
@click.argument("name")
@click.option(
    "--timeout",
    type=click.FloatRange(min=0),
    default=None,
    help="Give up after this many seconds (default: wait until every agent has finished).",
)
@click.option(
    "--interval",
    type=click.FloatRange(min=0.05),
    default=1.0,
    show_default=True,
    help="Seconds between two looks at the status files.",
)
@json_option
@pass_state
def agent_wait(
    state: AppState, name: str, timeout: float | None, interval: float, as_json: bool
) -> None:
    """Wait until every required agent of task NAME is COMPLETE.

    Exit 0 when they all are; 1 as soon as one is in ERROR or timed out (WORKING for longer than
    agent_timeout_minutes), as soon as one `agent start` ran ended for good without saying it
    was done, or when --timeout passes first. Prints procedure 2's summary:
    complete, error, timeout and missing counts; when --timeout passes first, only the one line
    that says so and which agents are not COMPLETE.
    """
    import time

    from taskproto.doctor.recover import agent_counts
    from taskproto.errors import TaskprotoError

    engine = state.engine
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        task = engine.load(name)
        counts = agent_counts(engine, task)
        done = len(counts.complete) == counts.total
        failed = counts.error or counts.timeout
        late = deadline is not None and time.monotonic() >= deadline
        if done or failed or late:
            break
        unfinished = {a: "PENDING" for a in counts.pending}
        _ended_unfinished(engine, name, unfinished | {a: "WORKING" for a in counts.working})
        time.sleep(interval)
    if not (done or failed):  # --timeout passed: one line, and no summary that reads otherwise
        status = {a: "PENDING" for a in counts.pending}
        status.update({a: "WORKING" for a in counts.working})
        status.update({a: "no status file" for a in counts.missing})
        waiting = ", ".join(f"{a} ({status[a]})" for a in task.required_agents if a in status)
        raise TaskprotoError(
            f"timed out after {timeout:g}s: agent(s) {waiting} of task {name} not COMPLETE; run "
            f"`taskproto agent wait {name}` again, or `taskproto recover {name}`"
        )
    emit(
        as_json, {"task": name, **counts.as_json(), "done": done}, lambda: click.echo(counts.line())
    )
    if failed:
        which = ", ".join(counts.error + counts.timeout)
        raise TaskprotoError(
            f"agent(s) {which} of task {name} failed or timed out; run `taskproto recover {name}` "
            "to re-queue them within their retries"
        )


def _ended_unfinished(engine: Engine, name: str, unfinished: dict[str, str]) -> None:
    """Refuse to wait on for an agent `agent start` ran whose client ended for good (exited, or
    escalated past its retries) without saying it was done: nothing would ever say so."""
    from taskproto.errors import TaskprotoError
    from taskproto.ops import agent_records as records

    ended = {}
    for agent, status in unfinished.items():
        record = records.read(engine.config, name, agent)
        if record and record.get("state") in (records.EXITED, records.ESCALATED):
            ended[agent] = (status, str(record["state"]))
    if ended:
        which = ", ".join(f"{a} ({status})" for a, (status, _) in ended.items())
        states = "/".join(sorted({state for _, state in ended.values()}))
        one = next(iter(ended)) if len(ended) == 1 else "AGENT"
        raise TaskprotoError(
            f"agent(s) {which} of task {name} ended ({states}) without saying they are done; "
            f"read `taskproto agent logs {name} {one}`, then `taskproto agent set {name} {one} "
            f"--status complete` if its work is done, or `taskproto agent restart {name} {one}`"
        )


def _add_run_commands() -> None:
    from taskproto.cli.agent_run import RUN_COMMANDS  # start, ps, stop, ...: cli/agent_run.py

    for command in RUN_COMMANDS:
        agent_group.add_command(command)


_add_run_commands()

COMMANDS = [agent_group]

# `agent exec` (the sandbox) lives in its own module
from taskproto.cli.agent_exec import agent_exec  # noqa: E402

agent_group.add_command(agent_exec)

"""`taskproto agent start|ps|stop|pause|resume|logs|attach|say`: the agents taskproto runs
(ops/agent_control.py, ops/supervisor.py). Added to the `agent` group by cli/agent.py."""

from __future__ import annotations

from typing import Any

import click

from taskproto.cli.common import AppState, emit, json_option, pass_state


def _names(task: str, agent: str) -> tuple[str, str]:
    """TASK and AGENT validated where they enter (they name folders)."""
    from taskproto.names import agent_name, task_name

    return task_name(task), agent_name(agent)


def _line(r: dict[str, Any]) -> str:
    pid = r.get("pid") or "-"
    budget = f"/{r['max_restarts']}" if isinstance(r.get("max_restarts"), int) else ""
    return (
        f"{r['task']}/{r['agent']}: {r['state']} (pid {pid}, {r['client']}, "
        f"restarts {r.get('restarts', 0)}{budget}, session {r['session']})"
    )


def _started(r: dict[str, Any]) -> str:
    """`agent start`'s line: which sandbox it got too (`auto` may have run it as you: why)."""
    why = r.get("unconfined")
    fix = " (put it in the repository or a system folder to run it sandboxed)"
    fix = fix if why and "which the sandbox hides" in why else ""
    return f"started {_line(r)}, sandbox {r.get('sandbox') or 'none'}" + (
        f": {why}{fix}" if why else ""
    )


@click.command("start")
@click.argument("task")
@click.argument("agent")
@click.option(
    "--client",
    default="claude",
    show_default=True,
    metavar="claude|codex|gemini|CMD",
    help="The agent client to run, or any command line (run as is in the agent's worktree). A "
    "client's name with options is that client with them: 'codex --dangerously-bypass-hook-trust'. "
    "A program given as a path, or an interpreter's script ('python3 my_agent.py'), must be in "
    "the agent's worktree (committed on the agent's branch TASK-AGENT), or the start is refused.",
)
@click.option(
    "--headless",
    is_flag=True,
    help="Run the client's non-interactive mode (claude -p, codex exec, gemini -p) with the "
    "prompt, its output kept in the agent's log; else an interactive client in tmux.",
)
@click.option(
    "--prompt",
    metavar="TEXT",
    help="The prompt to start with (default for --headless: what `taskproto prompt TASK` renders).",
)
@click.option(
    "--sandbox",
    type=click.Choice(["auto", "bwrap", "none"]),
    default="auto",
    show_default=True,
    help="Run the client in the agent's sandbox (docs/sandbox.md): `auto` (the default: bwrap "
    "where it can run and the client works in it, else none), `bwrap` (refused where "
    "bubblewrap cannot run) or `none` (as you, unconfined; doctor warns about it). Inside, "
    "its hooks and its taskproto reach the protocol only through the agent's own channel; "
    "claude, codex and gemini get copies of their login and their API variables. `agent ps` "
    "shows which one each agent got.",
)
@json_option
@pass_state
def start(
    state: AppState,
    task: str,
    agent: str,
    client: str,
    headless: bool,
    prompt: str | None,
    sandbox: str,
    as_json: bool,
) -> None:
    """Start AGENT of TASK in its worktree, supervised: restarted after a crash, within the
    retry budget (max_retries, default 3), after a back-off of 1 s doubled for each further quick
    crash up to 60 s, back to 1 s once it ran 5 min (`[agents] restart_delay_seconds`,
    `restart_max_delay_seconds`, `restart_reset_seconds`); past the budget it is failed and
    `agent ps` says so. The session id is fixed here and given to the client and its hooks."""
    from taskproto.names import agent_name, task_name
    from taskproto.ops import agent_control

    record = agent_control.start(
        state.engine, task_name(task), agent_name(agent), client, headless, prompt, sandbox
    )
    emit(as_json, record, lambda: click.echo(_started(record)))


@click.command("ps")
@json_option
@pass_state
def ps(state: AppState, as_json: bool) -> None:
    """Every agent taskproto runs: task, agent, client, pid, session, state, activity (from its
    hooks), uptime, restarts, sandbox."""
    from taskproto.ops import agent_control

    rows = agent_control.rows(state.engine)
    from taskproto.board.agents_view import with_activity

    with_activity(rows, state.engine.config)  # what each session's hooks said last

    def human() -> None:
        if not rows:
            click.echo("no agents (start one with `taskproto agent start TASK AGENT`)")
        for r in rows:
            up = "-" if r["uptime"] is None else f"{r['uptime']}s"
            click.echo(f"{_line(r)} {r['mode']}, up {up}, {r['activity']}, sandbox {r['sandbox']}")
            if r.get("unconfined"):
                click.echo(f"  unconfined: {r['unconfined']}")
            if r.get("sandbox_error"):
                click.echo(f"  its commits did not come out: {r['sandbox_error']}")
            if r.get("note"):
                click.echo(f"  {r['note']}")

    emit(as_json, rows, human)


def _control(name: str, verb: str, doc: str) -> click.Command:
    @click.command(name, help=doc)
    @click.argument("task")
    @click.argument("agent")
    @json_option
    @pass_state
    def command(state: AppState, task: str, agent: str, as_json: bool) -> None:
        from taskproto.ops import agent_control

        task, agent = _names(task, agent)
        record = getattr(agent_control, name)(state.engine, task, agent)
        if record.get("was_running") is False:  # `stop` of what is not running: done already
            line = f"{task}/{agent}: not running ({record['state']}); nothing to stop"
        else:
            line = f"{verb} {_line(record)}"
        emit(as_json, record, lambda: click.echo(line))

    return command


stop = _control(
    "stop",
    "stopped",
    "Stop AGENT of TASK: SIGTERM to its process group, SIGKILL 5 s later; returns when no "
    "process of it is left. Its task's state is left as it is. An agent that is not running "
    "(never started, stopped, exited) is stopped already: one line says so, exit 0 (--json: "
    '"was_running": false).',
)
restart = _control(
    "restart",
    "restarted",
    "Start AGENT of TASK again as taskproto last ran it (client, mode, prompt, session), with a "
    "new retry budget: the agent is PENDING with its retries at 0 (journaled).",
)
pause = _control("pause", "paused", "Pause AGENT of TASK (SIGSTOP to its process group).")
resume = _control("resume", "resumed", "Resume a paused AGENT of TASK (SIGCONT).")


@click.command("logs")
@click.argument("task")
@click.argument("agent")
@click.option(
    "-n",
    "lines",
    type=click.IntRange(min=0),
    default=40,
    show_default=True,
    help="How many of the last lines to print.",
)
@click.option(
    "-f", "--follow", is_flag=True, help="Keep printing what the agent writes (Ctrl-C ends)."
)
@json_option
@pass_state
def logs(state: AppState, task: str, agent: str, lines: int, follow: bool, as_json: bool) -> None:
    """The output of AGENT of TASK: a headless one's agent.log (beside its worktree, rotated at
    1 MB), an interactive one's tmux pane (once its window is gone, its last screen).

    --json: an object with the task, the agent, the lines, and where they came from (`source`:
    "log", "pane" or "last_screen"; `file`: the log read, null for a pane)."""
    import time

    from taskproto.errors import TaskprotoError
    from taskproto.ops import agent_records as rec

    config = state.engine.config
    task, agent = _names(task, agent)
    if follow and as_json:
        raise TaskprotoError(
            "--json prints the lines once and --follow keeps printing: use one of them"
        )
    path = rec.log_file(config, task, agent)
    record = rec.read(config, task, agent)
    if record is None and not path.exists():
        rec.require_agent(config, task, agent)
        raise TaskprotoError(f"agent {agent} of task {task!r} has no log; it was never started")
    source = "log"
    if record is not None and not record.get("headless"):  # its tmux pane is its log
        if follow:
            raise TaskprotoError(
                f"agent {agent} of task {task!r} runs in tmux: watch it live with "
                f"`taskproto agent attach {task} {agent}`"
            )
        from taskproto.ops.agent_tmux import pane_text

        try:
            shown, source = pane_text(config, task, agent, lines), "pane"
        except TaskprotoError:
            if not path.exists():
                raise
            # its window is gone: its last screen, kept at its end
            shown, source = rec.tail(path, lines), "last_screen"
    else:
        shown = rec.tail(path, lines)
    data = {
        "task": task,
        "agent": agent,
        "source": source,
        "file": None if source == "pane" else str(path),
        "lines": shown,
    }

    def human() -> None:
        for line in shown:
            click.echo(line)

    emit(as_json, data, human)
    if not follow:
        return
    offset = path.stat().st_size if path.exists() else 0
    while True:
        size = path.stat().st_size if path.exists() else 0
        if size < offset:  # rotated
            offset = 0
        if size > offset:
            with path.open("rb") as fh:
                fh.seek(offset)
                chunk = fh.read(size - offset)
            offset = size
            click.echo(chunk.decode("utf-8", "replace"), nl=False)
        time.sleep(0.2)


@click.command("attach")
@click.argument("task")
@click.argument("agent")
@pass_state
def attach(state: AppState, task: str, agent: str) -> None:
    """Attach this terminal to the tmux window of an interactive AGENT of TASK (detach with
    tmux's prefix, then d)."""
    from taskproto.ops.agent_tmux import attach as attach_window

    attach_window(state.engine.config, *_names(task, agent))


@click.command("say")
@click.argument("task")
@click.argument("agent")
@click.argument("text")
@json_option
@pass_state
def say(state: AppState, task: str, agent: str, text: str, as_json: bool) -> None:
    """Type TEXT into an interactive AGENT of TASK, recorded first as the user's prompt (the
    interruption rules apply to it: anything but a "go on" pauses the task until
    `taskproto resume TASK`).

    --json: what was sent (`text`), to which agent (`task`, `agent`, its `session` and
    `client`), how (`via`: its tmux window `window`), and what it was recorded as
    (`recorded_as`, `state`, `waits_for_resume`)."""
    from taskproto.ops import agent_control

    task, agent = _names(task, agent)
    sent = agent_control.say(state.engine, task, agent, text)
    emit(as_json, sent, lambda: click.echo(f"said to {task}/{agent}: {text}"))


RUN_COMMANDS = [start, ps, stop, restart, pause, resume, logs, attach, say]

"""The user's controls of the agents taskproto runs: start, stop, pause, resume, say, and what
`agent ps` shows. Each writes what the user wants into the agent's run.json, makes sure the
supervisor runs (ops/supervisor.py) and waits until it has done it. Starting, stopping, pausing
and typing into an agent are the user's actions: refused to an agent, as approvals are."""

from __future__ import annotations

import os
import re
import time
import uuid

from taskproto.errors import TaskprotoError
from taskproto.names import agent_branch
from taskproto.ops import agent_records as rec
from taskproto.ops import supervisor
from taskproto.ops.agent_launch import check_client, named

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from taskproto.engine import Engine

WAIT = 15.0  # seconds a command waits for the supervisor to carry out what it asked
DONE = (rec.STOPPED, rec.EXITED, rec.ESCALATED)
NEVER_STARTED = "never started"  # `stop`'s state of an agent taskproto has no record of


def start(
    engine: Engine,
    task: str,
    agent: str,
    client: str,
    headless: bool,
    prompt: str | None,
    sandbox: str = "auto",
) -> dict[str, Any]:
    """Start AGENT of TASK in its worktree under the supervisor; its run record once running.
    `sandbox`: `auto` (bwrap where it can run, else none), `bwrap` or `none`."""
    engine.require_user(f"starting agent {agent} of task {task!r}")
    check_client(client)
    from taskproto.ops.agent_sandbox import hidden_client, problem, resolve

    asked, sandbox = sandbox, resolve(sandbox, client, named(client)[0] is not None)
    # why auto runs it as you, unconfined (agent start and ps say it): bwrap cannot run here
    unconfined = problem() if asked == "auto" and sandbox == "none" else None
    config = engine.config
    loaded = engine.load(task)
    if agent not in loaded.required_agents:
        raise TaskprotoError(
            f"task {task!r} has no agent {agent!r} (its agents: "
            f"{', '.join(loaded.required_agents) or 'none'})"
        )
    if not config.agent_worktree(task, agent).is_dir():
        raise TaskprotoError(
            f"agent {agent} of task {task!r} has no worktree at "
            f"{config.agent_worktree(task, agent)}; run `taskproto doctor --fix`"
        )
    if headless and prompt is None:
        from taskproto.ops.agent_prompt import starting_prompt

        try:
            prompt = starting_prompt(engine, task, agent)
        except TaskprotoError as exc:
            raise TaskprotoError(f"{exc}; pass --prompt TEXT") from None
    _check_program(client, config.agent_worktree(task, agent), agent_branch(task, agent))
    why = hidden_client(config, task, agent, client) if sandbox == "bwrap" else None
    if why and asked == "bwrap":
        raise TaskprotoError(
            f"--sandbox bwrap cannot run {client!r}: {why}; put it where the sandbox shows it "
            "(the repository, a system folder), or start with --sandbox none"
        )
    sandbox = "none" if why else sandbox  # auto: bwrap only where the client works in it
    unconfined = why or unconfined
    status = engine.agent_status(task, agent)
    if status is not None and status.retry_count:
        reset_budget(engine, task, agent)  # a start is the user's new try, as a restart is
    with rec.records_lock(config):
        old = rec.read(config, task, agent)
        if old is not None and rec.running(old):
            raise TaskprotoError(
                f"agent {agent} of task {task!r} already runs (pid {old['pid']}); stop it first "
                f"(`taskproto agent stop {task} {agent}`)"
            )
        record = {
            "task": task,
            "agent": agent,
            "client": client,
            "headless": headless,
            "prompt": prompt,
            "session": str(uuid.uuid4()),
            "sandbox": sandbox,
            "unconfined": unconfined,
            "want": rec.RUNNING,
            "state": rec.STARTING,
            "pid": None,
            "restarts": 0,
            "max_restarts": config.max_retries,
            "created_at": time.time(),
            "started_at": None,
            "exit_code": None,
        }
        rec.write(config, record)
    return _started(engine, task, agent)


def _started(engine: Engine, task: str, agent: str) -> dict[str, Any]:
    """Wait for the supervisor (started if need be) to start the agent; its record."""
    config = engine.config
    supervisor.ensure(config)
    done = rec.wait_for(config, task, agent, lambda r: r["state"] != rec.STARTING, WAIT)
    if done is None or done["state"] == rec.STARTING:
        raise TaskprotoError(
            f"agent {agent} of task {task!r} did not start within {WAIT:g}s; see "
            f"{config.root / 'supervisor.log'}"
        )
    if done.get("error"):
        raise TaskprotoError(f"agent {agent} of task {task!r} could not start: {done['error']}")
    return done


def restart(engine: Engine, task: str, agent: str) -> dict[str, Any]:
    """Start an agent taskproto ran before again, as it ran it (client, mode, prompt, session),
    with a new retry budget: `recover`'s "retry" option of an agent past its budget."""
    engine.require_user(f"restarting agent {agent} of task {task!r}")
    config = engine.config
    old = rec.read(config, task, agent)
    if old is None:
        rec.require_agent(config, task, agent)
        raise TaskprotoError(
            f"taskproto never ran agent {agent} of task {task!r}; start it with "
            f"`taskproto agent start {task} {agent}`"
        )
    if rec.running(old):
        raise TaskprotoError(
            f"agent {agent} of task {task!r} already runs (pid {old['pid']}); stop it first "
            f"(`taskproto agent stop {task} {agent}`)"
        )
    _check_program(old["client"], config.agent_worktree(task, agent), agent_branch(task, agent))
    reset_budget(engine, task, agent)
    rec.update(
        config,
        task,
        agent,
        want=rec.RUNNING,
        state=rec.STARTING,
        restarts=0,
        pid=None,
        error=None,
        restart_at=None,  # the user's start waits for no back-off
        quick_crashes=0,
    )
    return _started(engine, task, agent)


def reset_budget(engine: Engine, task: str, agent: str) -> None:
    """The agent PENDING with its retries at 0, journaled: the user chose to try again, which
    answers the escalation of this agent past its budget (resolved in the same save)."""
    from taskproto.engine.attention import escalated_agent
    from taskproto.state import store
    from taskproto.state.models import AgentState, utcnow

    path = engine.config.status_file(task, agent)
    with engine.locked(task, verify=False) as current:
        status = store.load_status(path, move_aside=True)
        note = (
            f"agent {agent} started again by the user after {status.retry_count} retries: a new "
            f"budget of {engine.config.max_retries}"
        )
        fresh = {
            "status": AgentState.PENDING,
            "retry_count": 0,
            "error_message": None,
            "escalated": False,
        }
        store.save_status(path, status.model_copy(update={**fresh, "updated_at": utcnow()}))
        new = current.model_copy(deep=True)
        kept = [e for e in new.escalations if escalated_agent(e.model_dump()) != agent]
        if len(kept) != len(new.escalations):
            new.escalations = kept
            note += "; its escalation (agent-retries-exhausted) resolved"
        new.record(trigger="agent-restart", time=utcnow(), kind="agent", note=note)
        engine.save(current, new, f"agent-restart: {note}")


# interpreters whose first argument, when it is no option, is a script file they run
INTERPRETERS = re.compile(r"(python[0-9.]*|pypy[0-9.]*|bash|sh|dash|zsh|ksh|node|ruby|perl|php)")


def _check_program(client: str, worktree: Path, branch: str) -> None:
    """The client's program must be there, as the supervisor will run it in the agent's
    `worktree`: a program on PATH, a path (a relative one from the worktree), and the script an
    interpreter is given first (`python agent.py`). A missing one would only crash through the
    retry budget. The one check of every door that starts an agent (CLI, board, TUI)."""
    import shutil

    name, argv = named(client)
    program = name or argv[0]
    if os.sep in program:
        _check_file(program, worktree, branch, "the program", executable=True)
    elif shutil.which(program) is None:
        hint = "install it" if name else "check the command line"
        raise TaskprotoError(f"{program!r} is not found on PATH; {hint}, or pass another --client")
    if name is None and len(argv) > 1 and not argv[1].startswith("-"):
        if INTERPRETERS.fullmatch(os.path.basename(program)):
            _check_file(argv[1], worktree, branch, f"the script {os.path.basename(program)} runs")


def _check_file(
    path: str, worktree: Path, branch: str, what: str, executable: bool = False
) -> None:
    found = worktree / os.path.expanduser(path)  # an absolute path stays itself
    if found.is_file() and (not executable or os.access(found, os.X_OK)):
        return
    why = "is not executable" if found.is_file() else "is not there"
    if os.path.isabs(os.path.expanduser(path)):  # not the worktree's: saying so would mislead
        fix = (
            f"make it executable (`chmod +x {path}`)"
            if found.is_file()
            else "give the path of a file that is there"
        )
        raise TaskprotoError(f"{path!r}, {what}, {why}: {fix}, or pass another --client")
    raise TaskprotoError(
        f"{path!r}, {what}, {why} in the agent's worktree {worktree}, where its client runs: "
        f"commit it to the agent's branch {branch} (or give an absolute path), or pass another "
        "--client"
    )


def _want(
    engine: Engine, task: str, agent: str, want: str, reached: tuple[str, ...]
) -> dict[str, Any]:
    config = engine.config
    rec.update(config, task, agent, want=want)
    supervisor.ensure(config)
    wait = WAIT + (supervisor.STOP_TIMEOUT if want == rec.STOPPED else 0)
    done = rec.wait_for(config, task, agent, lambda r: r["state"] in reached, wait)
    if done is None or done["state"] not in reached:
        raise TaskprotoError(
            f"agent {agent} of task {task!r} is not {want} after {wait:g}s; see "
            f"{config.root / 'supervisor.log'}"
        )
    return done


def stop(engine: Engine, task: str, agent: str) -> dict[str, Any]:
    """SIGTERM to its process group, SIGKILL after a timeout; returns once no process is left,
    with `was_running`. What is not running (never started, stopped, exited) is stopped already:
    its record (state `never started` when there is none) with `was_running` false. A wrong task
    or agent name is still refused."""
    engine.require_user(f"stopping agent {agent} of task {task!r}")
    record = rec.read(engine.config, task, agent)
    if record is None:
        rec.require_agent(engine.config, task, agent)
        return {"task": task, "agent": agent, "state": NEVER_STARTED, "was_running": False}
    if record["state"] in DONE and not rec.running(record):
        return {**record, "was_running": False}
    return {**_want(engine, task, agent, rec.STOPPED, DONE), "was_running": True}


def pause(engine: Engine, task: str, agent: str) -> dict[str, Any]:
    engine.require_user(f"pausing agent {agent} of task {task!r}")
    _live(engine, task, agent)
    return _want(engine, task, agent, rec.PAUSED, (rec.PAUSED,))


def resume(engine: Engine, task: str, agent: str) -> dict[str, Any]:
    engine.require_user(f"resuming agent {agent} of task {task!r}")
    _live(engine, task, agent)
    return _want(engine, task, agent, rec.RUNNING, (rec.RUNNING,))


def _live(engine: Engine, task: str, agent: str) -> dict[str, Any]:
    record = rec.read(engine.config, task, agent)
    if record is None:
        rec.require_agent(engine.config, task, agent)
    if record is None or record["want"] == rec.STOPPED:
        raise TaskprotoError(
            f"agent {agent} of task {task!r} is not running; start it with "
            f"`taskproto agent start {task} {agent}`"
        )
    return record


def say(engine: Engine, task: str, agent: str, text: str) -> dict[str, Any]:
    """Type TEXT into an interactive agent, recorded first as the user's prompt (so the
    interruption rules apply to it). What was sent, to whom, how, and what it was recorded as."""
    engine.require_user(f"typing into agent {agent} of task {task!r}")
    record = _live(engine, task, agent)
    if record.get("headless"):
        raise TaskprotoError(
            f"agent {agent} of task {task!r} is headless and reads no input; stop it and start "
            "it again with --prompt"
        )
    from taskproto.ops import interrupts
    from taskproto.ops.agent_tmux import find_window, type_text

    find_window(engine.config, task, agent)  # no window: nothing recorded either
    session = record.get("client_session") or record["session"]
    recorded = interrupts.record(engine, task, text, session)
    type_text(engine.config, task, agent, text)
    return {
        "task": task,
        "agent": agent,
        "text": text,
        "session": session,
        "client": record.get("client"),
        "via": "tmux",
        "window": f"{task}/{agent}",
        "recorded_as": recorded.classification.type,
        "state": recorded.preserved_state,
        "waits_for_resume": interrupts.waits_for_resume(recorded.task),
    }


def rows(engine: Engine) -> list[dict[str, Any]]:
    """Every agent taskproto runs, for `agent ps` (the supervisor started again if it is gone
    while an agent should run: it adopts them)."""
    config = engine.config
    records = list(rec.every(config))
    if any(r["want"] != rec.STOPPED for r in records):
        supervisor.ensure(config)
    now = time.time()
    out = []
    from taskproto.ops.agent_backoff import note
    from taskproto.state import store

    for r in records:
        live = rec.running(r)
        try:
            status = store.load_status(config.status_file(r["task"], r["agent"]))
            activity = f"{status.status.value} since {status.updated_at:%H:%M:%S}"
        except TaskprotoError:
            activity = "no status"
        started = r.get("started_at")
        out.append(
            {
                "task": r["task"],
                "agent": r["agent"],
                "client": r["client"],
                "mode": "headless" if r["headless"] else "tmux",
                "pid": r.get("pid") if live else None,
                "session": r["session"],
                "client_session": r.get("client_session"),  # Codex's, Gemini's own, when bound
                "state": r["state"],
                "activity": activity,
                "uptime": round(now - started) if live and started else None,
                "restarts": r.get("restarts", 0),
                "max_restarts": config.max_retries,  # the budget as the settings say now
                "sandbox": r.get("sandbox", "none"),
                # why the agent's last commits did not come out of its sandbox (None: they did)
                "sandbox_error": r.get("sandbox_error"),
                # why `--sandbox auto` runs it unconfined (None: sandboxed, or asked so)
                "unconfined": r.get("unconfined"),
                # a restart waiting for its back-off, or failed past the budget (None: neither)
                "note": note(r, now),
            }
        )
    return out

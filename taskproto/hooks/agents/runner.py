"""`run_agent_hook`: one hook call of an agent client, answered in that client's protocol.

The tool-call path decides with the standard library only (common, tool_guard,
the cached edit flags). Everything that writes (claims, interruptions,
heartbeats) or needs the workflow definition goes through `events`, which loads
the engine.
"""

from __future__ import annotations

import os

from taskproto.clients import protocols
from taskproto.git.files import GIT_MISSING, find_repo, git_missing
from taskproto.hooks.agents import activity, agent_status, quiet
from taskproto.hooks.agents.common import (
    Call,
    Payload,
    client_pid,
    governing,
    heartbeat_every,
    last_beat,
    shares_remote,
)
from taskproto.hooks.agents.shell import UNKNOWN
from taskproto.layout import Layout, find_layout, layout_for
from taskproto.state import registry
from taskproto.state.light import owned_task, read_task

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.state.light import TaskView

DENY = 2  # blocks in all three clients; exit 1 does not block in Claude Code


def run_agent_hook(
    client: str, event: str, stdin_bytes: bytes, env: dict[str, str], pid: int | None = None
) -> tuple[int, str, str]:
    """Answer one hook call. Never raises: odd input or an internal failure is a warning on stderr
    and the least harmful answer: a lifecycle event does nothing; a tool call the guard cannot
    judge (a payload it cannot read, a failure while judging) is denied, never let through.
    """
    try:
        return _run(client, event, stdin_bytes, env, pid)
    except Exception as exc:  # noqa: BLE001 - a hook must never show a traceback to the client
        tool = protocols.kind(client, event) == "tool"
        if git_missing(exc):  # the machine's, not the call's: the CLI's own line (docs/agents.md)
            if tool:
                return DENY, "", f"taskproto: this tool call could not be judged: {GIT_MISSING}\n"
            return 0, "", f"taskproto: warning: {GIT_MISSING}; hook {client} {event} did nothing\n"
        if tool:
            return DENY, "", f"taskproto: {_unjudged(f'{type(exc).__name__}: {exc}')}\n"
        return (
            0,
            "",
            f"taskproto: warning: hook {client} {event} failed ({type(exc).__name__}: {exc}); "
            "allowed\n",
        )


def _unjudged(why: str) -> str:
    return (
        f"this tool call could not be judged ({why}), so it is denied; "
        "try it again in a simpler form"
    )


def _warn(lines: list[str]) -> str:
    return "".join(f"taskproto: warning: {line}\n" for line in lines)


def _run(
    client: str, event: str, stdin_bytes: bytes, env: dict[str, str], pid: int | None
) -> tuple[int, str, str]:
    what = protocols.kind(client, event)
    if what is None:
        known = ", ".join(protocols.KINDS.get(client, {})) or "none: clients are " + ", ".join(
            protocols.CLIENTS
        )
        return (
            0,
            "",
            _warn(
                [f"taskproto hook {client} {event}: unknown event (known: {known}); nothing done"]
            ),
        )
    payload = Payload(stdin_bytes)
    if not payload.valid:
        if what == "tool":
            return DENY, "", f"taskproto: {_unjudged('; '.join(payload.warnings) or 'no input')}\n"
        return 0, "", _warn(payload.warnings + ["nothing done"])
    cwd = payload.cwd or env.get("GEMINI_CWD") or env.get("CLAUDE_PROJECT_DIR") or ""
    cwd = os.path.realpath(cwd) if cwd and os.path.isabs(cwd) else ""  # relative: unknown
    if what in ("tool", "notify"):  # the decision (if any), then the board's activity record
        decided = _tool(payload, cwd, env) if what == "tool" else (0, "", "")
        # a denied call never runs: prompt_origin.py does not take it for one still running
        here = activity.record_at(cwd, env, client, event, payload, decided[0] == DENY)
        agent_status.note(here, env, event, payload.session)  # an agent taskproto runs: WORKING
        return decided
    # Lifecycle events act on the repository the client runs in; the registry's, when it runs in
    # none.
    layout = find_layout(cwd, environ=env) if cwd else None
    layout = layout or session_task(payload.session, cwd, env)[0]
    if layout is not None:
        if what == "prompt":  # what each session did last, before this prompt (prompt_origin.py)
            payload.before = activity.read_all(layout.root)
        activity.record(layout, client, event, payload, cwd)
        agent_status.note(layout, env, event, payload.session)
    if pid is None:
        pid = client_pid(env)
    if answered_here(what, payload, layout, cwd, pid):
        return 0, "", ""  # decided on the standard library: the engine is not loaded
    if what == "session_start" and layout is not None:
        from taskproto.hooks.agents.start import quick_session_start

        answered = quick_session_start(Call(client, event, payload, layout, cwd, env, pid))
        if answered is not None:
            return answered
    from taskproto.hooks.hookconfig import enable_site_packages

    enable_site_packages()
    from taskproto.hooks.agents import events

    return events.handle(client, event, what, payload, layout, cwd, env, pid)


def answered_here(
    what: str, payload: Payload, layout: Layout | None, cwd: str, pid: int | None
) -> bool:
    """True when a lifecycle event is fully handled on the standard library, as events.handle
    would handle it, with nothing to tell the model: no repository; a prompt with no task to be
    recorded on (or an empty one); a heartbeat or session end of a session that owns no task; a
    heartbeat of the owner from its recorded client process (heartbeat.json is written here when
    due, as events.heartbeat does). SessionStart always goes on (it offers the free tasks and
    writes CLAUDE_ENV_FILE)."""
    if what == "session_start":
        return False
    if layout is None:
        return True
    session = payload.session
    if what == "prompt":
        task, _ = governing(layout, session, cwd)
        return task is None or (task.error is None and not payload.prompt.strip())
    if what not in ("heartbeat", "end"):
        return False
    made = quiet.started(layout) if what == "heartbeat" else 0  # before the task files are read
    mine = owned_task(layout, session)
    if mine is None:
        if what == "end":
            quiet.forget(layout, session)
        else:
            quiet.write(layout, session, None, None, made)  # the next turn stays in `sh`
        return True
    if mine.error is not None:
        return True
    if what == "end":
        quiet.forget(layout, session)
        return False
    owner_pid = (mine.owner or {}).get("pid")
    if pid and pid != owner_pid:
        return False  # the client's pid is recorded through the engine (journaled)
    from datetime import UTC, datetime, timedelta

    from taskproto.state import beat

    last, now, every = last_beat(layout, session, mine), datetime.now(UTC), heartbeat_every(layout)
    if last is None or (now - last).total_seconds() >= every:
        if shares_remote(layout):
            return False  # events.heartbeat renews the remote's claim too, through the engine
        beat.write(layout.task_dir(mine.name), session, owner_pid, now.isoformat())
        last = now
    if pid:  # the next turn's `sh` answers alone while nothing changes and the beat is not due
        due = last + timedelta(seconds=every)
        quiet.write(layout, session, mine.name, pid, made, due)
    return True


def _tool(payload: Payload, cwd: str, env: dict[str, str]) -> tuple[int, str, str]:
    from taskproto.hooks.agents.tool_guard import Guard, analyse, decide

    action = analyse(payload.tool_name, payload.tool_input, cwd, env)
    if not action.inspect:
        return 0, "", ""
    layout, task, agent = session_task(payload.session, cwd, env)
    if layout is None:  # no repository here, and the session owns no task: judge by the targets
        layout = next(
            (found for t in action.targets if t != UNKNOWN and (found := _layout_of(t, env))), None
        )
        if layout is None:
            return 0, "", ""
    if layout.root_links_out() and action.writes:
        return (
            DENY,
            "",
            (
                f"taskproto: taskproto's root {layout.root_given} is a symbolic link out of the "
                "repository; writes are refused until the user makes it a folder (`taskproto "
                "doctor`)\n"
            ),
        )
    if task is None:  # a stranger: the task whose worktree it writes in governs
        task, agent = _stranger(layout, action.targets, cwd)

    def flags_of(view: TaskView) -> dict[str, dict[str, Any]] | None:
        return _flags(layout, view)

    guard = Guard(
        layout,
        payload.session,
        cwd,
        env,
        task,
        agent,
        flags_of,
        lambda name: read_task(layout, name),
    )
    reason = decide(action, guard)
    if reason:
        return DENY, "", f"taskproto: {reason}\n"
    return 0, "", ""


def session_task(
    session: str, cwd: str, env: dict[str, str]
) -> tuple[Layout | None, TaskView | None, str | None]:
    """The layout, the session's own task and the agent whose worktree cwd is in.

    The session registry first (it does not depend on where the client was started); else the
    repository around cwd and the task there that names this session as its owner.
    """
    entry = registry.lookup(session, env)
    if entry is not None:
        dirs = find_repo(entry["main"], env)
        if dirs is not None:
            layout = layout_for(dirs, entry["root"], env)
            view = read_task(layout, entry["task"])
            if view.owner_session == session or view.error is not None:
                kind, where_task, agent = layout.where(cwd) if cwd else ("outside", None, None)
                if kind == "worktree" and where_task and where_task != view.name:
                    here = read_task(layout, where_task)  # of several tasks, the one cwd is in
                    if here.error is None and here.owner_session == session:
                        return layout, here, agent
                return (
                    layout,
                    view,
                    agent if kind == "worktree" and where_task == view.name else None,
                )
    around = find_layout(cwd, environ=env) if cwd else None
    if around is None:
        return None, None, None
    task, agent = governing(around, session, cwd)
    return around, task, agent


def _layout_of(path: str, env: dict[str, str]) -> Layout | None:
    real = os.path.realpath(path)
    folder = real if os.path.isdir(real) else os.path.dirname(real)
    return find_layout(folder, environ=env)


def _stranger(layout: Layout, targets: list[str], cwd: str) -> tuple[TaskView | None, str | None]:
    for path in [cwd, *targets]:
        if path and path != UNKNOWN:
            kind, name, agent = layout.where(os.path.realpath(path))
            if kind == "worktree" and name:
                return read_task(layout, name), agent
    return None, None


def _flags(layout: Layout, view: TaskView) -> dict[str, dict[str, Any]] | None:
    """The state flags of the task's workflow (None when the workflow cannot be loaded)."""
    if view.workflow is None:
        return None
    from taskproto.hooks.flags import state_flags

    try:
        return state_flags(layout, view.workflow)
    except Exception:  # noqa: BLE001 - an unknown or broken workflow: edits blocked, doctor named
        return None

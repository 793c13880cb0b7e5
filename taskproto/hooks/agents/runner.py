"""`run_agent_hook`: one hook call of an agent client, answered in that client's protocol.

The tool-call path decides with the standard library only (common, tool_guard,
the cached edit flags). Everything that writes (claims, interruptions,
heartbeats) or needs the workflow definition goes through `events`, which loads
the engine.
"""

from __future__ import annotations

import os

from taskproto.clients import protocols
from taskproto.hooks.agents.common import Payload, client_pid, governing
from taskproto.layout import Layout, find_layout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from taskproto.state.light import TaskView

DENY = 2  # blocks in all three clients; exit 1 does not block in Claude Code


def run_agent_hook(
    client: str, event: str, stdin_bytes: bytes, env: dict[str, str], pid: int | None = None
) -> tuple[int, str, str]:
    """Answer one hook call. Never raises: odd input or an internal failure is a warning on stderr
    and the least harmful answer (a tool call is allowed unless taskproto's own state is corrupt).
    """
    try:
        return _run(client, event, stdin_bytes, env, pid)
    except Exception as exc:  # noqa: BLE001 - a hook must never show a traceback to the client
        return (
            0,
            "",
            f"taskproto: warning: hook {client} {event} failed ({type(exc).__name__}: {exc}); "
            "allowed\n",
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
        return 0, "", _warn(payload.warnings + ["nothing done"])
    cwd = payload.cwd or env.get("GEMINI_CWD") or env.get("CLAUDE_PROJECT_DIR") or ""
    cwd = os.path.realpath(cwd) if cwd and os.path.isabs(cwd) else ""
    layout = find_layout(cwd, environ=env) if cwd else None
    if layout is not None:
        from taskproto.hooks.agents import activity

        activity.record(layout, client, event, payload, cwd)  # for the board; never raises
    if what == "notify":
        return 0, "", ""  # the client waits for the user: recorded above, nothing to decide
    if what == "tool":
        if layout is None:
            return 0, "", ""
        return _tool(payload, layout, cwd, env)
    from taskproto.hooks.slowpath import enable_site_packages

    enable_site_packages()
    from taskproto.hooks.agents import events

    if pid is None:
        pid = client_pid(env)
    return events.handle(client, event, what, payload, layout, cwd, env, pid)


def _tool(payload: Payload, layout: Layout, cwd: str, env: dict[str, str]) -> tuple[int, str, str]:
    from taskproto.hooks.agents.tool_guard import analyse, decide

    action = analyse(payload.tool_name, payload.tool_input, cwd)
    if not action.writes and not action.forbidden:
        return 0, "", ""
    task, agent = governing(layout, payload.session, cwd)
    allows = _allows_edits(layout, task) if task is not None else None
    reason = decide(action, layout, cwd, task, agent, allows, env)
    if reason:
        return DENY, "", f"taskproto: {reason}\n"
    return 0, "", ""


def _allows_edits(layout: Layout, task: TaskView) -> bool | None:
    """The state's edit flag; sets task.error when the workflow or the state is unknown."""
    if task.error is not None or task.workflow is None or task.state is None:
        return None
    from taskproto.hooks.flags import state_flags

    try:
        states = state_flags(layout, task.workflow)
    except Exception as exc:  # noqa: BLE001 - an unknown or broken workflow blocks edits, with the reason
        task.error = str(exc)
        return None
    if task.state not in states:
        task.error = f"state {task.state!r} is not a state of workflow {task.workflow!r}"
        return None
    return bool(states[task.state]["allows_edits"])

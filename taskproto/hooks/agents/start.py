"""SessionStart of a session that owns no task, answered on the standard library (the hook's
side of offer.py: the lines that name the session, and CLAUDE_ENV_FILE)."""

from __future__ import annotations

import os

from taskproto.clients import protocols
from taskproto.hooks.agents.offer import claim_hint, gather, offer_lines, write_env_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from taskproto.hooks.agents.common import Call


def quick_session_start(call: Call) -> tuple[int, str, str] | None:
    """SessionStart answered on the standard library, or None when the engine must answer (a
    /clear handover, a session that owns a task, anything the quick reads leave to the engine;
    TASKPROTO_QUICK=0 turns it off, as for `task list/show`)."""
    from taskproto.state.light import owned_task

    layout, env, pid, session = call.layout, call.env, call.pid, call.session
    if env.get("TASKPROTO_QUICK") == "0" or call.payload.source == "clear" or not session:
        return None
    if owned_task(layout, session) is not None:
        return None
    text = ""
    if os.path.isdir(layout.tasks):
        try:
            gathered = gather(layout)
        except Exception:  # noqa: BLE001 - the engine decides, and says what is wrong
            return None
        if gathered is None:
            return None
        found, names, made = gathered
        hint = claim_hint(env, session, pid)
        text = "\n".join(offer_lines(found, layout, call.cwd, hint, session))
        if made:
            found.leave(layout, call.client, names, made)
    warning = write_env_file(env, session, pid)
    warnings = [*call.warnings, *([warning] if warning else [])]
    err = "".join(f"taskproto: warning: {w}\n" for w in warnings)
    return 0, protocols.context(call.client, call.event, text), err

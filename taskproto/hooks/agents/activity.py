"""What each agent session did last, for the board: `<root>/activity/<session>.json`.

Every client hook call that names a session overwrites that session's file with the event and
its time: one small write and a rename, no fsync (it is a hint, not a record; a crash loses at
most the latest event, and a reader never sees a torn file). Standard library only: this runs on
the tool-call path. Nothing here ever fails a hook.
"""

from __future__ import annotations

import json
import os
import stat
import time

TYPE_CHECKING = False  # not `from typing`: importing typing costs a hot hook a measurable share
if TYPE_CHECKING:
    from typing import Any

    from taskproto.hooks.agents.common import Payload
    from taskproto.layout import Layout

FOLDER = "activity"
MAX_DETAIL = 200
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")

# The client's last event -> what the session is doing. Claude Code sends Notification when it
# asks the user (a permission, or input after a long wait); Gemini CLI its Notification; Codex
# PermissionRequest. Stop / AfterAgent end a turn: the agent waits for the next prompt.
WORKING, WAITING, IDLE, ENDED = "working", "waiting", "idle", "ended"
STATUS = {
    "UserPromptSubmit": WORKING,
    "BeforeAgent": WORKING,
    "PreToolUse": WORKING,
    "BeforeTool": WORKING,
    "PostToolUse": WORKING,
    "AfterTool": WORKING,
    "PreCompact": WORKING,
    "PreCompress": WORKING,
    "SubagentStop": WORKING,
    "Notification": WAITING,
    "PermissionRequest": WAITING,
    "SessionStart": IDLE,
    "Stop": IDLE,
    "AfterAgent": IDLE,
    "SessionEnd": ENDED,
}


def file_name(session: str) -> str:
    """A file name for `session`: itself when it is plain, else a digest (never a path)."""
    if 0 < len(session) <= 128 and session[0] != "." and all(c in _SAFE for c in session):
        return session + ".json"
    import hashlib

    return "h-" + hashlib.sha256(session.encode("utf-8", "replace")).hexdigest()[:40] + ".json"


def _detail(payload: Payload) -> str:
    for key in ("message", "tool_name", "reason", "source", "notification_type"):
        value = payload.text(key)
        if value:
            return value[:MAX_DETAIL]
    return ""


def record(layout: Layout, client: str, event: str, payload: Payload, cwd: str) -> None:
    """Overwrite the session's activity file (only where taskproto's root already exists)."""
    session = payload.session
    if not session:
        return
    folder = os.path.join(layout.root, FOLDER)
    data = json.dumps(
        {
            "session": session,
            "client": client,
            "event": event,
            "time": time.time(),
            "cwd": cwd,
            "detail": _detail(payload),
        }
    ).encode()
    name = file_name(session)
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
    try:
        try:
            st = os.lstat(folder)
        except FileNotFoundError:
            if not os.path.isdir(layout.root):
                return  # not a repository taskproto was set up in: leave no trace
            os.makedirs(folder, exist_ok=True)
            st = os.lstat(folder)
        if not stat.S_ISDIR(st.st_mode):
            return  # a planted link or file: write nothing through it
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)
        os.replace(tmp, os.path.join(folder, name))
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def read_all(root: str) -> dict[str, dict[str, Any]]:
    """Every session's latest activity, by session id (unreadable files are skipped)."""
    folder = os.path.join(root, FOLDER)
    result: dict[str, dict[str, Any]] = {}
    try:
        names = os.listdir(folder)
    except OSError:
        return result
    for name in names:
        if name.startswith(".") or not name.endswith(".json"):
            continue
        try:
            fd = os.open(os.path.join(folder, name), os.O_RDONLY | os.O_NOFOLLOW)
            with os.fdopen(fd, "rb") as fh:
                data = json.loads(fh.read(64 * 1024))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and isinstance(data.get("session"), str):
            if isinstance(data.get("time"), int | float) and isinstance(data.get("event"), str):
                result[data["session"]] = data
    return result


def status(event: str, waiting_on_user: bool = False) -> str:
    """working / waiting / idle / ended; an idle agent whose task waits on the user is waiting."""
    found = STATUS.get(event, WORKING)
    if found == IDLE and waiting_on_user:
        return WAITING
    return found

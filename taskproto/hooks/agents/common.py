"""What every agent-client hook needs, stdlib only: the payload, the repository, the tasks, the
client pid.

This module is on the hot path (every tool call), so it imports nothing beyond
`json` and `os`, reads task.json with `json` (not pydantic) and finds the
repository from git's own files without starting git.
"""

from __future__ import annotations

import os

from taskproto import plainjson as json
from taskproto.clients.detect import proc_stat
from taskproto.state.light import owned_task, read_task

TYPE_CHECKING = False  # not `from typing`: importing typing costs a hot hook a measurable share
if TYPE_CHECKING:
    from datetime import datetime
    from typing import Any

    from taskproto.layout import Layout
    from taskproto.state.light import TaskView

SHELLS = {"sh", "dash", "bash", "zsh", "ash", "ksh", "fish", "busybox"}
HOOK_CONTEXT_OPEN = "<hook_context>"
HOOK_CONTEXT_CLOSE = "</hook_context>"


class Payload:
    """The fields of a client's hook JSON that taskproto reads; anything odd becomes a warning."""

    def __init__(self, raw: bytes) -> None:
        self.warnings: list[str] = []
        data: Any = None
        try:
            data = json.loads(raw.decode("utf-8", "replace")) if raw.strip() else None
        except ValueError as exc:
            self.warnings.append(f"hook input is not JSON ({exc})")
        except RecursionError:  # nested deeper than Python reads: judged as unreadable
            self.warnings.append("hook input is nested too deeply to read")
        if data is not None and not isinstance(data, dict):
            self.warnings.append("hook input is not a JSON object")
            data = None
        self.valid = isinstance(data, dict)
        self.data: dict[str, Any] = data if isinstance(data, dict) else {}
        self.session = self.text("session_id")
        self.cwd = self.text("cwd")
        self.source = self.text("source")
        self.tool_name = self.text("tool_name")
        tool_input = self.data.get("tool_input")
        self.tool_input: dict[str, Any] = tool_input if isinstance(tool_input, dict) else {}
        self.before: dict[str, dict[str, Any]] = {}  # the sessions' last activity (a prompt's)

    def text(self, key: str) -> str:
        value = self.data.get(key)
        return value if isinstance(value, str) else ""

    @property
    def prompt(self) -> str:
        return strip_hook_context(self.text("prompt"))


class Call:
    """One hook call of a lifecycle event: who asked, about what, from where."""

    def __init__(
        self,
        client: str,
        event: str,
        payload: Payload,
        layout: Layout,
        cwd: str,
        env: dict[str, str],
        pid: int | None,
    ) -> None:
        self.client, self.event, self.payload, self.layout = client, event, payload, layout
        self.cwd, self.env, self.pid = cwd, env, pid
        self.session = payload.session
        self.warnings: list[str] = list(payload.warnings)


def strip_hook_context(prompt: str) -> str:
    """Gemini prepends SessionStart's context as `<hook_context>...</hook_context>`: not the user's
    words."""
    text = prompt.lstrip()
    while text.startswith(HOOK_CONTEXT_OPEN):
        end = text.find(HOOK_CONTEXT_CLOSE)
        if end < 0:
            break
        text = text[end + len(HOOK_CONTEXT_CLOSE) :].lstrip()
    return text


# --- the client process ------------------------------------------------------


def _exe_name(pid: int, comm: str) -> str:
    try:
        return os.path.basename(os.readlink(f"/proc/{pid}/exe"))
    except OSError:
        return comm


def client_pid(env: dict[str, str], start: int | None = None) -> int | None:
    """The long-lived client process: walk up from our parent, skipping shells.

    Claude Code names itself in CLAUDE_PID; Codex and Gemini start hooks as
    children of the client process itself. Never our own pid: we live for
    milliseconds.
    """
    named = env.get("CLAUDE_PID", "")
    if named.isdigit() and int(named) > 1 and os.path.exists(f"/proc/{named}"):
        return int(named)
    pid = start if start is not None else os.getppid()
    for _ in range(16):
        if pid <= 1:
            return None
        info = proc_stat(pid)
        if info is None:
            return pid if pid > 1 else None  # no /proc: the parent is the best we know
        comm, parent = info
        if comm not in SHELLS and _exe_name(pid, comm) not in SHELLS:
            return pid
        pid = parent
    return None


def own_task(layout: Layout, session: str, cwd: str) -> TaskView | None:
    """The task `session` owns: when it owns several, the one whose worktree holds cwd."""
    kind, task, _agent = layout.where(cwd) if cwd and session else ("outside", None, None)
    if kind == "worktree" and task:
        here = read_task(layout, task)
        if here.error is None and here.owner_session == session:
            return here
    return owned_task(layout, session)


def governing(layout: Layout, session: str, cwd: str) -> tuple[TaskView | None, str | None]:
    """The task a hook acts for and the agent whose worktree cwd is in (None: the task worktree or
    elsewhere).

    The session's own task first (of several, the one whose worktree holds cwd); else the task
    whose worktree holds cwd.
    """
    kind, task, agent = layout.where(cwd) if cwd else ("outside", None, None)
    mine = own_task(layout, session, cwd)
    if mine is not None:
        return mine, agent if (kind == "worktree" and task == mine.name) else None
    if kind == "worktree" and task:
        return read_task(layout, task), agent
    return None, None


HEARTBEAT_EVERY = 60.0  # seconds: at most one heartbeat write a minute per session


def shares_remote(layout: Layout) -> bool:
    """Whether the settings name a shared remote: then a due heartbeat renews the remote's claim
    too, through the engine (docs/remote.md), not heartbeat.json alone."""
    from taskproto.layout import SettingsError, read_settings

    try:
        settings, _ = read_settings(layout.main, need=(b"remote",))
    except (SettingsError, OSError):
        return False  # the engine's path says what is wrong with them
    return bool(settings.get("remote"))


def heartbeat_every(layout: Layout) -> float:
    """Seconds between two heartbeat writes: a minute, or a third of a shorter lease's length
    (as the board renews its claims), so a lease of seconds does not run out between turns."""
    from taskproto.layout import SettingsError, read_settings

    try:
        settings, _ = read_settings(layout.main, need=(b"lease_minutes",))
    except (SettingsError, OSError):
        return HEARTBEAT_EVERY
    lease = settings.get("lease_minutes")
    if isinstance(lease, bool) or not isinstance(lease, int | float) or lease <= 0:
        return HEARTBEAT_EVERY
    return min(HEARTBEAT_EVERY, lease * 60 / 3)


def last_beat(layout: Layout, session: str, task: TaskView) -> datetime | None:
    """When `session` last renewed its claim of `task`: its last heartbeat
    (`<task>/heartbeat.json`), else the claim's `owner.heartbeat_at`; None when unknown."""
    from datetime import datetime

    from taskproto.state import beat

    found = beat.read(layout.task_dir(task.name))
    at = found["at"] if found is not None and found["session"] == session else None
    if at is None:
        at = (task.owner or {}).get("heartbeat_at")
    try:
        last = datetime.fromisoformat(str(at))
    except ValueError:
        return None
    return last if last.tzinfo is not None else None


def heartbeat_due(layout: Layout, session: str, task: TaskView) -> bool:
    """Whether `session`'s heartbeat of `task` should be written now: its last one is a minute old
    or more (or unknown)."""
    from datetime import UTC, datetime

    last = last_beat(layout, session, task)
    return last is None or (datetime.now(UTC) - last).total_seconds() >= heartbeat_every(layout)

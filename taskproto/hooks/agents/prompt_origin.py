"""Whether a prompt that reaches the prompt hook while its task waits for the user can be the
user's, before it may resume the task (#39).

An agent can read the installed prompt-hook command from its settings and run it itself with a
forged "continue". The client's transcript does not help (Claude Code has not written the prompt
there yet when the hook runs, Codex neither), and the hook's environment is the agent's to set. What
holds is where the hook runs from and when:

- the session: a paused task with an owner is resumed from its owner's session only;
- the moment: the client submits a prompt between tool calls, never during one. When the owner's
  (or the payload's) session's last recorded event is a tool call that has not ended
  (PreToolUse/BeforeTool), the prompt comes from inside that tool call: an agent's command;
- the process: the client that owns the task (its pid in the claim) is an ancestor of a real hook
  call. A forgery left running in the background after its tool call ended was re-parented away
  from it (to init or a subreaper) and is told apart.

The limit (docs/agents.md): a process that stays a descendant of the owner's client after its tool
call ended (Claude Code's background Bash, Codex's persistent exec sessions) and runs the hook
command then is not told apart by these; the resumption is journaled with its session and time,
and the user sees it in `taskproto log`.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.state.light import TaskView

TOOL_STARTS = ("PreToolUse", "BeforeTool")


def forged(task: TaskView, session: str, before: dict[str, dict[str, Any]]) -> str | None:
    """Why this prompt cannot be the user's while `task` waits for them, or None. `before`: every
    session's last activity before this call (activity.read_all)."""
    owner = task.owner or {}
    owner_session = owner.get("session")
    if isinstance(owner_session, str) and owner_session and session != owner_session:
        return f"it names session {session!r}, and task {task.name} is session {owner_session!r}'s"
    for who in dict.fromkeys((session, owner_session)):
        last = before.get(who, {}) if isinstance(who, str) else {}
        if last.get("event") in TOOL_STARTS:
            return f"session {who}'s tool call ({last.get('detail') or 'a tool'}) is still running"
    pid = owner.get("pid")
    if isinstance(pid, int):
        from taskproto.clients.identity import _ancestors
        from taskproto.sessions import hostname, pid_alive

        if owner.get("host") == hostname() and pid_alive(pid) and pid not in _ancestors()[0]:
            return f"the client that owns task {task.name} (pid {pid}) did not run this hook"
    return None

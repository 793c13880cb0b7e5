"""Whether a prompt that reaches the prompt hook while its task waits for the user can be the
user's, before it may resume the task (#39).

An agent can read the installed prompt-hook command from its settings and run it itself with a
forged "continue". The client's transcript does not help (Claude Code has not written the prompt
there yet when the hook runs, Codex neither), and the hook's environment is the agent's to set. What
holds is where the hook runs from and when:

- the moment: the client submits a prompt between tool calls, never during one. When the last
  recorded event of the payload's session, of the task's owner, or of any session working in one
  of the task's worktrees is a tool call that has not ended (PreToolUse/BeforeTool, not one the
  hook denied: that one never ran), the prompt comes from inside that tool call: an agent's
  command (whatever session its payload names);
- the process: a prompt in the owner's session comes through the client that owns the claim (its
  pid), an ancestor of a real hook call. A forgery left running in the background after its tool
  call ended was re-parented away from it (to init or a subreaper) and is told apart.

The limit (docs/agents.md): a process that stays a descendant of the client after its tool call
ended (Claude Code's background Bash, Codex's persistent exec sessions) and runs the hook command
then is not told apart by these, nor one in the background naming a session that is not the
owner's (another session working in the worktree: its client's pid is not recorded); the
resumption is journaled with its session and time, and the user sees it in `taskproto log`.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.layout import Layout
    from taskproto.state.light import TaskView

TOOL_STARTS = ("PreToolUse", "BeforeTool")


def forged(
    layout: Layout, task: TaskView, session: str, before: dict[str, dict[str, Any]]
) -> str | None:
    """Why this prompt cannot be the user's while `task` waits for them, or None. `before`: every
    session's last activity before this call (activity.read_all)."""
    owner = task.owner or {}
    owner_session = owner.get("session")
    for who, last in before.items():
        if last.get("event") not in TOOL_STARTS or last.get("denied"):
            continue  # a tool call the hook denied never ran: nothing runs inside it
        cwd = last.get("cwd")
        here = layout.where(cwd) if isinstance(cwd, str) and cwd else ("outside", None, None)
        if who in (session, owner_session) or (here[0] == "worktree" and here[1] == task.name):
            return f"session {who}'s tool call ({last.get('detail') or 'a tool'}) is still running"
    pid = owner.get("pid")
    if session == owner_session and isinstance(pid, int):
        from taskproto.clients.identity import _ancestors
        from taskproto.sessions import hostname, pid_alive

        if owner.get("host") == hostname() and pid_alive(pid) and pid not in _ancestors()[0]:
            return f"the client that owns task {task.name} (pid {pid}) did not run this hook"
    return None

"""Which session an agent's command may act as: its client's own, whatever TASKPROTO_SESSION says.

An agent can set TASKPROTO_SESSION in ways the tool guard cannot read (a variable holding the name,
a loop, a sourced file, a decoded `eval`) and then act as another session. Two checks hold without
reading the command:

- the client's own session id, which the client gives every command its agent runs (seen with the
  real clients: Claude Code's Bash tool gets CLAUDE_CODE_SESSION_ID, Codex's shell CODEX_THREAD_ID
  and CODEX_SESSION_ID, all equal to the hook payloads' session_id; Gemini CLI's shell gets only
  GEMINI_CLI=1, no session id): a session that differs is refused;
- the process that owns the session's claim: when the session's task is owned by a live client
  process on this host that is not among this process's ancestors, this process runs under another
  client, so the session is not its own (an agent that also forges its client's variable is caught
  here, and so is one under Gemini CLI).

Standard library only: the quick paths resolve the session before anything else is loaded.
"""

from __future__ import annotations

import os

from taskproto.errors import UserOnly

# The variables in which each client gives its agent's commands the session id (docs/agents.md).
CLIENT_SESSION_VARIABLES = ("CLAUDE_CODE_SESSION_ID", "CODEX_THREAD_ID", "CODEX_SESSION_ID")
MAX_DEPTH = 64


def client_session(env: dict[str, str] | os._Environ[str]) -> tuple[str, str] | None:
    """(variable, session id) the agent client gave this process, or None."""
    for variable in CLIENT_SESSION_VARIABLES:
        value = env.get(variable, "").strip()
        if value:
            return variable, value
    return None


def check_session(session: str | None, origin: str, environ: dict[str, str] | None = None) -> None:
    """Refuse (UserOnly) when this process acts for an agent and `session` is not its client's."""
    if not session:
        return
    env = os.environ if environ is None else environ
    own = client_session(env)
    if own is not None and own[1] != session:
        raise UserOnly(
            f"acting as session {session!r} ({origin}; this agent's own session is {own[1]!r}, "
            f"from {own[0]})",
            f"{own[0]} is set",
        )
    held = _held_elsewhere(session, env)
    if held is not None:
        raise UserOnly(f"acting as session {session!r} ({origin}; {held})", "an agent client")


def _held_elsewhere(session: str, env: dict[str, str] | os._Environ[str]) -> str | None:
    """Why `session` belongs to another client process than this process's, or None: its task's
    owner pid is a live process on this host, an agent client runs this process, and that pid is
    not among this process's ancestors."""
    from taskproto.clients.detect import IGNORE_ANCESTRY

    if env.get(IGNORE_ANCESTRY) == "1":
        return None
    chain, client = _ancestors()
    if client is None:
        return None  # a person's command: they may act as any session
    pid = _owner_pid(session, env)
    if pid is None or pid in chain:
        return None
    return f"its task is owned by process {pid}, another agent client than this one's ({client})"


def _owner_pid(session: str, env: dict[str, str] | os._Environ[str]) -> int | None:
    """The live local pid recorded as the owner of `session`'s task (the session registry's)."""
    from taskproto.git.files import find_repo
    from taskproto.layout import layout_for
    from taskproto.sessions import hostname, pid_alive
    from taskproto.state import registry
    from taskproto.state.light import read_task

    environ = dict(env)
    entry = registry.lookup(session, environ)
    if entry is None:
        return None
    dirs = find_repo(entry["main"], environ)
    if dirs is None:
        return None
    view = read_task(layout_for(dirs, entry["root"], environ), entry["task"])
    owner = view.owner or {}
    pid = owner.get("pid")
    if view.owner_session != session or not isinstance(pid, int) or owner.get("host") != hostname():
        return None
    return pid if pid_alive(pid) else None


def _ancestors() -> tuple[set[int], str | None]:
    """This process and its ancestors' pids, and the agent client among the ancestors (None: none
    is one)."""
    from taskproto.clients.detect import _client_of, _parent

    chain: set[int] = {os.getpid()}
    client = None
    current = os.getppid()
    for _ in range(MAX_DEPTH):
        if current <= 1:
            break
        chain.add(current)
        client = client or _client_of(current)
        current = _parent(current)
    return chain, client

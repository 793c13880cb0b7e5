"""Is this process running for an agent? The CLI refuses the user's actions when it is.

Two signs, either enough:

- the environment an agent client gives the commands its agent runs. Seen with the real
  clients (docs/agents-clients-notes.md): Claude Code sets CLAUDECODE and
  CLAUDE_CODE_SESSION_ID, Codex CLI CODEX_SESSION_ID and CODEX_THREAD_ID, Gemini CLI
  GEMINI_CLI; taskproto's SessionStart hook adds TASKPROTO_AGENT to Claude Code's
  CLAUDE_ENV_FILE (which session the agent may act as: identity.py);
- an agent client among this process's ancestors (`/proc`): a command an agent starts in a
  shell that dropped those variables (`env -i`, a script) is still its descendant.

A process of the same user can always escape both (a detached daemon started with a
clean environment); the tool guard refuses such commands where it can read them, and the
journal and doctor show what was done afterwards (docs/agents.md).

Standard library only: the CLI asks before it loads anything else.
"""

from __future__ import annotations

import os

AGENT_VARIABLES = {
    "TASKPROTO_AGENT": "taskproto's SessionStart hook",
    "CLAUDECODE": "Claude Code",
    "CLAUDE_CODE_SESSION_ID": "Claude Code",
    "CODEX_SESSION_ID": "Codex CLI",
    "CODEX_THREAD_ID": "Codex CLI",
    "GEMINI_CLI": "Gemini CLI",
}
CLIENT_PROGRAMS = {"claude": "Claude Code", "codex": "Codex CLI", "gemini": "Gemini CLI"}
# Running taskproto's own test suite from inside an agent: the suite's processes descend from it.
IGNORE_ANCESTRY = "TASKPROTO_IGNORE_AGENT_ANCESTRY"
MAX_DEPTH = 64


INTERPRETERS = {"node", "nodejs", "bun", "deno", "sh", "bash", "dash", "zsh", "python", "python3"}


def _client_of(pid: int) -> str | None:
    """The agent client process `pid` is, if it is one: by its program's name, by its command name
    (a script run through its shebang), or by the script an interpreter runs (`node .../gemini`)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            argv = [a.decode("utf-8", "replace") for a in fh.read(4096).split(b"\0") if a]
        with open(f"/proc/{pid}/comm", "rb") as fh:
            comm = fh.read(64).decode("utf-8", "replace").strip()
    except OSError:
        return None
    names = {comm}
    if argv:
        names.add(os.path.basename(argv[0]))
        if os.path.basename(argv[0]) in INTERPRETERS and len(argv) > 1:
            names.add(os.path.basename(argv[1]))
    for name in names:
        if name in CLIENT_PROGRAMS:
            return CLIENT_PROGRAMS[name]
    return None


def proc_stat(pid: int) -> tuple[str, int] | None:
    """(the command name, the parent's pid) of process `pid`, from /proc; None when unknown."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            data = fh.read()
    except OSError:
        return None
    head, _, tail = data.rpartition(b")")
    try:
        return head.partition(b"(")[2].decode("utf-8", "replace"), int(tail.split()[1])
    except (IndexError, ValueError):
        return None


def _parent(pid: int) -> int:
    found = proc_stat(pid)
    return 0 if found is None else found[1]


def agent_context(environ: dict[str, str] | None = None, pid: int | None = None) -> str | None:
    """Why this process acts for an agent (one phrase), or None when nothing says so."""
    found = agent_client(environ, pid)
    return found[1] if found else None


def agent_client(
    environ: dict[str, str] | None = None, pid: int | None = None
) -> tuple[str, str] | None:
    """(which client, why this process acts for an agent), or None when nothing says so. The
    client is "an agent client" when only taskproto's own TASKPROTO_AGENT says so."""
    env = os.environ if environ is None else environ
    why = None
    for variable, program in AGENT_VARIABLES.items():
        if env.get(variable):
            why = why or f"{variable} is set ({program})"
            if program in CLIENT_PROGRAMS.values():
                return program, why
    if why is not None:
        return "an agent client", why
    if env.get(IGNORE_ANCESTRY) == "1":
        return None
    current = os.getppid() if pid is None else pid
    for _ in range(MAX_DEPTH):
        if current <= 1:
            return None
        client = _client_of(current)
        if client is not None:
            return client, f"it runs under {client} (pid {current})"
        current = _parent(current)
    return None

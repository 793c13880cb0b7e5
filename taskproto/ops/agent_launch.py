"""The one place an agent's command line and environment are built (`launch`).

The sandbox (#38) wraps what this returns: `launch` gives the argv, the environment and the
folder, and `sandboxed` puts bubblewrap in front of the argv when the agent's record says
`"sandbox": "bwrap"` (ops/agent_sandbox.py; docs/agents.md, "Running the agents").
"""

from __future__ import annotations

import os
import shlex

from taskproto.engine.prepare import read_record, worktree_env
from taskproto.errors import TaskprotoError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.config import Config

CLIENTS = ("claude", "codex", "gemini")
NAMES_ITS_OWN_SESSION = ("codex", "gemini")  # their session ids are bound from their hooks
# What a headless Claude Code may run without a permission prompt nobody is there to answer: the
# protocol's own steps (commit its work, `taskproto agent set ... --status complete`), no more.
# acceptEdits alone refuses every Bash call; taskproto's hooks still guard each one.
CLAUDE_HEADLESS_TOOLS = (
    "Bash(git add:*)",
    "Bash(git commit:*)",
    "Bash(git status:*)",
    "Bash(git diff:*)",
    "Bash(git log:*)",
    "Bash(taskproto:*)",
)


class Launch:
    """What to run for one attempt of an agent: argv, the variables added to the environment, and
    the folder it runs in."""

    def __init__(
        self, argv: list[str], env: dict[str, str], cwd: str, resumed: bool = False
    ) -> None:
        self.argv, self.env, self.cwd = argv, env, cwd
        self.resumed = resumed  # it goes on with the client's own session, bound before


def check_client(client: str) -> None:
    """A client's name, or a command line (the stand-in clients of the tests, a wrapper)."""
    try:
        argv = shlex.split(client)
    except ValueError as exc:  # an unclosed quote: shlex's words would not be the user's
        raise TaskprotoError(
            f"--client {client!r} cannot be read as a command line ({exc}); close its quotes"
        ) from None
    if not argv:
        raise TaskprotoError(
            "--client is empty; pass claude, codex, gemini or a command line to run"
        )


def named(client: str) -> tuple[str | None, list[str]]:
    """Which named client `client` runs, and the options given after its name: `codex
    --dangerously-bypass-hook-trust` is Codex with that option (its modes, its session resumed
    after a crash); any other command line is (None, its argv)."""
    argv = shlex.split(client)
    if argv and argv[0] in CLIENTS:
        return argv[0], argv[1:]
    return None, argv


# a headless client's own permission mode, unless the user's --client names one: edits accepted,
# the hooks still guard
MODE = {"claude": ["--permission-mode", "acceptEdits"], "gemini": ["--approval-mode", "auto_edit"]}


def _given(options: list[str], *flags: str) -> bool:
    """Whether the options after a named client's name set one of `flags` (`--flag` or
    `--flag=value`): theirs stands, and taskproto adds no second one the client would refuse."""
    return any(o in flags or o.split("=", 1)[0] in flags for o in options)


def launch(config: Config, record: dict[str, Any], attempt: int) -> Launch:
    """The command for `record` (run.json) on its `attempt`-th start (0 is the first): the client's
    own argv; TASKPROTO_SESSION (but for Codex and Gemini) and the worktree's ports in the
    environment."""
    headless, prompt = record["headless"], record.get("prompt") or ""
    client, options = named(record["client"])
    session = record["session"]
    cwd = str(config.agent_worktree(record["task"], record["agent"]))
    env = {
        "TASKPROTO_AGENT": "1",  # the CLI refuses the user's actions to it (clients/detect.py)
        "TASKPROTO_TASK": record["task"],
        "TASKPROTO_AGENT_NAME": record["agent"],
        "TASKPROTO_PROMPT": prompt,
    }
    if client not in NAMES_ITS_OWN_SESSION:
        # Claude Code takes this id (--session-id), and a command has no hooks to name another;
        # Codex and Gemini name their own in every hook call, and their agents act as that one
        # (`taskproto --session ID`), which a different TASKPROTO_SESSION would refuse.
        env["TASKPROTO_SESSION"] = session
    env.update(worktree_env(read_record(config.agent_worktree(record["task"], record["agent"]))))
    # after a crash, the client's own session goes on, once the client saved it: Claude Code's
    # under the id fixed here, Codex's and Gemini's under the one their first hook call named
    own = record.get("client_session") if client in NAMES_ITS_OWN_SESSION else session
    folder = _own_folder(config, record, client) if client else None
    if folder is not None and client in NAMES_ITS_OWN_SESSION:
        # in its sandbox, Codex's and Gemini's hooks name the channel's session, not theirs; but
        # the home is the agent's own, so the newest conversation saved there is this agent's
        own = "--last" if client == "codex" else "latest"
        resume = attempt > 0 and saved(client, None, folder)
    else:
        resume = (
            attempt > 0
            and client is not None
            and isinstance(own, str)
            and saved(client, own, folder)
        )
    argv = [client, *options] if client else options
    if client == "claude":
        # one killed before Claude Code saved anything starts again under the same free id
        argv += ["--resume" if resume else "--session-id", session]
        # headless, nobody answers a permission prompt: edits are accepted, the hooks still guard
        if headless:
            argv += ["-p", prompt]
            argv += [] if _given(options, "--permission-mode") else MODE["claude"]
            argv += ["--allowedTools", *CLAUDE_HEADLESS_TOOLS]
        argv += [] if headless or not prompt else [prompt]
    elif client == "codex":
        argv += ["exec"] if headless else []
        argv += ["resume", str(own)] if resume else []
        argv += [prompt] if headless or prompt else []
    elif client == "gemini":  # headless, as Claude Code: edits accepted, the hooks still guard
        argv += ["--resume", str(own)] if resume else []
        if headless:
            argv += ["-p", prompt]
            argv += [] if _given(options, "--approval-mode", "--yolo", "-y") else MODE["gemini"]
        else:
            argv += ["-i", prompt] if prompt and not resume else []
    command = Launch(argv, env, cwd, resume and client in NAMES_ITS_OWN_SESSION)
    return sandboxed(
        config, record["task"], record["agent"], command, record.get("sandbox", "none")
    )


def _own_folder(config: Config, record: dict[str, Any], client: str) -> str | None:
    """A sandboxed client's folder: its copy in the agent's own home (sandbox/clients.py)."""
    if record.get("sandbox") != "bwrap":
        return None
    from taskproto.sandbox.clients import FOLDER

    if client not in FOLDER:
        return None
    home = config.agent_dir(record["task"], record["agent"]) / "sandbox" / "home"
    return str(home / FOLDER[client])


def saved(client: str, session: str | None, folder: str | None = None) -> bool:
    """Whether the client saved a conversation under `session` (None: any), so its resume finds
    it: Claude Code's transcript (`<config dir>/projects/<folder>/<session>.jsonl`), Codex's
    rollout (`$CODEX_HOME/sessions/<date>/rollout-<time>-<session>.jsonl`), Gemini's chat
    (`<home>/.gemini/tmp/<project>/chats/session-<time>-<first 8 of session>.jsonl`).
    `folder`: the client's folder when it is not the user's (a sandboxed agent's own copy)."""
    import glob

    home = os.path.expanduser("~")
    session = "*" if session is None else glob.escape(session)
    if client == "claude":
        folder = folder or os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(home, ".claude")
        pattern = os.path.join(glob.escape(folder), "projects", "*", f"{session}.jsonl")
    elif client == "codex":
        folder = folder or os.environ.get("CODEX_HOME") or os.path.join(home, ".codex")
        pattern = os.path.join(glob.escape(folder), "sessions", "*", "*", "*", f"*{session}.jsonl")
    elif client == "gemini":
        folder = folder or os.path.join(os.environ.get("GEMINI_CLI_HOME") or home, ".gemini")
        chat = f"session-*-{session[:8]}.jsonl" if session != "*" else "session-*.jsonl"
        pattern = os.path.join(glob.escape(folder), "tmp", "*", "chats", chat)
        # Gemini resumes only a chat that holds a message of the conversation: not one with its
        # set-up context alone, nor a prompt that begins with a hook's context (taskproto's
        # SessionStart adds one): a client killed before its model answered starts anew
        return any(_resumable(found) for found in glob.glob(pattern))
    else:
        return False
    return bool(glob.glob(pattern))


def _resumable(chat: str) -> bool:
    """Whether a Gemini chat holds a message its `--resume` takes (its own rule: a reply, or a
    prompt that is not a command or a context block)."""
    from taskproto import plainjson as json

    try:
        with open(chat, "rb") as fh:
            lines = [line for line in fh if line.startswith(b'{"id":')]
    except OSError:
        return False
    for line in lines:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        content = message.get("content")
        parts = content if isinstance(content, list) else [{"text": content}]
        text = "".join(str(p.get("text") or "") for p in parts if isinstance(p, dict)).strip()
        if message.get("type") == "gemini" and (text or message.get("toolCalls")):
            return True
        if message.get("type") == "user" and text and not text.startswith(_NOT_RESUMED):
            return True
    return False


_NOT_RESUMED = ("/", "?", "<session_context>", "<hook_context>")


def sandboxed(config: Config, task: str, agent: str, command: Launch, sandbox: str) -> Launch:
    """`command` in the agent's sandbox when `sandbox` is `bwrap`; `none` runs it as it is."""
    if sandbox != "bwrap":
        return command
    from taskproto.ops.agent_sandbox import wrap

    # bubblewrap enters the worktree itself (--chdir); the wrapper and the log writer, outside the
    # sandbox, work beside it, not in it (doctor's agent-outside-sandbox would rightly flag them)
    client = command.argv[0] if command.argv and command.argv[0] in CLIENTS else None
    argv = [*wrap(config, task, agent, command.env, client), *command.argv]
    return Launch(argv, command.env, str(config.agent_dir(task, agent)))


def environment(command: Launch) -> dict[str, str]:
    """The whole environment of the agent's process: ours, with the launch's variables on top."""
    return {**os.environ, **command.env}


def findable(client: str, path: str | None) -> None:
    """Refuse a client whose program is not on the PATH agents get: it would only crash through
    its retry budget. That PATH is the supervisor's, from the command that started it, which is
    not always the shell that ran `agent start` (its own check passed there)."""
    import shutil

    name, argv = named(client)
    program = name or argv[0]
    if os.sep not in program and shutil.which(program, path=path) is None:
        raise TaskprotoError(
            f"{program!r} is not on the PATH of the agents' supervisor (pid {os.getpid()}), which "
            "gives agents the environment of the command that started it, not of each `agent "
            "start`; stop every agent (`taskproto agent ps`), wait until the supervisor exits "
            "(30 s after the last one), then start them again from the shell that has it"
        )

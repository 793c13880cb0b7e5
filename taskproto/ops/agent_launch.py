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
SANDBOXES = ("auto", "bwrap", "none")


class Launch:
    """What to run for one attempt of an agent: argv, the variables added to the environment, and
    the folder it runs in."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: str) -> None:
        self.argv, self.env, self.cwd = argv, env, cwd


def check_client(client: str) -> None:
    """A client's name, or a command line (the stand-in clients of the tests, a wrapper)."""
    if client not in CLIENTS and not shlex.split(client):
        raise TaskprotoError(
            "--client is empty; pass claude, codex, gemini or a command line to run"
        )


def launch(config: Config, record: dict[str, Any], attempt: int) -> Launch:
    """The command for `record` (run.json) on its `attempt`-th start (0 is the first): the client's
    own argv; TASKPROTO_SESSION (but for Codex and Gemini) and the worktree's ports in the
    environment."""
    client, headless, prompt = record["client"], record["headless"], record.get("prompt") or ""
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
    if client == "claude":
        # the session's id is fixed here; a restart resumes the same conversation, once Claude
        # Code has saved it (one killed before that has none: the id is still free to take)
        resume = attempt > 0 and claude_saved(session, _own_config(config, record))
        argv = ["claude", "--resume" if resume else "--session-id", session]
        # headless, nobody answers a permission prompt: edits are accepted, the hooks still guard
        argv += ["-p", prompt, "--permission-mode", "acceptEdits"] if headless else []
        argv += [] if headless or not prompt else [prompt]
    elif client == "codex":
        argv = ["codex", "exec", prompt] if headless else ["codex"] + ([prompt] if prompt else [])
    elif client == "gemini":  # headless, as Claude Code: edits accepted, the hooks still guard
        argv = (
            ["gemini", "-p", prompt, "--approval-mode", "auto_edit"]
            if headless
            else ["gemini"] + (["-i", prompt] if prompt else [])
        )
    else:
        argv = shlex.split(client)
    command = Launch(argv, env, cwd)
    return sandboxed(
        config, record["task"], record["agent"], command, record.get("sandbox", "none")
    )


def _own_config(config: Config, record: dict[str, Any]) -> str | None:
    """A sandboxed Claude Code's folder: its copy in the agent's own home (sandbox/clients.py)."""
    if record.get("sandbox") != "bwrap":
        return None
    return str(config.agent_dir(record["task"], record["agent"]) / "sandbox" / "home" / ".claude")


def claude_saved(session: str, config_dir: str | None = None) -> bool:
    """Whether Claude Code saved a conversation under `session` (its transcript,
    `<config dir>/projects/<folder>/<session>.jsonl`), so `--resume` finds it. `config_dir`: where
    its folder is (a sandboxed agent's own copy), else the user's."""
    import glob

    config_dir = (
        config_dir or os.environ.get("CLAUDE_CONFIG_DIR") or os.path.expanduser("~/.claude")
    )
    return bool(
        glob.glob(os.path.join(glob.escape(config_dir), "projects", "*", f"{session}.jsonl"))
    )


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

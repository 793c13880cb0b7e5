"""Adapters from the agent clients' hooks (Claude Code, Codex CLI, Gemini CLI) to taskproto.

`run_agent_hook(client, event, stdin_bytes, env)` answers one hook call;
`install` merges the hook settings into each client's files. Kept import-light:
the installed hook command enters through `entry.py` on every tool call.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from taskproto.hooks.agents.runner import run_agent_hook as run_agent_hook


def __getattr__(name: str) -> object:
    if name == "run_agent_hook":
        from taskproto.hooks.agents.runner import run_agent_hook

        return run_agent_hook
    raise AttributeError(name)

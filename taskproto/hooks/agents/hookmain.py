"""The agent-client hook's process: read the payload, answer (runner.py, or an agent's channel
inside its sandbox), print, return the exit status. Run by entry.py and by the launcher `init`
writes (clients/launcher.py), which imports it: a module's compiled form is cached, a script's
is compiled on every start. (Launchers of every version call `main`: keep its name.)"""

from __future__ import annotations

import os
import sys


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        sys.stderr.write(
            "taskproto: warning: usage: entry.py CLIENT EVENT (payload on stdin); nothing done\n"
        )
        return 0
    try:
        data = sys.stdin.buffer.read()
    except (OSError, ValueError):
        data = b""
    if os.environ.get("TASKPROTO_CHANNEL"):  # in an agent's sandbox: answered outside, as the agent
        from taskproto.sandbox.channel import hook

        code, out, err = hook(argv[0], argv[1], data)
    else:
        from taskproto.hooks.agents.runner import run_agent_hook

        code, out, err = run_agent_hook(argv[0], argv[1], data, dict(os.environ))
    if out:
        sys.stdout.write(out)
    if err:
        sys.stderr.write(err)
    return code

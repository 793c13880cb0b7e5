"""What an installed agent-client hook runs: `python -I -S <this file> CLIENT EVENT` (payload on
stdin).

`-S` skips site-packages and every .pth file in it, most of a no-op hook's
cost; the tool-call decisions need only the standard library. The package is
found from this file's own location; paths that need the engine turn
site-packages on themselves (runner.enable_site_packages).
"""

from __future__ import annotations

import os
import sys

# The folder that holds the `taskproto` package replaces this script's own folder on the path.
sys.path[0] = os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
)


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


raise SystemExit(main(sys.argv[1:]))

"""What an installed agent-client hook runs: `python -I -S <this file> CLIENT EVENT` (payload on
stdin), directly or through the launcher `init` writes (clients/launcher.py).

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

from taskproto.hooks.agents.hookmain import main  # noqa: E402 - after the path is set

raise SystemExit(main(sys.argv[1:]))

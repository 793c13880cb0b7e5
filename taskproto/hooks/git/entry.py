"""What an installed git hook script runs: `python -I -S <this file> HOOK [git's arguments]`.

`-S` skips site-packages (and every .pth file in it): that start-up cost is most
of a no-op hook's time, and the decisions need only the standard library. The
package is found from this file's own location; the few paths that need
pydantic turn site-packages on themselves (hooks/hookconfig.py).
"""

from __future__ import annotations

import os
import sys

# The folder that holds the `taskproto` package replaces this script's own folder on the path.
sys.path[0] = os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
)

from taskproto.hooks.git.handlers import main  # noqa: E402 - after the path is set

raise SystemExit(main(sys.argv[1:]))

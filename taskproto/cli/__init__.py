"""The `taskproto` command: click commands, thin, over the library.

Exit codes (one table for the whole CLI): 0 success; 1 refused or failed, with a
one-line reason on stderr; 2 usage error; 3 unexpected internal error, with the
traceback written to a log file whose path is printed.

This module imports nothing heavy: `task list`, `task show`, `turn`, `transition`, `fire`,
`handoff`, `subtask add|done|fail|skip` and `agent set` are answered on the standard library when
they can be (cli/quick.py); every other command goes to click (cli/app.py), and so does a shell
asking for completions (cli/completion.py).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(argv) if argv is not None else sys.argv[1:]
    if os.environ.get("TASKPROTO_CHANNEL"):  # in an agent's sandbox: run outside, as the agent
        from taskproto.sandbox.channel import cli

        return cli(args)
    # a shell asking for completions (cli/completion.py COMPLETE_VAR): click answers
    if "_TASKPROTO_COMPLETE" not in os.environ:
        from taskproto.cli.quick import answer

        code = answer(args)
        if code is not None:
            return code
    from taskproto.cli.app import run

    return run(args)

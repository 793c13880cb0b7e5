"""The `taskproto` command: click commands, thin, over the library.

Exit codes (one table for the whole CLI): 0 success; 1 refused or failed, with a
one-line reason on stderr; 2 usage error; 3 unexpected internal error, with the
traceback written to a log file whose path is printed. Output into a pipe whose reader went
(`| head -1`) stops there, and the command exits as if all of it had been read: 0, no message.

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


def run() -> None:
    """The command's process (bin/taskproto, `python -m taskproto`): `main`, then exit with its
    code. A read the quick front answered (cli/quick.py `answered`) ends the process at once:
    its output is written and flushed, it holds no file open and no thread runs, and what is
    left is the interpreter tearing down every row it read, a tenth of `task list`'s time at
    10,000 tasks (docs/performance.md). Everything else exits as Python does."""
    code = main()
    quick = sys.modules.get("taskproto.cli.quick")
    if quick is not None and getattr(quick, "answered", False):
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        else:
            os._exit(code)
    sys.exit(code)

"""What the quick paths' commands share (cli/quick.py, cli/quick_team.py): reading their arguments
as click would, making a change on the quick write path and printing it, and what every command
does after a change. Standard library only."""

from __future__ import annotations

import sys

from taskproto import plainjson as json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from taskproto.config import Config
    from taskproto.hooks.quicksave import Moved


def dumps(data: Any) -> str:
    """`data` as the full commands print it with --json (cli/common.py `emit`)."""
    return json.dumps(data, indent=2, default=str, sort_keys=False) + "\n"


def options(
    args: list[str], known: tuple[str, ...]
) -> tuple[list[str], bool, dict[str, str]] | None:
    """(the words, --json, the `known` options' values) of a command's arguments, each option
    given once, as click reads them (`--opt VALUE`, whatever VALUE is, or `--opt=VALUE`); None
    for anything else (--force, --help, an option twice or without its value, `--json` twice):
    the full command's, in click's words."""
    words: list[str] = []
    given: dict[str, str] = {}
    as_json = False
    rest = iter(args)
    for arg in rest:
        option, eq, value = arg.partition("=")
        if arg == "--json" and not as_json:
            as_json = True
        elif option in known and option not in given:
            found = value if eq else next(rest, None)
            if found is None:
                return None
            given[option] = found
        elif arg.startswith("-"):
            return None
        else:
            words.append(arg)
    return words, as_json, given


def change(
    as_json: bool,
    make: Callable[[Config, str | None], Moved],
    text: Callable[[Moved], str],
) -> int | None:
    """Make a change on the quick path (`make`, given the config and this session) and print
    `text` of it, as every command does after a change; None when it declined (the full command
    then runs), else the exit code."""
    from taskproto.clients.terminal import resolve
    from taskproto.config import load_config
    from taskproto.errors import TaskprotoError, refusal_line
    from taskproto.hooks.quicksave import Declined

    session = resolve().session
    try:
        config = load_config()
        moved = make(config, session)
    except Declined:
        return None
    except TaskprotoError as exc:  # the lock not taken in time, a save that failed
        sys.stderr.write(refusal_line(exc, as_json) + "\n")
        return int(exc.exit_code)
    print_text(text(moved))
    after_change(config, moved.task, session)
    return 0


def print_text(text: str) -> None:
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        pass


def after_change(config: Any, name: str, session: str | None) -> None:
    """What every command does after it changed a task (cli/app.py `run`): renew the session's
    heartbeat on it, and the offer the next SessionStart shows in `sh`."""
    from taskproto.hooks.agents.offer import refresh
    from taskproto.state.light import renew_heartbeats

    if session:
        renew_heartbeats(config.layout, [name], session)
    refresh(config.layout)

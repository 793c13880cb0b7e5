"""What the quick front's commands share (cli/quick.py, cli/quick_team.py): reading their
arguments as click would, and making a change through the engine and printing it as the click
commands do. No click."""

from __future__ import annotations

import os
import sys

from taskproto import plainjson as json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from taskproto.engine import Engine


def split_csv(value: str | None) -> list[str]:
    """`a, b,,c` -> ["a", "b", "c"] (a comma-separated option: --agents, --after)."""
    if not value:
        return []
    return [item.strip() for item in value.split(",") if item.strip()]


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


def change(as_json: bool, make: Callable[[Engine, str | None], tuple[Any, list[str]]]) -> int:
    """Make a change through the engine (`make`, given the engine and this session, returns what
    the command prints: the JSON and the lines) and print it, as the click commands do: the
    engine's warnings, one line for a refusal, a crash log for what was not expected; then what
    every command does after a change."""
    from taskproto.clients.detect import agent_context
    from taskproto.clients.terminal import resolve
    from taskproto.config import load_config
    from taskproto.engine import USER, Actor, Engine
    from taskproto.errors import TaskNotFound, TaskprotoError, refusal_line

    engine = None
    try:
        session = resolve().session
        why = agent_context()
        engine = Engine(load_config(), Actor(agent=True, why=why) if why else USER)
        data, lines = make(engine, session)
    except TaskprotoError as exc:
        if isinstance(exc, TaskNotFound):  # landed or removed here: said as the click path does
            from taskproto.engine.gone import no_longer_here

            exc = no_longer_here(engine, exc)
        _warnings(engine)
        sys.stderr.write(refusal_line(exc, as_json) + "\n")
        return int(exc.exit_code)
    except Exception as exc:  # noqa: BLE001 - as the click path's one handler (cli/app.py)
        from taskproto.cli.crash import unexpected

        line, code = unexpected(exc, as_json)
        sys.stderr.write(line + "\n")
        return code
    _warnings(engine)
    print_text(dumps(data) if as_json else "".join(line + "\n" for line in lines))
    if session:
        said = len(engine.warnings)
        try:
            engine.renew_heartbeat(session)
        except TaskprotoError:
            pass
        for warning in engine.warnings[said:]:  # a heartbeat file set aside, named
            sys.stderr.write(f"taskproto: warning: {warning}\n")
    from taskproto.hooks.agents.offer import refresh

    refresh(engine.config.layout)
    return 0


def _warnings(engine: Any) -> None:
    for warning in engine.warnings if engine is not None else ():
        sys.stderr.write(f"taskproto: warning: {warning}\n")


def print_text(text: str) -> None:
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        discard_stdout()


def discard_stdout() -> None:
    """Stdout's reader went (`| head -1`): what is still buffered, and anything written after,
    goes nowhere, so the interpreter's last flush at exit does not fail (exit 120 and a
    traceback on stderr) when stdout is buffered, as it is unless PYTHONUNBUFFERED is set."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, sys.stdout.fileno())
    os.close(null)

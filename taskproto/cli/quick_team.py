"""phone-a-team's `round review`, `round decide` and `round fail` on the quick front (cli/quick.py):
the arguments read as click reads them, the change made by ops/phone_a_team.py through the engine,
and what cli/phone_a_team.py prints of it (cli/render.py `round_moved`, `round_lines`,
`round_fail_lines`). Anything odd goes to the click command before anything is written.
"""

from __future__ import annotations

import os

from taskproto.cli.quick_common import change, options

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.engine import Engine

# the options each verb takes besides --json (cli/phone_a_team.py; --force is the click command's)
ROUND = {
    "review": ("--output",),
    "decide": ("--rubric", "--note"),
    "fail": ("--backend", "--reason"),
}
REASONS = ("rate-limited", "timeout", "crash")  # `round fail --reason` (click.Choice)


def answer(args: list[str]) -> int | None:
    """`round review NAME [--output FILE]`, `round decide NAME --rubric R [--note TEXT]` or `round
    fail NAME --backend B --reason R`, with `--json`: the exit code, or None when the click
    command must run."""
    verb = args[1]
    parsed = options(args[2:], ROUND[verb]) if verb in ROUND else None
    if parsed is None or len(parsed[0]) != 1:
        return None
    (name,), as_json, given = parsed
    if verb == "fail" and (given.get("--reason") not in REASONS or "--backend" not in given):
        return None  # click says what is missing or allowed
    if verb == "decide" and "--rubric" not in given:
        return None  # click says it is required
    output = given.get("--output")
    if output is not None and os.path.isdir(output):
        return None  # click refuses a folder in its words

    def make(engine: Engine, session: str | None) -> tuple[Any, list[str]]:
        from taskproto.cli.render import round_fail_lines, round_lines, round_moved
        from taskproto.ops import phone_a_team as team

        before = engine.load(name).state
        if verb == "fail":
            result = team.fail(engine, name, given["--backend"], given["--reason"], session)
            task = result.task
        elif verb == "review":
            task = team.review(engine, name, _read(output), session)
        else:
            from taskproto.machine.builtin.phone_a_team import parse_rubric

            rubric = parse_rubric(given["--rubric"])
            task = team.decide(engine, name, rubric, given.get("--note"), session)
        c = task.counters
        data = round_moved(name, before, task.state, c.round, task.context, task.revision)
        if verb == "fail":
            data.update(action=result.outcome, message=result.message)
            return data, round_fail_lines(data)
        return data, round_lines(data)

    return change(as_json, make)


def _read(given: str | None) -> str | None:
    """The text of `--output FILE` as the click command reads it (one clear line if it cannot be
    read)."""
    if given is None:
        return None
    from taskproto.errors import TaskprotoError

    try:
        with open(os.path.abspath(given), encoding="utf-8", errors="replace") as fh:
            return fh.read()
    except OSError as exc:
        raise TaskprotoError(
            f"--output {given}: {exc.strerror or exc}; pass a file to read"
        ) from None

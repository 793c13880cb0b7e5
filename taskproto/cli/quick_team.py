"""phone-a-team's `round review` and `round decide` on the quick path (cli/quick.py): the change
hooks/move.py makes with the workflow's own guards and effects, and what cli/phone_a_team.py
prints of it (cli/render.py `round_moved`, `round_lines`), before click, pydantic or the engine
are imported.

`round decide` fires `decide` and then the first of `converge`, `iterate` and `force_stop` whose
guards pass, as one change, as ops/phone_a_team.py `decide` does through the engine. Anything the
quick path does not find plain, every refusal and every odd argument go to the full command,
before anything is written. tests/hooks/test_move_rounds.py runs each both ways.
"""

from __future__ import annotations

from taskproto.cli.quick_common import change, dumps, options

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.config import Config
    from taskproto.hooks.quicksave import Moved

# the options each verb takes besides --json (cli/phone_a_team.py; --force is the full command's)
ROUND = {"review": ("--output",), "decide": ("--rubric", "--note")}


def answer(args: list[str]) -> int | None:
    """`round review NAME [--output FILE]` or `round decide NAME --rubric R [--note TEXT]`, with
    `--json`: the exit code, or None when the full command must run."""
    verb = args[1]
    parsed = options(args[2:], ROUND[verb]) if verb in ROUND else None
    if parsed is None or len(parsed[0]) != 1:
        return None
    (name,), as_json, given = parsed
    from taskproto.errors import TaskprotoError
    from taskproto.hooks import move
    from taskproto.machine.builtin import phone_a_team as team

    if verb == "review":
        output = _output(given.get("--output"))
        if output is False:
            return None  # the full command says what is wrong with the file
        firings = [move.Firing(("review",), params={"output": output})]
    else:
        if "--rubric" not in given:
            return None  # click says it is required
        try:
            rubric = team.parse_rubric(given["--rubric"])
        except TaskprotoError:
            return None  # the full command refuses in the same words
        note = given.get("--note")
        firings = [
            move.Firing(("decide",), params={"rubric": rubric, "note": note}, note=note),
            move.Firing(("converge", "iterate", "force_stop"), params={"note": note}, note=note),
        ]

    def message(before: dict[str, Any], new: dict[str, Any], trigger: str) -> str:
        round_ = before["counters"]["round"]
        if verb == "review":
            return f"review: round {round_}"
        return f"decide: round {round_} -> {new['state']} ({trigger})"

    def make(config: Config, session: str | None) -> Moved:
        return move.chain(config, name, session, firings, team.NAME, message)

    def text(moved: Moved) -> str:
        from taskproto.cli.render import round_lines, round_moved

        new = moved.data
        data = round_moved(
            name,
            moved.before,
            new["state"],
            new["counters"]["round"],
            new["context"],
            new["revision"],
        )
        if as_json:
            return dumps(data)
        return "".join(line + "\n" for line in round_lines(data))

    return change(as_json, make, text)


def _output(given: str | None) -> str | None | bool:
    """The text of `--output FILE`, as the full command reads it; None without it; False when it
    cannot be read (a folder, a missing file: the full command says so)."""
    if given is None:
        return None
    from pathlib import Path

    path = Path(given).absolute()
    try:
        if path.is_dir():
            return False
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False

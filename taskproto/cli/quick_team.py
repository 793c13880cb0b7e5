"""phone-a-team's `round review`, `round decide` and `round fail` on the quick path (cli/quick.py):
the change hooks/move.py makes with the workflow's own guards, effects and functions, and what
cli/phone_a_team.py prints of it (cli/render.py `round_moved`, `round_lines`), before click,
pydantic or the engine are imported.

`round decide` fires `decide` and then the first of `converge`, `iterate` and `force_stop` whose
guards pass, as one change, as ops/phone_a_team.py `decide` does through the engine. `round fail`
records the failure (the workflow's `record_failure`, a note in the log) and, when no backend is
left this round, fires the first of `fail_stop` and `retry_round` whose guards pass, as
ops/phone_a_team.py `apply_failure` does. Anything the quick path does not find plain, every
refusal and every odd argument go to the full command, before anything is written.
tests/hooks/test_move_rounds.py runs each both ways.
"""

from __future__ import annotations

from taskproto.cli.quick_common import change, dumps, options
from taskproto.machine.steps import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.config import Config
    from taskproto.hooks.move import Prepare
    from taskproto.hooks.quicksave import Moved

# the options each verb takes besides --json (cli/phone_a_team.py; --force is the full command's)
ROUND = {
    "review": ("--output",),
    "decide": ("--rubric", "--note"),
    "fail": ("--backend", "--reason"),
}
REASONS = ("rate-limited", "timeout", "crash")  # `round fail --reason` (click.Choice)


def answer(args: list[str]) -> int | None:
    """`round review NAME [--output FILE]`, `round decide NAME --rubric R [--note TEXT]` or `round
    fail NAME --backend B --reason R`, with `--json`: the exit code, or None when the full command
    must run."""
    verb = args[1]
    parsed = options(args[2:], ROUND[verb]) if verb in ROUND else None
    if parsed is None or len(parsed[0]) != 1:
        return None
    (name,), as_json, given = parsed
    from taskproto.errors import TaskprotoError
    from taskproto.hooks import move
    from taskproto.machine.builtin import phone_a_team as team

    failure: dict[str, Any] = {}  # what `round fail`'s first step found: its note, who is up
    prepare = None
    if verb == "fail":
        if given.get("--reason") not in REASONS or "--backend" not in given:
            return None  # click says what is missing or allowed
        firings: list[move.Firing] = []
        prepare = _failure(given["--backend"], given["--reason"], failure)
    elif verb == "review":
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
        return team.round_message(verb, round_, new["state"], trigger, failure.get("note"))

    def make(config: Config, session: str | None) -> Moved:
        return move.chain(config, name, session, firings, team.NAME, message, prepare)

    def text(moved: Moved) -> str:
        from taskproto.cli.render import round_fail_lines, round_lines, round_moved

        new = moved.data
        data = round_moved(
            name,
            moved.before,
            new["state"],
            new["counters"]["round"],
            new["context"],
            new["revision"],
        )
        lines = round_lines
        if verb == "fail":  # what the failure did, as ops/phone_a_team.py `apply_failure` says it
            trigger = new["transition_log"][-1]["trigger"]
            action = "continue" if trigger == "backend_failure" else trigger
            view: Any = Record(new)  # the task as the workflow's functions read it
            message = team.failure_message(
                failure["note"], failure["up"], action, failure["round"], view
            )
            data.update(action=action, message=message)
            lines = round_fail_lines
        if as_json:
            return dumps(data)
        return "".join(line + "\n" for line in lines(data))

    return change(as_json, make, text)


def _failure(backend: str, reason: str, failure: dict[str, Any]) -> Prepare:
    """`round fail`'s first step on task.json's JSON, under the lock: the failure recorded by the
    workflow's own function, its note logged; then, when no backend is left this round, the first
    of `fail_stop` and `retry_round` whose guards pass (the engine's `apply_failure`)."""
    from datetime import UTC, datetime

    from taskproto.hooks import move, quicksave
    from taskproto.machine.builtin import phone_a_team as team

    def prepare(
        data: dict[str, Any], session: str | None
    ) -> tuple[dict[str, Any], list[move.Firing]]:
        view: Any = Record(data)  # the task as the workflow's functions read it
        round_ = data["counters"]["round"]
        note, up = team.record_failure(view, backend, reason)  # raises: the engine refuses
        failure.update(note=note, up=up, round=round_)
        at = quicksave.time_text(datetime.now(UTC))
        state = data["state"]
        entry = quicksave.log_entry(state, state, "backend_failure", at, session, "note", note)
        firings = [] if up else [move.Firing(("fail_stop", "retry_round"), note=note)]
        return entry, firings

    return prepare


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

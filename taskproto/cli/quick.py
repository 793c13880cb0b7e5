"""The quick paths: `task list`, `task show` and tight-loop's `turn` answered, and plain changes
(`transition`, `fire`, tight-loop's `handoff` and `subtask add|done|fail|skip`, `agent set`, and
phone-a-team's `round review|decide|fail` in cli/quick_team.py) made, on the standard library,
before click, pydantic or the engine are imported.

It prints exactly what the full command prints: the JSON is built by state/summary.py and the text
by cli/render.py, which the full command uses too, and tests/cli/test_quick_read_path.py compares
the two on real repositories. It answers only when everything is plain (hooks/tasks.py says what
is not); otherwise it answers nothing and the full command runs, decides and says what is wrong.
Options it does not know, a settings error and a plan-task's plan go to the full command too.

A change is made here only when hooks/move.py (transitions) or hooks/quicksave.py (the rest)
finds it plain; those modules say what plain is. Anything else, and every refusal, goes to the
full command before anything is written. tests/hooks/test_move.py, test_move_tight_loop.py and
test_quick_agent_set.py run the same commands both ways and compare what they printed and wrote.
`TASKPROTO_QUICK=0` turns both off.
"""

from __future__ import annotations

import os
import sys

from taskproto.cli.quick_common import change, dumps, options
from taskproto.hooks.tasks import TaskReader, Unusual
from taskproto.machine.steps import Record
from taskproto.state import summary

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from taskproto.config import Config
    from taskproto.hooks.quicksave import Moved

OFF_ENV = "TASKPROTO_QUICK"


def answer(args: list[str]) -> int | None:
    """The exit code when the quick path answered `args`; None when the full command must run."""
    if os.environ.get(OFF_ENV) == "0" or len(args) < 2:
        return None
    if args[0] in ("transition", "fire"):
        return _move(args)
    if args[0] == "handoff":
        return _handoff(args)
    if args[0] == "subtask":
        return _subtask(args)
    if args[0] == "agent" and args[1] == "set":
        return _agent_set(args[2:])
    if args[0] == "round":
        from taskproto.cli import quick_team

        return quick_team.answer(args)
    read = _read(args)
    if read is None:
        return None
    try:
        from taskproto.config import load_config

        reader = TaskReader(load_config())
        text = read(reader)
    except Exception:  # noqa: BLE001 - whatever it is, the full command decides and says why
        return None
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        return 0
    from taskproto.clients.terminal import resolve

    session = resolve().session
    if session:
        reader.renew(session)
    return 0


def _read(args: list[str]) -> Callable[[TaskReader], str] | None:
    """What prints the answer to `task list`, `task show NAME` or `turn NAME [--phase PHASE]`,
    each with `--json` or not; None for anything else."""
    if args[0] == "turn":
        parsed = options(args[1:], ("--phase",))
        if parsed is None or len(parsed[0]) != 1:
            return None
        (name,), as_json, given = parsed
        return lambda reader: _turn(reader, name, as_json, given.get("--phase"))
    if args[0] != "task" or args[1] not in ("list", "show"):
        return None
    parsed = options(args[2:], ())
    if parsed is None or len(parsed[0]) != (args[1] == "show"):
        return None
    words, as_json, _ = parsed
    if args[1] == "list":
        return lambda reader: _list(reader, as_json)
    return lambda reader: _show(reader, words[0], as_json)


def _list(reader: TaskReader, as_json: bool) -> str:
    rows = []
    for name in reader.names():
        data = reader.task(name)
        row = reader.summary(data)
        row["waits_for"] = reader.waits(data)
        row["waiting"] = summary.describe(row["waits_for"])
        rows.append(row)
    if as_json:
        return dumps(rows)
    from taskproto.cli.render import list_text

    return list_text(rows)


def _show(reader: TaskReader, name: str, as_json: bool) -> str:
    task = reader.task(name)
    if task["workflow"] == "plan-task":
        raise Unusual("a plan-task's plan is rendered by the full command")
    data = reader.summary(task)
    data.update(summary.show_details(task))
    data["waits_for"] = reader.waits(task)
    if as_json:
        return dumps(data)
    from taskproto.cli.render import show_text

    return show_text(data, task, reader.table(task["workflow"]))


def _turn(reader: TaskReader, name: str, as_json: bool, asked: str | None) -> str:
    """`turn NAME [--phase PHASE]`: which phase of tight-loop task NAME holds the turn
    (cli/tight_loop.py); a PHASE that does not hold it is the full command's to refuse."""
    from taskproto.machine.builtin import tight_loop

    task = reader.task(name)
    if task["workflow"] != tight_loop.NAME:
        raise Unusual("not a tight-loop task: the full command says so")
    view: Any = Record(task)  # the task as tight-loop's functions read it
    data = tight_loop.turn_report(view)
    if asked is not None and asked.upper() != data["phase"]:
        raise Unusual(f"{asked} does not hold the turn: the full command refuses")
    if as_json:
        return dumps(data)
    from taskproto.cli.render import turn_lines

    return "".join(line + "\n" for line in turn_lines(data))


def _move(args: list[str]) -> int | None:
    """`transition NAME STATE` or `fire NAME TRIGGER`, with `--note TEXT` and `--json` only."""
    parsed = options(args[1:], ("--note",))
    if parsed is None or len(parsed[0]) != 2:
        return None  # --force, --help, a global option, one word too many: click's
    words, as_json, given = parsed
    note = given.get("--note")
    from taskproto.hooks import move

    name, word = words

    def make(config: Config, session: str | None) -> Moved:
        # neither prints the new state's prompt (tight-loop's; the engine's last_prompt)
        if args[0] == "transition":
            return move.move(config, name, session, target=word.upper(), note=note, shown=False)
        return move.move(config, name, session, trigger=word, note=note, shown=False)

    def text(moved: Moved) -> str:
        if as_json:
            data = {"task": moved.task, "from": moved.before, "to": moved.after}
            return dumps({**data, "revision": moved.revision})
        return f"{moved.task}: {moved.before} -> {moved.after}\n"

    return change(as_json, make, text)


# `handoff`'s options, each given once: --to PHASE, --decision YES|NO, --results FILE, --from PHASE
HANDOFF = ("--to", "--decision", "--results", "--from")


def _handoff(args: list[str]) -> int | None:
    """`handoff NAME --to PHASE --decision YES|NO [--results FILE] [--from PHASE] [--json]`:
    what cli/tight_loop.py `handoff` prints, for a handoff hooks/move.py makes."""
    parsed = options(args[1:], HANDOFF)
    if parsed is None:
        return None
    words, as_json, given = parsed
    decision = given.get("--decision", "").upper()
    if len(words) != 1 or "--to" not in given or decision not in ("YES", "NO"):
        return None
    from taskproto.errors import TaskprotoError
    from taskproto.hooks import move
    from taskproto.machine.builtin import tight_loop

    name, to = words[0], given["--to"].upper()
    params: dict[str, Any] = {"decision": decision, "results": None}
    if "--from" in given:
        params["from"] = given["--from"].upper()
    if "--results" in given:
        from pathlib import Path

        from taskproto.cli.loop_results import read_results

        results = Path(given["--results"]).absolute()
        try:
            if results.is_dir():
                return None
            params["results"] = read_results(results)
        except (OSError, TaskprotoError):
            return None  # the full command says what is wrong with the file

    def make(config: Config, session: str | None) -> Moved:
        return move.move(
            config,
            name,
            session,
            target=to,
            note=lambda state: f"handoff {state} -> {to}: {decision}",  # as ops/tight_loop.py
            params=params,
            workflow=tight_loop.NAME,
            shown=as_json,  # the prompt is printed with --json only
        )

    def text(moved: Moved) -> str:
        task = moved.data
        iteration = task["counters"]["iteration"]
        data = {
            "task": name,
            "from": moved.before,
            "to": moved.after,
            "iteration": iteration,
            "revision": moved.revision,
            "prompt": moved.prompt,
        }
        if moved.after == "FULL_AUTO":
            view: Any = Record(task)  # the task as tight-loop's functions read it
            data["summary"] = tight_loop.session_summary(view)
        if as_json:
            return dumps(data)
        from taskproto.cli.render import loop_summary_lines

        lines = [
            f"{name}: {moved.before} -> {moved.after} (iteration {iteration}); "
            f"{moved.after} holds the turn",
            *(loop_summary_lines(data["summary"]) if "summary" in data else ()),
        ]
        return "".join(line + "\n" for line in lines)

    return change(as_json, make, text)


# `subtask VERB NAME ...`: the option each verb takes besides --json (cli/tight_loop.py)
SUBTASK = {"add": (), "done": ("--note",), "fail": ("--reason",), "skip": ("--reason",)}


def _subtask(args: list[str]) -> int | None:
    """`subtask add NAME TITLE`, `subtask done NAME ID [--note TEXT]`, `subtask fail|skip NAME ID
    [--reason TEXT]`, with `--json`: what cli/tight_loop.py prints, for the change
    hooks/quicksave.py `change` makes with the functions the engine runs
    (machine/builtin/tight_loop_subtasks.py)."""
    verb = args[1]
    parsed = options(args[2:], SUBTASK[verb]) if verb in SUBTASK else None
    if parsed is None or len(parsed[0]) != 2:
        return None
    (name, word), as_json, given = parsed
    from taskproto.hooks import quicksave
    from taskproto.machine.builtin import tight_loop_subtasks as subtasks

    if verb == "add":
        word = " ".join(word.split())
        if not word:
            return None  # the full command refuses an empty title
    item: dict[str, Any] = {}

    def apply(task: Any) -> str:
        if verb == "add":
            found, note = subtasks.add(task, word)
        elif verb == "skip":
            found, note = subtasks.skip(task, word, given.get("--reason"))
        else:
            text = given.get("--note" if verb == "done" else "--reason")
            found, note = subtasks.finish(task, word, verb == "done", text)
        item.update(found)
        return note

    def make(config: Config, session: str | None) -> Moved:
        what = "subtask add" if verb == "add" else "subtask"
        return quicksave.change(config, name, session, "tight-loop", "subtask", what, apply)

    def text(moved: Moved) -> str:
        if as_json:
            return dumps(item)
        if verb == "add":
            kind = "discovered task" if item["id"].startswith("D") else "subtask"
            return f"{name}: {kind} {item['id']} {item['title']!r} added\n"
        return f"{name}: subtask {item['id']} {item['status']}\n"

    return change(as_json, make, text)


# `agent set`'s statuses (cli/agent.py; IN_PROGRESS is read as WORKING)
AGENT_STATUSES = ("PENDING", "WORKING", "IN_PROGRESS", "COMPLETE", "ERROR")


def _agent_set(args: list[str]) -> int | None:
    """`agent set NAME AGENT --status STATUS [--message TEXT] [--json]`: what cli/agent.py prints,
    for the status hooks/quicksave.py `set_agent` writes."""
    parsed = options(args, ("--status", "--message"))
    if parsed is None or len(parsed[0]) != 2 or "--status" not in parsed[2]:
        return None
    (name, agent), as_json, given = parsed
    status = given["--status"].upper()
    if status not in AGENT_STATUSES:
        return None  # click says which are
    status = "WORKING" if status == "IN_PROGRESS" else status
    message = given.get("--message")
    from taskproto.errors import TaskprotoError
    from taskproto.hooks import quicksave
    from taskproto.names import agent_name

    try:
        agent_name(agent)
    except TaskprotoError:
        return None  # the full command says what a name may be

    def make(config: Config, session: str | None) -> Moved:
        return quicksave.set_agent(config, name, session, agent, status, message)

    def text(moved: Moved) -> str:
        if as_json:
            return dumps(moved.result)
        return f"{name}/{agent}: {status}" + (f" ({message})" if message else "") + "\n"

    return change(as_json, make, text)

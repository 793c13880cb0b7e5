"""The quick front: `task list`, `task show` and tight-loop's `turn` answered, and the commands
that change a task on every turn (`transition`, `fire`, tight-loop's `handoff` and `subtask
add|done|fail|skip`, `agent set`, and phone-a-team's `round review|decide|fail` in
cli/quick_team.py) and `task create` parsed, before click is imported: click's import alone costs
more than three times the interpreter's start-up.

A change goes through the engine, the one write path, as the click command's does; only the
reading of the arguments is this module's. It prints exactly what the click command prints (the
text and JSON come from cli/render.py, which both use). It answers only arguments it reads as
click would; anything else (an option it does not know, --force, --help, a settings error) goes to
the click command, before anything is written. `TASKPROTO_QUICK=0` turns it off.
"""

from __future__ import annotations

import os
import sys

from taskproto import bulk
from taskproto.cli.quick_common import change, discard_stdout, dumps, options
from taskproto.hooks.tasks import TaskReader, Unusual, listing, listing_text
from taskproto.machine.steps import Record
from taskproto.state import summary

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from taskproto.engine import Engine

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
    if args[0] == "task" and args[1] == "create":
        return _create(args[2:])
    if args[0] == "round":
        from taskproto.cli import quick_team

        return quick_team.answer(args)
    read = _read(args)
    if read is None:
        return None
    try:
        from taskproto.config import load_config

        reader = TaskReader(load_config())
        with bulk.paused():  # thousands of rows, no cycles among them
            text = read(reader)
    except Exception:  # noqa: BLE001 - whatever it is, the full command decides and says why
        return None
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        discard_stdout()
        return 0
    moved = reader.moved() if args[1] == "list" else None
    if moved is not None:  # a repository moved and not re-linked (docs/doctor.md)
        sys.stderr.write(f"taskproto: warning: {moved}\n")
    global answered
    answered = True
    from taskproto.clients.terminal import resolve
    from taskproto.errors import TaskprotoError

    try:
        session = resolve().session
    except TaskprotoError:  # a session not this agent's own: a read, but no heartbeat renewed
        return 0
    if session:
        for warning in reader.renew(session):  # a heartbeat file set aside, named
            sys.stderr.write(f"taskproto: warning: {warning}\n")
    return 0


answered = False  # a read was answered and printed: its process may end at once (cli `run`)


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
    """`task list`: each task's row from the index (hooks/tasks.py `listing`)."""
    if as_json:
        return dumps(listing(reader))
    from taskproto.cli.render import NO_TASKS

    text = listing_text(reader)
    return text if text is not None else NO_TASKS + "\n"


def _show(reader: TaskReader, name: str, as_json: bool) -> str:
    from taskproto.sessions import gone_owner

    task = reader.task(name)
    if task["workflow"] == "plan-task":
        raise Unusual("a plan-task's plan is rendered by the full command")
    data = reader.summary(task)
    data.update(summary.show_details(task))
    data["waits_for"] = reader.waits(task)
    data["owner_gone"] = gone_owner(task, reader.config.lease_minutes, reader.layout.task_dir(name))
    if as_json:
        return dumps(data)
    from taskproto.cli.render import show_text

    dirs = reader.layout.dirs
    approved = task["checkpoint"]["commit_approval"]
    head = dirs.branch_sha(name) if approved and dirs is not None else None
    return show_text(data, task, reader.table(task["workflow"]), head)


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
    name, word = words

    def make(engine: Engine, session: str | None) -> tuple[Any, list[str]]:
        from taskproto.cli.render import moved, moved_lines
        from taskproto.hooks.flags import warm

        if args[0] == "transition":
            task = engine.fire(name, target=word.upper(), session=session, note=note)
        else:
            task = engine.fire(name, trigger=word, session=session, note=note)
        warm(engine.config.layout, {task.workflow})  # as the click command does
        data = moved(task)
        return data, moved_lines(data)

    return change(as_json, make)


# `task create`'s options the quick path reads, each given once (--max-rounds, --backend and
# --parent, phone-a-team's and a subtask's, are the click command's)
CREATE = ("--agents", "--base", "--workflow", "-d", "--description", "--after", "--priority")


def _create(args: list[str]) -> int | None:
    """`task create NAME [--agents A,B] [--base REV] [--workflow W] [-d TEXT] [--after A,B]
    [--priority 0-4] [--json]`, a workflow other than phone-a-team (which may ask for its
    description)."""
    from taskproto.cli.quick_common import split_csv

    parsed = options(args, CREATE)
    if parsed is None or len(parsed[0]) != 1:
        return None
    (name,), as_json, given = parsed
    workflow = given.get("--workflow", "task-protocol")
    priority = given.get("--priority", "2")
    if (
        workflow == "phone-a-team"
        or ("-d" in given and "--description" in given)
        or priority.strip() not in ("0", "1", "2", "3", "4")  # click's IntRange says why
    ):
        return None
    description = given.get("-d", given.get("--description", ""))

    def make(engine: Engine, session: str | None) -> tuple[Any, list[str]]:
        from taskproto.cli.render import created_line
        from taskproto.engine.summary import task_summary
        from taskproto.ops.creation import create

        task = create(
            engine,
            name,
            split_csv(given.get("--agents")),
            given.get("--base"),
            workflow,
            description,
            session,
            split_csv(given.get("--after")),
            int(priority),
        )
        folder = engine.config.layout.task_dir(name)
        return task_summary(task, engine), [created_line(task, folder)]

    return change(as_json, make)


# `handoff`'s options, each given once: --to PHASE, --decision YES|NO, --results FILE, --from PHASE
HANDOFF = ("--to", "--decision", "--results", "--from")


def _handoff(args: list[str]) -> int | None:
    """`handoff NAME --to PHASE --decision YES|NO [--results FILE] [--from PHASE] [--json]`."""
    parsed = options(args[1:], HANDOFF)
    if parsed is None:
        return None
    words, as_json, given = parsed
    decision = given.get("--decision", "").upper()
    if len(words) != 1 or "--to" not in given or decision not in ("YES", "NO"):
        return None
    name, to, results = words[0], given["--to"], given.get("--results")
    if results is not None and os.path.isdir(results):
        return None  # click refuses a folder in its words

    def make(engine: Engine, session: str | None) -> tuple[Any, list[str]]:
        from taskproto.cli.render import handoff_lines, handoff_report
        from taskproto.ops import tight_loop as tightloop

        payload = None
        if results is not None:
            from pathlib import Path

            from taskproto.cli.loop_results import read_results

            payload = read_results(Path(results).absolute())
        before = engine.load(name).state
        task = tightloop.handoff(
            engine, name, to, decision, payload, given.get("--from"), session, False
        )
        data = handoff_report(name, before, task, engine.last_prompt if as_json else None)
        return data, handoff_lines(data)

    return change(as_json, make)


# `subtask VERB NAME ...`: the option each verb takes besides --json (cli/tight_loop.py)
SUBTASK = {"add": (), "done": ("--note",), "fail": ("--reason",), "skip": ("--reason",)}


def _subtask(args: list[str]) -> int | None:
    """`subtask add NAME TITLE`, `subtask done NAME ID [--note TEXT]`, `subtask fail|skip NAME ID
    [--reason TEXT]`, with `--json`."""
    verb = args[1]
    parsed = options(args[2:], SUBTASK[verb]) if verb in SUBTASK else None
    if parsed is None or len(parsed[0]) != 2:
        return None
    (name, word), as_json, given = parsed

    def make(engine: Engine, session: str | None) -> tuple[Any, list[str]]:
        from taskproto.cli.render import subtask_lines
        from taskproto.ops import tight_loop as tightloop

        if verb == "add":
            item = tightloop.add(engine, name, word, session, False)
        elif verb == "skip":
            from taskproto.ops import tight_loop_answers as answers

            item = answers.skip(engine, name, word, given.get("--reason"), session, False)
        else:
            text = given.get("--note" if verb == "done" else "--reason")
            item = tightloop.finish(engine, name, word, verb == "done", text, session, False)
        return item, subtask_lines(name, verb == "add", item)

    return change(as_json, make)


# `agent set`'s statuses (cli/agent.py; IN_PROGRESS is read as WORKING)
AGENT_STATUSES = ("PENDING", "WORKING", "IN_PROGRESS", "COMPLETE", "ERROR")


def _agent_set(args: list[str]) -> int | None:
    """`agent set NAME AGENT --status STATUS [--message TEXT] [--json]`."""
    parsed = options(args, ("--status", "--message"))
    if parsed is None or len(parsed[0]) != 2 or "--status" not in parsed[2]:
        return None
    (name, agent), as_json, given = parsed
    status = given["--status"].upper()
    if status not in AGENT_STATUSES:
        return None  # click says which are
    message = given.get("--message")

    def make(engine: Engine, session: str | None) -> tuple[Any, list[str]]:
        from taskproto.cli.render import agent_set_lines
        from taskproto.state.models import AgentState

        state = AgentState("WORKING" if status == "IN_PROGRESS" else status)
        result = engine.set_agent_status(name, agent, state, message, session, False)
        lines = agent_set_lines(name, agent, result.status.value, message)
        return result.model_dump(mode="json"), lines

    return change(as_json, make)

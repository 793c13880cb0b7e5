"""Changes saved on the standard library, as the engine's `save` makes them: the primitives of the
quick write path (the lock, the checked read of task.json, the log entry, the next revision, the
journal commit and the one file written), and the changes that keep the state: tight-loop's
subtask changes (`change`) and an agent's status (`set_agent`). hooks/move.py makes transitions
with the same primitives.

Each reads task.json under the task's lock only when its journal vouches for it and the models
would write its JSON back byte for byte (`read`), and writes only what the engine would write.
Anything else raises `Declined` before anything is written: the caller runs the engine, which
decides and says what is wrong in its own words. tests/hooks/test_move.py and
test_move_tight_loop.py make the same changes both ways and compare the bytes.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime

from taskproto import plainjson as json
from taskproto.errors import TaskprotoError
from taskproto.machine import steps
from taskproto.state import integrity

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from taskproto.config import Config
    from taskproto.hooks.tasks import TaskReader


class Declined(Exception):
    """Not a plain change (or not one now): nothing was written, the engine decides."""


def time_text(moment: datetime) -> str:
    """A UTC time as the models write it (pydantic: `2026-11-23T10:00:00.123456Z`)."""
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    return f"{text}.{moment.microsecond:06d}Z" if moment.microsecond else f"{text}Z"


def dumps(data: dict[str, Any]) -> bytes:
    """task.json's bytes as the models write them, for the JSON they hold (see the module)."""
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode()


class Moved:
    """A transition written: the task, the states it left and reached, its new revision, the new
    state's prompt (None: no template) and the new task.json's JSON."""

    def __init__(self, plan: Plan) -> None:
        self.task, self.before, self.after = plan.name, plan.before, plan.new["state"]
        self.revision, self.prompt, self.data = plan.new["revision"], plan.prompt, plan.new
        self.result = plan.result


class Plan:
    """What a change saves: the task's JSON and task.json's bytes as the journal records them,
    the one file it writes (`path`: task.json, or an agent's status.json), the journal message,
    the state it left, the prompt rendered (or None), and what the command prints of it."""

    def __init__(
        self,
        name: str,
        new: dict[str, Any],
        data: bytes,
        message: str,
        before: str,
        prompt: str | None = None,
        write: tuple[str, bytes] | None = None,
        result: Any = None,
    ) -> None:
        self.name, self.new, self.data, self.message = name, new, data, message
        self.before, self.prompt, self.write, self.result = before, prompt, write, result


def change(
    config: Config,
    name: str,
    session: str | None,
    workflow: str,
    trigger: str,
    what: str,
    apply: Callable[[Any], str],
) -> Moved:
    """A change of a `workflow` task that leaves its state as it is, as the engine's `mutate`
    makes it (tight-loop's subtasks: ops/tight_loop.py): `apply(task)` changes task.json's JSON
    seen as a task (`steps.Record`) and returns the note its log entry (`trigger`, kind note)
    keeps; the journal message is `what: note`. Only the owner (or anyone, when the task is
    unowned) changes it. Anything `apply` raises declines, with nothing written: the engine then
    runs the same function on the models and refuses in its words."""

    def plan(reader: TaskReader, name: str) -> Plan:
        data = read(reader, name, session, workflow)[0]
        state = data["state"]
        note = apply(steps.Record(data))
        now = time_text(datetime.now(UTC))
        entry = log_entry(state, state, trigger, now, session, "note", note)
        return finished(name, data, entry, f"{what}: {note}", None)

    return locked(config, name, plan)


def set_agent(
    config: Config, name: str, session: str | None, agent: str, status: str, message: str | None
) -> Moved:
    """`agent set`: agent `agent`'s status.json with `status` (`message` kept with ERROR only),
    journaled with task.json as it is, as the engine's `set_agent_status` writes it; its new JSON
    is the result. Declined, with nothing written, for an agent the task does not have, a status
    file the models would read or write otherwise (the engine sets a corrupt one aside), a task
    another session owns, and everything `read` declines."""

    def plan(reader: TaskReader, name: str) -> Plan:
        from taskproto.state.summary import SCHEMA_VERSION

        data, old = read(reader, name, session, None)
        if agent not in data["required_agents"]:
            raise Declined(f"{agent} is not an agent of {name}")
        found = reader.status(name, agent)  # Unusual for a link or another shape
        if found is not None and dumps(found[0]) != found[1]:
            raise Declined("json writes this status.json differently from the models")
        # a first status starts as models.AgentStatus's defaults, keys in its fields' order
        current = (
            found[0]
            if found is not None
            else {
                "schema_version": SCHEMA_VERSION,
                "agent": agent,
                "status": "PENDING",
                "updated_at": None,
                "retry_count": 0,
                "error_message": None,
                "escalated": False,
            }
        )
        current.update(
            status=status,
            updated_at=time_text(datetime.now(UTC)),
            error_message=message if status == "ERROR" else None,
        )
        path = reader.layout.status_file(name, agent)
        write = (path, dumps(current))
        message_ = f"agent {agent}: {status}"
        return Plan(name, data, old, message_, data["state"], write=write, result=current)

    return locked(config, name, plan)


def locked(config: Config, name: str, make: Callable[[TaskReader, str], Plan]) -> Moved:
    """`make`'s plan for task `name`, decided and saved under the task's lock."""
    from taskproto.hooks.tasks import TaskReader
    from taskproto.names import task_name
    from taskproto.state.lock import task_lock

    layout = config.layout
    if config.remote or layout.dirs is None:
        raise Declined("a shared remote, or no git directory")
    try:
        name = task_name(name)
    except TaskprotoError as exc:
        raise Declined(str(exc)) from None
    folder = layout.task_dir(name)
    if not os.path.isdir(folder) or os.path.realpath(folder) != folder:
        raise Declined(f"{folder} is not a task folder")
    with task_lock(folder, name, config.lock_timeout):
        reader = TaskReader(config)
        try:
            plan = make(reader, name)
            files = _journal_files(config, plan)
        except Declined:
            raise
        except Exception as exc:  # noqa: BLE001 - nothing is written yet: the engine decides
            raise Declined(f"{type(exc).__name__}: {exc}") from None
        return _save(config, plan, files)


def read(
    reader: TaskReader, name: str, session: str | None, workflow: str | None
) -> tuple[Any, bytes]:
    """task.json's JSON and bytes, read under the lock, as the engine would load it and as the
    models would write it back; Declined if it is not, if it is not a `workflow` task, or if
    another session owns it."""
    from taskproto.state.light import read_bytes

    layout = reader.layout
    path = layout.task_file(name)
    if os.path.realpath(path) != path:
        raise Declined(f"{path} is reached through a link")
    old, error = read_bytes(path)
    if old is None:
        raise Declined(error)
    # read here, not through the reader's lock-free read: it would wait for the lock we hold
    found = integrity.check(layout.dirs, name, old)
    if found is not None:
        raise Declined(integrity.refusal(name, found))
    data = reader.accept(name, path, json.loads(old))  # this shape, in a known state
    if workflow is not None and data["workflow"] != workflow:
        raise Declined(f"not a {workflow} task")
    if dumps(data) != old:
        raise Declined("json writes this task.json differently from the models")
    owner = data["owner"]
    if owner is not None and owner["session"] != session:
        raise Declined("owned by another session")
    return data, old


def log_entry(
    before: str, after: str, trigger: str, at: str, session: str | None, kind: str, note: Any
) -> dict[str, Any]:
    """A transition log entry, its keys in the models' order."""
    return {
        "from": before,
        "to": after,
        "trigger": trigger,
        "time": at,
        "session": session,
        "kind": kind,
        "forced": False,
        "note": note,
    }


def finished(
    name: str,
    new: dict[str, Any],
    entry: dict[str, Any],
    message: str,
    prompt: Callable[[], str] | None,
    before: str | None = None,
) -> Plan:
    """The plan for `new` once `entry` is logged: the prompt rendered (when there is one) as the
    engine renders it, on the new task before its save, then its next revision, as the engine's
    `save` writes it. `before`: the state the change left (default: the entry's)."""
    before = before or entry["from"]
    new["transition_log"].append(entry)
    text = None if prompt is None else prompt()
    new["revision"] += 1
    new["updated_at"] = time_text(datetime.now(UTC))
    problem = integrity.log_state_problem(new)
    if problem is not None:
        raise Declined(problem)
    try:
        written = dumps(new)
    except UnicodeEncodeError:  # a lone surrogate from the command line: the models refuse it
        raise Declined("text that is not valid UTF-8") from None
    return Plan(name, new, written, message, before, text)


def _journal_files(config: Config, plan: Plan) -> dict[str, bytes]:
    """The journal commit's files: task.json and the agents' status files, as they will be."""
    from taskproto.state import journal

    writes = None
    if plan.write:  # an agent's status file (`agent set`)
        writes = {plan.write[0]: plan.write[1]}
    agents = journal.agent_files(config.layout, plan.name, plan.new["required_agents"], writes)
    return {journal.TASK_FILE: plan.data, **agents}


def _save(config: Config, plan: Plan, files: dict[str, bytes]) -> Moved:
    """Journal the change, then write its file (the new task.json, or an agent's status.json): the
    engine's `save`. A journal that cannot be written declines (its ref did not move); a file that
    cannot be written puts the journal back and raises, as the engine does."""
    from taskproto.git.command import Git
    from taskproto.state import journal
    from taskproto.state.files import atomic_write

    layout, name, new = config.layout, plan.name, plan.new
    dirs = layout.dirs
    assert dirs is not None
    git = Git(layout.main)  # config.repo would import pathlib
    before = dirs.ref_sha(journal.ref_for(name))
    try:
        after = journal.append(git, dirs, name, files, plan.message, new["revision"])
    except (OSError, TaskprotoError) as exc:  # the ref did not move: nothing is saved
        raise Declined(f"the journal could not be written ({exc})") from None
    path, data = plan.write or (layout.task_file(name), plan.data)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)  # an agent's first status.json
        atomic_write(path, data)
    except BaseException:
        # the journal went first: take it back, so nothing is half saved (engine/core.py)
        journal.take_back(git, dirs, name, before, after)
        raise
    return Moved(plan)

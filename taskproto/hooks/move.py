"""A plain transition on the standard library: `taskproto transition`, `fire` and `handoff` without
the engine, pydantic or click, which are most of a transition's time (docs/performance.md); and,
with `change`, tight-loop's subtask changes, which log a note and keep the state.

It takes the same lock, makes the same checks and writes the same bytes, journal commit and
task.json as the engine's `fire` (engine/transitions.py, engine/core.py `save`), for the
transitions that are plain:

- task.json is the one its journal vouches for (state/integrity.py), of the current shape, in a
  state of its workflow's cached state table (hooks/flags.py, as the hooks read it), and
  `json.dumps` writes its JSON back byte for byte as the models wrote it (so the new bytes are the
  models' bytes too; tests/hooks/test_move.py compares them with `store.dump`);
- no shared remote; the task is unowned or owned by this session; the user's latest interruption
  does not hold the work; the task does not wait for others in its initial state;
- the trigger is fired by agents, its guards and effects are those of a built-in workflow whose
  module needs no models (machine/steps.py `LIGHT`: task-protocol, phone-a-team, tight-loop). The
  guards and effects are the workflow's own functions, run on task.json's JSON (`steps.Record`),
  not copies of them;
- the new state has no prompt template, or its workflow's prompts have a scope of their own
  (machine/prompts.py `SCOPES`: tight-loop's handoffs): then the prompt is rendered before the
  save, by the same code and jinja2 as the engine's, and a template that fails to render declines.

Anything else, and every refusal, raises `Declined` before anything is written: the caller runs
the engine, which decides and says what is wrong in its own words. So a refusal always comes
from the engine, and this module only ever writes a transition the engine would have written.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime

from taskproto.errors import TaskprotoError
from taskproto.layout import TEMPLATE_SUFFIX, template_dirs
from taskproto.machine import steps
from taskproto.state import integrity

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from taskproto.config import Config
    from taskproto.hooks.tasks import TaskReader


class Declined(Exception):
    """Not a plain transition (or not one now): nothing was written, the engine decides."""


def time_text(moment: datetime) -> str:
    """A UTC time as the models write it (pydantic: `2026-11-23T10:00:00.123456Z`)."""
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    return f"{text}.{moment.microsecond:06d}Z" if moment.microsecond else f"{text}Z"


def dumps(data: dict[str, Any]) -> bytes:
    """task.json's bytes as the models write them, for the JSON they hold (see the module)."""
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode()


class _Statuses(Mapping[str, str]):
    """The agents' statuses, read from their status files when a guard first asks."""

    def __init__(self, reader: TaskReader, data: dict[str, Any]) -> None:
        self.reader, self.data = reader, data
        self._read: dict[str, str] | None = None

    def _all(self) -> dict[str, str]:
        if self._read is None:
            self._read = self.reader.agents(self.data)  # Unusual for anything odd
        return self._read

    def __getitem__(self, agent: str) -> str:
        return self._all()[agent]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


class Moved:
    """A transition written: the task, the states it left and reached, its new revision, the new
    state's prompt (None: no template) and the new task.json's JSON."""

    def __init__(self, plan: _Plan) -> None:
        entry = plan.new["transition_log"][-1]
        self.task, self.before, self.after = plan.name, entry["from"], plan.new["state"]
        self.revision, self.prompt, self.data = plan.new["revision"], plan.prompt, plan.new


def move(
    config: Config,
    name: str,
    session: str | None,
    target: str | None = None,
    trigger: str | None = None,
    note: str | Callable[[str], str] | None = None,
    params: dict[str, Any] | None = None,
    workflow: str | None = None,
) -> Moved:
    """Fire `trigger`, or the trigger that leads to state `target`, on task `name` as `session`,
    with the guards' and effects' `params` and `note` (or the note for the state it leaves); with
    `workflow`, only on a task of that workflow.
    Declined when the transition is not plain (nothing written). Raises TaskprotoError only when
    the lock cannot be taken in time, or when a failed save could not be undone."""
    return _locked(
        config,
        name,
        lambda reader, name: _plan(reader, name, session, target, trigger, note, params, workflow),
    )


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

    def plan(reader: TaskReader, name: str) -> _Plan:
        data = _read(reader, name, session, workflow)
        state = data["state"]
        note = apply(steps.Record(data))
        now = time_text(datetime.now(UTC))
        entry = _entry(state, state, trigger, now, session, "note", note)
        return _done(name, data, entry, f"{what}: {note}", None)

    return _locked(config, name, plan)


def _locked(config: Config, name: str, make: Callable[[TaskReader, str], _Plan]) -> Moved:
    """`make`'s plan for task `name`, decided and saved under the task's lock."""
    from pathlib import Path

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
    with task_lock(Path(folder), name, config.lock_timeout):
        reader = TaskReader(config)
        try:
            plan = make(reader, name)
            files = _journal_files(config, plan)
        except Declined:
            raise
        except Exception as exc:  # noqa: BLE001 - nothing is written yet: the engine decides
            raise Declined(f"{type(exc).__name__}: {exc}") from None
        return _save(config, plan, files)


class _Plan:
    def __init__(
        self, name: str, new: dict[str, Any], data: bytes, message: str, prompt: str | None
    ) -> None:
        self.name, self.new, self.data, self.message, self.prompt = name, new, data, message, prompt


def _plan(
    reader: TaskReader,
    name: str,
    session: str | None,
    target: str | None,
    trigger: str | None,
    note: str | Callable[[str], str] | None,
    params: dict[str, Any] | None,
    workflow: str | None,
) -> _Plan:
    """The new task.json, journal message and prompt, decided under the lock; Declined if not
    plain."""
    from taskproto.state.light import TaskView

    layout = reader.layout
    data = _read(reader, name, session, workflow)
    if TaskView(name, data).paused:
        raise Declined("the user's interruption holds the work")
    state = data["state"]
    table = reader.table(data["workflow"])
    here = table[state]
    if data["depends_on"] and here["initial"]:
        raise Declined("waits for other tasks")
    if trigger is None:
        leading = [t["trigger"] for t in here["triggers"] if t["to"] == target]
        if not leading:
            raise Declined(f"no transition to {target}")
        trigger = leading[0]
    candidates = [t for t in here["triggers"] if t["trigger"] == trigger]
    guards = {g.lstrip("!") for t in candidates for g in t["guards"]}
    effects = {e for t in candidates for e in t["effects"]}
    if (
        not candidates
        or any(t["by"] != "agent" for t in candidates)
        or not steps.light(guards, steps.GUARDS)
        or not steps.light(effects, steps.EFFECTS)
    ):
        raise Declined(f"{trigger} is not a plain trigger from {state}")
    if callable(note):
        note = note(state)
    now = datetime.now(UTC)
    dirs = layout.dirs
    assert dirs is not None
    ctx = steps.FireContext(
        time=now,
        session=session,
        agent_statuses=_Statuses(reader, data),
        branch_head=dirs.branch_sha(name),
        params=params,
        note=note,
    )
    chosen = next((t for t in candidates if _passes(t["guards"], data, ctx)), None)
    if chosen is None:
        raise Declined("a guard fails")
    dest = chosen["to"]
    if dest not in table:
        raise Declined(f"{dest} is not a state of the cached table")
    template = _template(layout.root, data["workflow"], dest)
    entry = _entry(state, dest, trigger, time_text(now), session, "transition", note)
    # the guards are done and `data` is this call's own parse of `old`: it becomes the new task
    new = data
    for effect in chosen["effects"]:
        steps.EFFECTS[effect](steps.Record(new), ctx)
    new["state"] = dest
    render = None
    if template is not None:
        path = template  # rendered once the new task is complete, before anything is saved
        render = lambda: _render(reader.config, new, path)  # noqa: E731
    return _done(name, new, entry, f"{trigger}: {state} -> {dest}", render)


def _read(reader: TaskReader, name: str, session: str | None, workflow: str | None) -> Any:
    """task.json's JSON, read under the lock, as the engine would load it and as the models
    would write it back; Declined if it is not, if it is not a `workflow` task, or if another
    session owns it."""
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
    return data


def _entry(
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


def _done(
    name: str,
    new: dict[str, Any],
    entry: dict[str, Any],
    message: str,
    prompt: Callable[[], str] | None,
) -> _Plan:
    """The plan for `new` once `entry` is logged: its next revision, as the engine's `save`
    writes it, and the prompt rendered (when there is one) before anything is saved."""
    new["transition_log"].append(entry)
    new["revision"] += 1
    new["updated_at"] = time_text(datetime.now(UTC))
    problem = integrity.log_state_problem(new)
    if problem is not None:
        raise Declined(problem)
    try:
        written = dumps(new)
    except UnicodeEncodeError:  # a lone surrogate from the command line: the models refuse it
        raise Declined("text that is not valid UTF-8") from None
    return _Plan(name, new, written, message, None if prompt is None else prompt())


def _template(root: str, workflow: str, state: str) -> str | None:
    """The template of `state`'s prompt (the repository's first), None when it has none;
    Declined when the workflow's prompts need the models (machine/prompts.py `SCOPES`)."""
    from taskproto.machine.prompts import SCOPES

    for folder in template_dirs(root, workflow):
        path = os.path.join(folder, state + TEMPLATE_SUFFIX)
        if os.path.isfile(path):
            if workflow not in SCOPES:
                raise Declined(f"{state}'s prompt is rendered from the models")
            return path
    return None


def _render(config: Config, new: dict[str, Any], template: str) -> str:
    """The new state's prompt, as the engine renders it before its save (jinja2); a template that
    fails declines, and the engine refuses in its own words."""
    from pathlib import Path

    from taskproto.machine import prompts

    task: Any = steps.Record(new)  # the task the scope reads, as the engine's model shows it
    scope = prompts.scope(task)
    return prompts.render_file(config, new["workflow"], Path(template), scope)


def _passes(guards: list[str], data: dict[str, Any], ctx: steps.FireContext) -> bool:
    """Whether every guard passes (`!name`: whether `name` fails), as machine/workflow.py
    decides; why one fails is the engine's to say."""
    task = steps.Record(data)
    for name in guards:
        reason = steps.GUARDS[name.lstrip("!")](task, ctx)
        if (reason is None) == name.startswith("!"):
            return False
    return True


def _journal_files(config: Config, plan: _Plan) -> dict[str, bytes]:
    """The journal commit's files: the new task.json and the agents' status files as they are."""
    from taskproto.state import journal

    agents = journal.agent_files(config.layout, plan.name, plan.new["required_agents"])
    return {journal.TASK_FILE: plan.data, **agents}


def _save(config: Config, plan: _Plan, files: dict[str, bytes]) -> Moved:
    """Journal the new task.json, then write it: the engine's `save`. A journal that cannot be
    written declines (its ref did not move); a task.json that cannot be written puts the journal
    back and raises, as the engine does."""
    from pathlib import Path

    from taskproto.git.command import Git
    from taskproto.state import journal
    from taskproto.state.files import atomic_write

    layout, name, new = config.layout, plan.name, plan.new
    dirs = layout.dirs
    assert dirs is not None
    git = Git(config.repo)
    before = dirs.ref_sha(journal.ref_for(name))
    try:
        after = journal.append(git, dirs, name, files, plan.message, new["revision"])
    except (OSError, TaskprotoError) as exc:  # the ref did not move: nothing is saved
        raise Declined(f"the journal could not be written ({exc})") from None
    try:
        atomic_write(Path(layout.task_file(name)), plan.data)
    except BaseException:
        # the journal went first: take it back, so nothing is half saved (engine/core.py)
        journal.take_back(git, dirs, name, before, after)
        raise
    return Moved(plan)

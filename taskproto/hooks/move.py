"""A plain transition on the standard library: `taskproto transition`, `fire`, `handoff` and
phone-a-team's `round review|decide|fail` without the engine, pydantic or click, which are most of
a transition's time (docs/performance.md). `chain` fires several in one change, as the engine's
`advance` does (`round decide`: `decide`, then the first of `converge`, `iterate`, `force_stop`
whose guards pass; `round fail`: a note, then maybe `fail_stop` or `retry_round`). The lock, the
read, the log entry and the save are hooks/quicksave.py's, shared with the changes that keep the
state.

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

# what collections.abc re-exports, without importing the collections package (~1 ms a command)
from _collections_abc import Iterator, Mapping
from datetime import UTC, datetime

from taskproto.hooks import quicksave
from taskproto.machine import steps

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from taskproto.config import Config
    from taskproto.hooks.tasks import TaskReader

    # changes task.json's JSON (as the session) before the firings; returns the log entry that
    # records it and the firings to make
    Prepare = Callable[[dict[str, Any], str | None], tuple[dict[str, Any], list["Firing"]]]


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


def move(
    config: Config,
    name: str,
    session: str | None,
    target: str | None = None,
    trigger: str | None = None,
    note: str | Callable[[str], str] | None = None,
    params: dict[str, Any] | None = None,
    workflow: str | None = None,
    shown: bool = True,
) -> quicksave.Moved:
    """Fire `trigger`, or the trigger that leads to state `target`, on task `name` as `session`,
    with the guards' and effects' `params` and `note` (or the note for the state it leaves); with
    `workflow`, only on a task of that workflow; `shown`: whether the new state's prompt is shown
    (`_prompted`).
    Declined when the transition is not plain (nothing written). Raises TaskprotoError only when
    the lock cannot be taken in time, or when a failed save could not be undone."""
    firing = Firing((trigger,) if trigger else (), target, params, note)
    return chain(config, name, session, [firing], workflow, shown=shown)


class Firing:
    """One transition of a change: the first of `triggers` whose guards pass (as the engine's
    `Step.first`; one trigger: its `fire`), or, with no triggers, the one that leads to
    `target`; with the guards' and effects' `params` and the log entry's `note` (or a function
    of the state it leaves that returns it)."""

    def __init__(
        self,
        triggers: tuple[str, ...],
        target: str | None = None,
        params: dict[str, Any] | None = None,
        note: str | Callable[[str], str] | None = None,
    ) -> None:
        self.triggers, self.target, self.params, self.note = triggers, target, params, note


def chain(
    config: Config,
    name: str,
    session: str | None,
    firings: list[Firing],
    workflow: str | None = None,
    message: Callable[[dict[str, Any], dict[str, Any], str], str] | None = None,
    prepare: Prepare | None = None,
    shown: bool = True,
) -> quicksave.Moved:
    """`firings`, one after the other, as one change of task `name` (the engine's `advance`:
    phone-a-team's `round decide` fires two), journaled with `message(before, new, trigger)`
    (`before`: the state and counters it left; `trigger`: the last fired; default: `trigger:
    STATE -> STATE`); with `workflow`, only on a task of that workflow. Declined when any
    firing is not plain. `prepare(task, session)`, when given, runs first on task.json's JSON:
    it may change it, and returns the log entry that records what it did and the firings to make
    then (instead of `firings`): phone-a-team's `round fail` (anything it raises declines)."""
    return quicksave.locked(
        config,
        name,
        lambda reader, name: _plan(
            reader, name, session, firings, workflow, message, prepare, shown
        ),
    )


def _plan(
    reader: TaskReader,
    name: str,
    session: str | None,
    firings: list[Firing],
    workflow: str | None,
    message: Callable[[dict[str, Any], dict[str, Any], str], str] | None,
    prepare: Prepare | None = None,
    shown: bool = True,
) -> quicksave.Plan:
    """The new task.json, journal message and prompt, decided under the lock; Declined if not
    plain."""
    from taskproto.state.light import TaskView

    data = quicksave.read(reader, name, session, workflow)[0]
    if TaskView(name, data).paused:
        raise quicksave.Declined("the user's interruption holds the work")
    table = reader.table(data["workflow"])
    if data["depends_on"] and table[data["state"]]["initial"]:
        raise quicksave.Declined("waits for other tasks")
    before = {"state": data["state"], "counters": dict(data["counters"])}
    dirs = reader.layout.dirs
    assert dirs is not None
    statuses, head = _Statuses(reader, data), dirs.branch_sha(name)
    # the guards are done before each firing changes it, and `data` is this call's own parse of
    # task.json: it becomes the new task
    last = None  # the latest log entry, logged once what follows it is made
    if prepare is not None:
        last, firings = prepare(data, session)
    for firing in firings:
        if last is not None:
            data["transition_log"].append(last)
        state = data["state"]
        trigger, chosen, ctx = _choose(table, data, firing, session, statuses, head)
        at, dest = quicksave.time_text(ctx.time), chosen["to"]
        last = quicksave.log_entry(state, dest, trigger, at, session, "transition", ctx.note)
        for effect in chosen["effects"]:
            steps.EFFECTS[effect](steps.Record(data), ctx)
        data["state"] = dest
    assert last is not None  # a change fires at least one trigger, or logs what `prepare` did
    dest = data["state"]
    prompted = _prompted(reader.config, data["workflow"], dest, shown)

    def render() -> str:  # once the new task is complete, before anything is saved
        return _render(reader.config, data)

    trigger = last["trigger"]
    text = message(before, data, trigger) if message else f"{trigger}: {before['state']} -> {dest}"
    return quicksave.finished(name, data, last, text, render if prompted else None, before["state"])


def _choose(
    table: dict[str, Any],
    data: dict[str, Any],
    firing: Firing,
    session: str | None,
    statuses: _Statuses,
    head: str | None,
) -> tuple[str, dict[str, Any], steps.FireContext]:
    """The trigger `firing` fires from the task's state, the transition whose guards pass, and
    what they were given; Declined when it is not plain or no guard lets it through."""
    state = data["state"]
    here = table[state]
    triggers = firing.triggers
    if not triggers:
        triggers = tuple(t["trigger"] for t in here["triggers"] if t["to"] == firing.target)[:1]
        if not triggers:
            raise quicksave.Declined(f"no transition to {firing.target}")
    note = firing.note(state) if callable(firing.note) else firing.note
    ctx = steps.FireContext(
        time=datetime.now(UTC),
        session=session,
        agent_statuses=statuses,
        branch_head=head,
        params=firing.params,
        note=note,
    )
    for trigger in triggers:
        candidates = [t for t in here["triggers"] if t["trigger"] == trigger]
        if not candidates:
            continue  # the engine's `first` goes on to the next; for one trigger, it refuses
        guards = {g.lstrip("!") for t in candidates for g in t["guards"]}
        effects = {e for t in candidates for e in t["effects"]}
        if (
            any(t["by"] != "agent" for t in candidates)
            or not steps.light(guards, steps.GUARDS)
            or not steps.light(effects, steps.EFFECTS)
        ):
            raise quicksave.Declined(f"{trigger} is not a plain trigger from {state}")
        chosen = next((t for t in candidates if _passes(t["guards"], data, ctx)), None)
        if chosen is not None:
            if chosen["to"] not in table:
                raise quicksave.Declined(f"{chosen['to']} is not a state of the cached table")
            return trigger, chosen, ctx
    raise quicksave.Declined("a guard fails")


def _prompted(config: Config, workflow: str, state: str, shown: bool = True) -> bool:
    """Whether to render `state`'s prompt before the save: it has one, and it is shown, or it may
    fail to render (the repository overrides the workflow's templates: a broken one refuses the
    change). The package's own render on every task (tests/workflows/test_tight_loop_templates.py),
    so a prompt nobody reads is not rendered with them: jinja2 alone costs a command several
    times the interpreter's start. Declined when the workflow's prompts read the models
    (machine/prompts.py `SCOPES` names the workflows whose own scope does not)."""
    from taskproto.machine import prompts

    if prompts.template_path(config, workflow, state) is None:
        return False
    if workflow not in prompts.SCOPES:
        raise quicksave.Declined(f"{state}'s prompt is rendered from the models")
    return shown or prompts.overridden(config, workflow)


def _render(config: Config, new: dict[str, Any]) -> str:
    """The new state's prompt, rendered by the engine's own call (jinja2); a template that fails
    raises, which declines, and the engine refuses in its own words."""
    from taskproto.machine import prompts

    task: Any = steps.Record(new)  # the task the scope reads, as the engine's model shows it
    text = prompts.render(config, task)
    assert text is not None  # _prompted found its template
    return text


def _passes(guards: list[str], data: dict[str, Any], ctx: steps.FireContext) -> bool:
    """Whether every guard passes (`!name`: whether `name` fails), as machine/workflow.py
    decides; why one fails is the engine's to say."""
    task = steps.Record(data)
    for name in guards:
        reason = steps.GUARDS[name.lstrip("!")](task, ctx)
        if (reason is None) == name.startswith("!"):
            return False
    return True

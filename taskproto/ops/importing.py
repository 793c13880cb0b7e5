"""`taskproto import FILE --from SOURCE`: a plan of what the file changes here, then (unless
`--dry-run`) each change through the engine.

Keyed by the source's id: an item's task is named for it (ops/sources.py `task_name_for`) and
keeps it in `context["source"]`, so importing again finds it, changes only what changed in the
source (description, priority, dependencies, open or closed) and leaves the rest, and a task of
that name that came from elsewhere is refused. taskproto's own export is keyed by task name.
Everything is checked before anything is written: an unknown dependency, two items of one name,
a dependency cycle, a task of that name not from this source: refused, nothing written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taskproto.engine.imported import DEFERRED, DEFERRED_KEY
from taskproto.errors import TaskprotoError
from taskproto.ops import exchange, sources
from taskproto.state.models import AgentStatus, LogEntry, Task, utcnow

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from taskproto.engine import Engine
    from taskproto.machine.workflow import Workflow

SOURCE_KEY = "source"
BATCH = 250  # new tasks written (and synced to disk) together


@dataclass
class Change:
    """What importing one item does to the task named `name`."""

    name: str
    source_id: str
    action: str  # create, update, unchanged
    what: list[str] = field(default_factory=list)  # the fields that change, in words
    task: Task | None = None  # create: the first record; update: the changed copy
    statuses: dict[str, AgentStatus] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"task": self.name, "id": self.source_id, "action": self.action, "what": self.what}


@dataclass
class Plan:
    source: str
    changes: list[Change]
    warnings: list[str] = field(default_factory=list)

    def count(self, action: str) -> int:
        return sum(1 for c in self.changes if c.action == action)

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "created": self.count("create"),
            "updated": self.count("update"),
            "unchanged": self.count("unchanged"),
            "changes": [c.to_dict() for c in self.changes if c.action != "unchanged"],
            "warnings": self.warnings,
        }


def plan(engine: Engine, source: str, data: bytes, workflow: str = "task-protocol") -> Plan:
    """What importing `data` (format `source`) would change here; refused whole when any item
    cannot be imported."""
    from taskproto.engine.deps import load_all

    tasks, broken = load_all(engine)
    if source == "taskproto":
        result = _plan_export(engine, tasks, exchange.parse(data))
    else:
        from taskproto.machine.registry import get_workflow

        wf = get_workflow(workflow, engine.config)
        result = _plan_items(engine, tasks, source, sources.read(source, data), wf)
    clash = [c.name for c in result.changes if c.name in broken]
    if clash:
        raise TaskprotoError(
            f"task {clash[0]} is here but cannot be read ({broken[clash[0]]}); run `taskproto "
            "doctor` first; nothing was imported"
        )
    _check_graph(engine, tasks, result)
    return result


def apply(engine: Engine, result: Plan, session: str | None) -> None:
    """Carry out a plan: new tasks (what they wait for first), then the updates, under the
    dependency graph's lock (no `dep add` closes a cycle meanwhile)."""
    from taskproto.engine import deps, imported

    engine.require_user("importing tasks")
    with deps.graph_lock(engine):
        new = _dependencies_first([c for c in result.changes if c.action == "create"])
        for start in range(0, len(new), BATCH):
            imported.create(
                engine, [(c.task, c.statuses) for c in new[start : start + BATCH] if c.task]
            )
        for change in result.changes:
            if change.action == "update":
                wanted = change.task
                assert wanted is not None
                engine.mutate(change.name, _updater(wanted, change, session))
    engine.changed()


# --- taskproto's own export ------------------------------------------------------------------


def _plan_export(engine: Engine, tasks: dict[str, Task], records: list[dict[str, Any]]) -> Plan:
    result = Plan("taskproto", [])
    base = engine.git.rev_parse("HEAD")
    seen: set[str] = set()
    for line in records:
        name = str(line["name"])
        if name in seen:
            raise TaskprotoError(f"task {name} is twice in the export; nothing was imported")
        seen.add(name)
        task, statuses = exchange.to_task(line, base)
        here = tasks.get(name)
        if here is None:
            _check_free(engine, name)
            _check_workflow(engine, task)
            result.changes.append(Change(name, name, "create", ["new"], task, statuses))
            continue
        wanted = here.model_copy(deep=True)
        what = _set_fields(wanted, task.description, task.priority, task.depends_on)
        ignored = [k for k in ("workflow", "state") if getattr(here, k) != getattr(task, k)]
        if ignored:
            result.warnings.append(
                f"task {name} is here in {here.workflow} {here.state}, the export has it in "
                f"{task.workflow} {task.state}: its state and history here are kept"
            )
        result.changes.append(
            Change(name, name, "update" if what else "unchanged", what, wanted if what else None)
        )
    return result


# --- the peers --------------------------------------------------------------------------------


def _plan_items(
    engine: Engine, tasks: dict[str, Task], source: str, items: list[sources.Item], wf: Workflow
) -> Plan:
    result = Plan(source, [])
    names: dict[str, str] = {}  # source id -> task name
    for item in items:
        if item.id in names:
            raise TaskprotoError(
                f"{source} id {item.id} is twice in the file; nothing was imported"
            )
        name = sources.task_name_for(source, item.id)
        if name in names.values():
            other = next(i for i, n in names.items() if n == name)
            raise TaskprotoError(
                f"{source} ids {other} and {item.id} both become task {name}; nothing was imported"
            )
        names[item.id] = name
    known = {
        str(t.context[SOURCE_KEY].get("id")): n for n, t in tasks.items() if _source_of(t) == source
    }
    base = engine.git.rev_parse("HEAD")
    base_branch = engine.config.layout.dirs.head_branch() if engine.config.layout.dirs else None
    for item in items:
        name = names[item.id]
        after: list[str] = []
        for dep in item.after:
            found = names.get(dep) or known.get(dep)
            if found is None:
                result.warnings.append(
                    f"{item.id} waits for {dep}, which is neither in the file nor imported here: "
                    "left out"
                )
            elif found == name:  # once per item, however often the source says it
                line = f"{item.id} depends on itself: that dependency is left out"
                if line not in result.warnings:
                    result.warnings.append(line)
            elif found not in after:
                after.append(found)
        info = _source_info(item)
        here = tasks.get(name)
        if here is None:
            _check_free(engine, name)
            task = _new_task(item, name, wf, after, info, base, base_branch)
            result.changes.append(Change(name, item.id, "create", ["new"], task))
            continue
        if _source_of(here) != source or str(here.context[SOURCE_KEY].get("id")) != item.id:
            raise TaskprotoError(
                f"task {name} exists here and was not imported from {source} {item.id}; rename or "
                "remove it, then import again; nothing was imported"
            )
        wanted = here.model_copy(deep=True)
        what = _set_fields(wanted, item.description, item.priority, after)
        if here.context.get(SOURCE_KEY) != info:
            wanted.context[SOURCE_KEY] = info
            what.append("source record")
        state = _state_for(item, here, engine.workflow(here))
        if state is None and item.closed and here.owner is not None:
            result.warnings.append(
                f"{item.id} is closed in {source}, but session {here.owner.session} works on "
                f"task {name} here: its state is left as it is"
            )
        if state is not None:
            what.append(f"state {here.state} -> {state}")
            wanted.transition_log.append(_entry(here.state, state, item))
            wanted.state = state
        result.changes.append(
            Change(name, item.id, "update" if what else "unchanged", what, wanted if what else None)
        )
    return result


def _check_free(engine: Engine, name: str) -> None:
    """Refuse a new task whose name a branch or a journal here already has (as `task create`
    does): its worktrees would be made from that branch at its claim, or its task.json from that
    journal."""
    from taskproto.names import task_name

    task_name(name)
    if engine.branch_head(name) is not None:
        raise TaskprotoError(
            f"branch {name} already exists, so task {name} cannot be imported; rename or remove "
            "the branch, then import again; nothing was imported"
        )
    if engine.journal_head(name) is not None or engine.config.task_dir(name).exists():
        raise TaskprotoError(
            f"task {name} has a journal or a folder here but no readable task.json; run "
            "`taskproto doctor`, then import again; nothing was imported"
        )


def _check_workflow(engine: Engine, task: Task) -> None:
    """Refuse a task whose workflow or state this repository does not define (a user workflow
    the other repository had: copy its TOML file here first, docs/workflows.md)."""
    from taskproto.machine.registry import get_workflow

    try:
        wf = get_workflow(task.workflow, engine.config)
    except TaskprotoError as exc:
        raise TaskprotoError(
            f"task {task.name} uses workflow {task.workflow!r}, which is not defined here ({exc}); "
            "nothing was imported"
        ) from None
    if not wf.has_state(task.state):
        raise TaskprotoError(
            f"task {task.name} is in state {task.state}, which workflow {wf.name} here does not "
            "have; nothing was imported"
        )


def _source_of(task: Task) -> str | None:
    found = task.context.get(SOURCE_KEY)
    return str(found.get("from")) if isinstance(found, dict) else None


def _source_info(item: sources.Item) -> dict[str, Any]:
    """What task.json keeps of the item: the key for importing again, and what has no field."""
    info: dict[str, Any] = {"from": item.source, "id": item.id, "status": item.status}
    if item.url:
        info["url"] = item.url
    if item.closed_at is not None:
        info["closed_at"] = item.closed_at.isoformat()
    if item.close_reason:
        info["close_reason"] = item.close_reason
    if item.links:
        info["links"] = item.links
    return info


def _new_task(
    item: sources.Item,
    name: str,
    wf: Workflow,
    after: list[str],
    info: dict[str, Any],
    base: str | None,
    base_branch: str | None,
) -> Task:
    state = wf.final_states()[0] if item.closed else wf.initial
    now = utcnow()
    return Task(
        name=name,
        workflow=wf.name,
        state=state,
        description=item.description,
        base=base,
        base_branch=base_branch,
        created_at=item.created_at or now,
        updated_at=now,
        revision=1,
        depends_on=after,
        priority=item.priority,
        context={SOURCE_KEY: info, DEFERRED_KEY: DEFERRED},
        transition_log=[_entry(None, state, item)],
    )


def _entry(was: str | None, state: str, item: sources.Item) -> LogEntry:
    """The log entry that puts the task in the state its source gave, with the source's
    history in its note."""
    note = f"imported from {item.source} {item.id} ({item.status or 'open'}"
    if item.created_at is not None:
        note += f", created {item.created_at.isoformat()}"
    if item.closed and item.closed_at is not None:
        note += f", closed {item.closed_at.isoformat()}"
    if item.close_reason:
        note += f": {item.close_reason}"
    return LogEntry(
        from_state=was,
        to_state=state,
        trigger="import",
        time=utcnow(),
        kind="import",
        note=note + ")",
    )


def _state_for(item: sources.Item, task: Task, wf: Workflow) -> str | None:
    """The state an import moves a task to, or None: closed in the source and not done here
    -> the final state; reopened in the source while final here -> the initial state. Work in
    progress here is never reset by an open item."""
    if item.closed and not wf.is_final(task.state):
        if task.owner is not None:
            return None  # somebody works on it here: it stays theirs (a warning says so)
        return wf.final_states()[0]
    if not item.closed and wf.is_final(task.state) and task.landed is None:
        return wf.initial
    return None


def _set_fields(task: Task, description: str, priority: int, after: list[str]) -> list[str]:
    what: list[str] = []
    if task.description != description:
        task.description = description
        what.append("description")
    if task.priority != priority:
        what.append(f"priority {task.priority} -> {priority}")
        task.priority = priority
    if list(task.depends_on) != list(after):
        what.append(f"waits for {', '.join(after) or 'nothing'}")
        task.depends_on = list(after)
    return what


def _updater(
    wanted: Task, change: Change, session: str | None
) -> Callable[[Task], tuple[Task, str] | None]:
    return lambda task: _update(task, wanted, change, session)


def _update(task: Task, wanted: Task, change: Change, session: str | None) -> tuple[Task, str]:
    """The changed copy, from the task as it is now (the lock is held): refused if it moved."""
    if task.revision != wanted.revision:
        raise TaskprotoError(f"task {task.name} changed while the import ran; run the import again")
    # the fields from the plan, onto the task as loaded now (its entries are the ones the save
    # counts the log from: state/bound.py), and the entries the plan appended
    new = task.model_copy(deep=True)
    new.description, new.priority = wanted.description, wanted.priority
    new.depends_on = list(wanted.depends_on)
    if SOURCE_KEY in wanted.context:
        new.context[SOURCE_KEY] = wanted.context[SOURCE_KEY]
    new.transition_log.extend(wanted.transition_log[len(task.transition_log) :])
    new.state = wanted.state
    new.record(
        trigger="import",
        time=utcnow(),
        session=session,
        kind="note",
        note=f"import from {change.source_id}: {'; '.join(change.what)}",
    )
    return new, f"import: {'; '.join(change.what)}"


# --- the dependency graph ----------------------------------------------------------------------


def _check_graph(engine: Engine, tasks: dict[str, Task], result: Plan) -> None:
    """Refuse a plan whose changed tasks wait for a task nowhere (one removed here, its journal
    archived, is somewhere: engine/deps.py), or whose dependencies close a cycle."""
    from taskproto.state import journal

    changed = {c.name: list(c.task.depends_on) for c in result.changes if c.task is not None}
    graph = {**{n: list(t.depends_on) for n, t in tasks.items()}, **changed}
    for name in changed:  # the tasks here left as they are were checked when they were made
        for dep in graph[name]:
            if dep not in graph and not journal.latest_archive(engine.repo, dep):
                raise TaskprotoError(
                    f"task {name} waits for {dep}, which is neither in the file nor here; "
                    "nothing was imported"
                )
    cycle = _cycle(graph)
    if cycle:
        raise TaskprotoError(
            f"refused: the file's dependencies close the cycle {' -> '.join(cycle)}; nothing was "
            "imported"
        )


def _cycle(graph: dict[str, list[str]]) -> list[str] | None:
    """A cycle of `graph` (its names, the first repeated at the end), or None."""
    colour: dict[str, int] = {}  # 1: on the path, 2: done
    for start in graph:
        if colour.get(start):
            continue
        path: list[str] = [start]
        stack = [iter(graph[start])]
        colour[start] = 1
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                colour[path.pop()] = 2
                stack.pop()
            elif colour.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            elif not colour.get(nxt):
                colour[nxt] = 1
                path.append(nxt)
                stack.append(iter(graph.get(nxt, [])))
    return None


def _dependencies_first(changes: list[Change]) -> list[Change]:
    by_name = {c.name: c for c in changes}
    done: set[str] = set()
    order: list[Change] = []

    def visit(change: Change) -> None:
        stack = [(change, False)]
        while stack:
            current, ready = stack.pop()
            if current.name in done:
                continue
            if ready:
                done.add(current.name)
                order.append(current)
                continue
            stack.append((current, True))
            assert current.task is not None
            for dep in current.task.depends_on:
                if dep in by_name and dep not in done:
                    stack.append((by_name[dep], False))

    for change in changes:
        visit(change)
    return order

"""Dependencies between tasks: what a task waits for, and adding or removing what it waits for.

A task waits for each task in its `depends_on` until that task reaches one of its workflow's
final states (`StateDef.final` or `terminal`: CLEANUP, after `land`, for task-protocol, VERIFIED
for plan-task). A dependency that was removed counts as done when its archived journal ends in a
final state. Adding a dependency that would close a cycle is refused with the cycle named; all
adds of this repository take one lock, so two of them cannot close a cycle between them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from taskproto.engine.core import Core
from taskproto.errors import TaskprotoError
from taskproto.names import TaskName, task_name
from taskproto.state import journal, summary
from taskproto.state.lock import task_lock
from taskproto.state.models import Task, utcnow

DEPS_LOCK = ".deps"  # a folder name layout.task_names() skips (it starts with a dot)


class Blocked(TaskprotoError):
    """A claim of a task that waits for others."""

    def __init__(self, task: str, waits: Sequence[Waiting], action: str) -> None:
        self.task, self.waits = task, list(waits)
        super().__init__(f"task {task!r} waits for {describe(waits)}; {action}")


class DependencyCycle(TaskprotoError):
    def __init__(self, cycle: Sequence[str]) -> None:
        self.cycle = list(cycle)
        super().__init__(
            f"refused: that dependency would close the cycle {' -> '.join(cycle)}; nothing changed"
        )


@dataclass(frozen=True)
class Waiting:
    """One unfinished dependency: its name, its state (None when it cannot be read) and why."""

    task: str
    state: str | None
    why: str

    def to_dict(self) -> dict[str, str | None]:
        return {"task": self.task, "state": self.state, "why": self.why}


def describe(waits: Sequence[Waiting]) -> str:
    return summary.describe([w.to_dict() for w in waits])


def load_all(core: Core) -> tuple[dict[str, Task], dict[str, str]]:
    """Every task here that can be read, and why each other one cannot (never fatal):
    `Core.load_many`, the one reader of many tasks."""
    return core.load_many()


class Resolver:
    """Answers "is this dependency done?" for many tasks, reading each task and archive once."""

    def __init__(
        self, core: Core, tasks: Mapping[str, Task] | None = None, broken: Mapping[str, str] = {}
    ) -> None:
        self.core = core
        self.tasks: dict[str, Task] = dict(tasks or {})
        self.broken = dict(broken)
        self.complete = tasks is not None  # every task here is in `tasks` or `broken`
        self._archived: dict[str, str | None] = {}

    def _task(self, name: str) -> Task | None:
        if name in self.tasks or name in self.broken or self.complete:
            return self.tasks.get(name)
        try:
            self.tasks[name] = self.core.load(name)
        except Exception as exc:  # noqa: BLE001 - a dependency that cannot be read blocks, says why
            if self.core.config.task_dir(name).is_dir():
                self.broken[name] = str(exc)
            return None
        return self.tasks[name]

    def archived_state(self, name: str) -> str | None:
        """The final state a removed task's archived journal ends in, or None."""
        if name not in self._archived:
            state = None
            try:
                ref = journal.latest_archive(self.core.repo, name)
                data = journal.task_json_at(self.core.repo, ref) if ref else None
                if data is not None:
                    wf = self.core.workflow(Task.model_validate(data))
                    state = str(data.get("state"))
                    state = state if wf.is_final(state) else None
            except Exception:  # noqa: BLE001 - an unreadable archive is simply not done
                state = None
            self._archived[name] = state
        return self._archived[name]

    def waiting(self, dep: str) -> Waiting | None:
        """None when `dep` is done, else why it is not."""
        task = self._task(dep)
        if task is None:
            if dep in self.broken:
                return Waiting(dep, None, "unreadable: run `taskproto doctor`")
            if self.archived_state(dep) is not None:
                return None
            return Waiting(dep, None, "not on this machine")
        try:
            wf = self.core.workflow(task)
        except TaskprotoError:
            return Waiting(dep, task.state, f"unknown workflow {task.workflow!r}")
        if wf.is_final(task.state):
            return None
        return Waiting(dep, task.state, f"in {task.state}")

    def waits_for(self, task: Task) -> list[Waiting]:
        return [w for d in task.depends_on if (w := self.waiting(d)) is not None]


def find_path(graph: Mapping[str, Sequence[str]], start: str, goal: str) -> list[str] | None:
    """A path start -> ... -> goal along the edges of `graph`, or None (pure)."""
    stack: list[tuple[str, list[str]]] = [(start, [start])]
    seen: set[str] = set()
    while stack:
        node, path = stack.pop()
        if node == goal:
            return path
        if node in seen:
            continue
        seen.add(node)
        for nxt in reversed(list(graph.get(node, ()))):
            if nxt not in seen:
                stack.append((nxt, [*path, nxt]))
    return None


def check_no_cycle(graph: Mapping[str, Sequence[str]], task: str, on: Sequence[str]) -> None:
    """Refuse edges task -> each of `on` when one of them already leads back to `task`."""
    for other in on:
        back = find_path(graph, other, task)
        if back is not None:
            raise DependencyCycle([task, *back])


@contextmanager
def graph_lock(core: Core) -> Iterator[None]:
    """The repository's one lock for changing dependencies (so no two adds close a cycle)."""
    folder = core.config.tasks_dir / DEPS_LOCK
    folder.mkdir(parents=True, exist_ok=True)
    with task_lock(folder, "(dependencies)", core.config.lock_timeout):
        yield


def check_new(core: Core, name: str, on: Sequence[str]) -> list[TaskName]:
    """The dependencies `on` of task `name`, checked: names valid, no repeats, each an existing
    task, no cycle through the tasks here."""
    valid: list[TaskName] = []
    for other in on:
        dep = task_name(other)
        if dep == name:
            raise DependencyCycle([name, name])
        if dep not in valid:
            valid.append(dep)
    known = set(core.task_names())
    archived = Resolver(core, broken={})
    # A task landed or removed (here, or elsewhere and synced) counts as here, as an import counts
    # it (ops/importing.py): waiting for one that ended in a final state (landed) is met at once.
    missing = [d for d in valid if d not in known and archived.archived_state(d) is None]
    unfinished = [d for d in missing if journal.latest_archive(core.repo, d)]
    if unfinished:
        from taskproto.engine.gone import no_longer_here
        from taskproto.errors import TaskNotFound

        said = str(no_longer_here(core, TaskNotFound(unfinished[0])))
        raise TaskprotoError(
            f"{said}; it ended unfinished, so a task waiting for it would wait forever: "
            "leave it out"
        )
    if missing:
        raise TaskprotoError(
            f"no task named {', '.join(repr(m) for m in missing)} to depend on "
            "(see `taskproto task list`; run `taskproto sync` if it was made elsewhere)"
        )
    tasks, _ = load_all(core)
    check_no_cycle({n: t.depends_on for n, t in tasks.items()}, name, valid)
    return valid


def add(core: Core, name: TaskName, on: Sequence[str], session: str | None) -> Task:
    """Make task `name` wait for each of `on` as well (journaled); refused with the cycle named."""
    with graph_lock(core):
        core.load(name)
        valid = check_new(core, name, on)

        def change(task: Task) -> tuple[Task, str] | None:
            new_deps = [d for d in valid if d not in task.depends_on]
            if not new_deps:
                return None
            new = task.model_copy(deep=True)
            new.depends_on.extend(new_deps)
            _note(new, task, session, f"waits for {', '.join(new_deps)}", "dep add")
            return new, f"dep add: {', '.join(new_deps)}"

        return core.mutate(name, change)


def remove(core: Core, name: TaskName, on: Sequence[str], session: str | None) -> Task:
    """Stop task `name` waiting for `on` (the user's: an agent could free its own task so)."""
    core.require_user("removing a dependency")
    drop = [task_name(d) for d in on]

    def change(task: Task) -> tuple[Task, str]:
        unknown = [d for d in drop if d not in task.depends_on]
        if unknown:
            has = ", ".join(task.depends_on) or "nothing"
            raise TaskprotoError(
                f"task {name!r} does not depend on {', '.join(unknown)} (it waits for {has})"
            )
        new = task.model_copy(deep=True)
        new.depends_on = [d for d in task.depends_on if d not in drop]
        _note(new, task, session, f"no longer waits for {', '.join(drop)}", "dep remove")
        return new, f"dep remove: {', '.join(drop)}"

    with graph_lock(core):
        return core.mutate(name, change)


def _note(new: Task, old: Task, session: str | None, note: str, trigger: str) -> None:
    new.record(
        trigger=trigger,
        time=utcnow(),
        session=session,
        kind="note",
        note=note,
    )

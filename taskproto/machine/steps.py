"""Guards and effects by name, what they are given (FireContext), and task.json seen as a task.

A workflow's transitions name their guards (checks: why a transition may not fire, or None) and
effects (what it changes in the new task); the built-in workflows register theirs here with
`@guard` and `@effect`. machine/workflow.py fires them on the task. Standard library only:
`Record` is task.json's JSON seen through attributes, as the quick front reads a tight-loop
task's turn (cli/quick.py) with tight-loop's own functions.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from datetime import datetime
    from typing import Any

    Guard = Callable[[Any, "FireContext"], "str | None"]  # returns why it fails, or None
    Effect = Callable[[Any, "FireContext"], None]  # mutates the (already copied) new task


class FireContext:
    """What the engine knows when it fires: the facts guards and effects read."""

    def __init__(
        self,
        time: datetime,
        session: str | None = None,
        forced: bool = False,
        agent_statuses: Mapping[str, str] | None = None,
        branch_head: str | None = None,
        params: Mapping[str, Any] | None = None,
        note: str | None = None,
    ) -> None:
        self.time, self.session, self.forced, self.note = time, session, forced, note
        self.agent_statuses: Mapping[str, str] = agent_statuses if agent_statuses else {}
        self.branch_head = branch_head
        self.params: Mapping[str, Any] = params if params else {}


GUARDS: dict[str, Guard] = {}
EFFECTS: dict[str, Effect] = {}


def guard(name: str) -> Callable[[Guard], Guard]:
    def register(fn: Guard) -> Guard:
        GUARDS[name] = fn
        return fn

    return register


def effect(name: str) -> Callable[[Effect], Effect]:
    def register(fn: Effect) -> Effect:
        EFFECTS[name] = fn
        return fn

    return register


class Record:
    """A task.json object seen through attributes, as the models show it: `task.counters.round
    += 1` changes the JSON. Objects inside it are Records too, except the free-form ones (`FREE`:
    the models' `dict` fields), which are the dicts themselves; lists are the lists. Asking for a
    field that is not there raises AttributeError, and setting one that is not there too (the
    models forbid unknown fields)."""

    __slots__ = ("_data",)
    FREE = frozenset({"context", "artifacts"})

    def __init__(self, data: dict[str, Any]) -> None:
        object.__setattr__(self, "_data", data)

    def __getattr__(self, key: str) -> Any:
        try:
            value = self._data[key]
        except KeyError:
            raise AttributeError(key) from None
        if isinstance(value, dict) and key not in self.FREE:
            return Record(value)
        return value

    def __setattr__(self, key: str, value: Any) -> None:
        if key not in self._data:
            raise AttributeError(key)
        self._data[key] = value._data if isinstance(value, Record) else value

"""The built-in workflows, and lookup by name."""

from __future__ import annotations

from collections.abc import Callable

from taskproto.errors import TaskprotoError
from taskproto.workflow import Workflow

_BUILTIN: dict[str, Callable[[], Workflow]] = {}


def builtin(name: str) -> Callable[[Callable[[], Workflow]], Callable[[], Workflow]]:
    def register(fn: Callable[[], Workflow]) -> Callable[[], Workflow]:
        _BUILTIN[name] = fn
        return fn

    return register


def _load_builtins() -> None:
    # Importing a module registers its workflow, guards and effects.
    from taskproto.workflows import task_protocol  # noqa: F401


def builtin_names() -> list[str]:
    _load_builtins()
    return sorted(_BUILTIN)


def get_workflow(name: str) -> Workflow:
    _load_builtins()
    factory = _BUILTIN.get(name)
    if factory is None:
        raise TaskprotoError(
            f"no workflow named {name!r}; available: {', '.join(sorted(_BUILTIN))} "
            "(see `taskproto workflow list`)"
        )
    return factory()

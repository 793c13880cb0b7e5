"""The built-in workflows, user-defined ones, and lookup by name."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from taskproto.errors import TaskprotoError
from taskproto.machine.workflow import Workflow

if TYPE_CHECKING:
    from taskproto.config import Config

_BUILTIN: dict[str, Callable[[], Workflow]] = {}


def builtin(name: str) -> Callable[[Callable[[], Workflow]], Callable[[], Workflow]]:
    def register(fn: Callable[[], Workflow]) -> Callable[[], Workflow]:
        _BUILTIN[name] = fn
        return fn

    return register


def _load_builtins() -> None:
    # Importing a module registers its workflow, guards and effects.
    from taskproto.machine.builtin import (  # noqa: F401
        phone_a_team,
        plan_task,
        task_protocol,
        tight_loop,
    )


def builtin_names() -> list[str]:
    _load_builtins()
    return sorted(_BUILTIN)


def workflow_names(config: Config | None = None) -> list[str]:
    """Built-in names, then the user-defined ones of `config`'s repository."""
    names = builtin_names()
    if config is not None:
        from taskproto.machine import user

        names += [n for n in user.user_workflow_names(config) if n not in names]
    return names


def get_workflow(name: str, config: Config | None = None) -> Workflow:
    """A built-in workflow (a dict lookup), else a user-defined one of `config`'s repository."""
    _load_builtins()
    factory = _BUILTIN.get(name)
    if factory is not None:
        return factory()
    if config is not None:
        from taskproto.machine import user

        found = user.find_user_workflow(config, name)
        if found is not None:
            return found
    raise TaskprotoError(
        f"no workflow named {name!r}; available: {', '.join(workflow_names(config))} "
        "(see `taskproto workflow list`)"
    )

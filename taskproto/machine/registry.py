"""Every workflow taskproto knows: the built-ins, in one explicit table, and the repository's own.

Like pre-commit's `all_languages.py`: adding a built-in workflow is one import and one
row below. A definition is checked when it is first built (checks.py), the built-ins
included, and then kept for the life of the process.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

from taskproto.errors import TaskprotoError
from taskproto.machine import checks, user
from taskproto.machine.steps import EFFECTS, GUARDS
from taskproto.machine.workflow import Workflow

if TYPE_CHECKING:
    from taskproto.config import Config

# name -> its module in taskproto/machine/builtin/ (which defines NAME and definition())
BUILTIN_MODULES = {
    "task-protocol": "task_protocol",
    "plan-task": "plan_task",
    "tight-loop": "tight_loop",
    "phone-a-team": "phone_a_team",
}


class _Builtins(Mapping[str, Callable[[], Workflow]]):
    """name -> definition. A module is imported when its workflow is first asked for: a command on
    a task-protocol task does not pay for plan-task's artifact models (pydantic classes)."""

    def __getitem__(self, name: str) -> Callable[[], Workflow]:
        module = import_module(f"taskproto.machine.builtin.{BUILTIN_MODULES[name]}")
        assert module.NAME == name, f"{module.__name__} defines {module.NAME}, not {name}"
        definition: Callable[[], Workflow] = module.definition
        return definition

    def __iter__(self) -> Iterator[str]:
        return iter(BUILTIN_MODULES)

    def __len__(self) -> int:
        return len(BUILTIN_MODULES)


BUILTINS = _Builtins()


def load_all() -> Mapping[str, Callable[[], Workflow]]:
    """Every built-in module imported, so GUARDS and EFFECTS hold every built-in guard and effect
    (a user workflow may name any of them)."""
    for name in BUILTINS:
        BUILTINS[name]
    return BUILTINS


def builtin_names() -> list[str]:
    return sorted(BUILTINS)


@cache
def builtin(name: str) -> Workflow:
    """A built-in workflow, checked the first time it is built (a broken built-in is a bug: it
    raises)."""
    return checks.require_valid(BUILTINS[name](), GUARDS, EFFECTS, f"built-in workflow {name}")


def workflow_names(config: Config | None = None) -> list[str]:
    """Built-in names, then the user-defined ones of `config`'s repository."""
    names = builtin_names()
    if config is not None:
        names += [n for n in user.user_workflow_names(config) if n not in names]
    return names


def get_workflow(name: str, config: Config | None = None) -> Workflow:
    """A built-in workflow, else a user-defined one of `config`'s repository (validated)."""
    if name in BUILTINS:
        return builtin(name)
    if config is not None:
        found = user.find_source(config, name)
        if found is not None:
            table, source = found
            return user.validate(table, name, source, load_all(), GUARDS, EFFECTS)
    raise TaskprotoError(
        f"no workflow named {name!r}; available: {', '.join(workflow_names(config))} "
        "(see `taskproto workflow list`)"
    )


def load_file(path: Path) -> Workflow:
    """Read and validate one user workflow file (its name is the file's stem), without installing
    it."""
    return user.validate(
        user.read_file(path), path.stem, str(path.absolute()), load_all(), GUARDS, EFFECTS
    )


def file_problems(path: Path) -> tuple[Workflow | None, list[str]]:
    return user.problems(user.read_file(path), path.stem, load_all(), GUARDS, EFFECTS)

"""Every workflow taskproto knows: the built-ins, in one explicit table, and the repository's own.

Like pre-commit's `all_languages.py`: adding a built-in workflow is one import and one
row below. A definition is checked when it is first built (checks.py), the built-ins
included, and then kept for the life of the process.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from taskproto.errors import TaskprotoError
from taskproto.machine import checks, user
from taskproto.machine.builtin import phone_a_team, plan_task, task_protocol, tight_loop
from taskproto.machine.workflow import EFFECTS, GUARDS, Workflow

if TYPE_CHECKING:
    from taskproto.config import Config

BUILTINS: dict[str, Callable[[], Workflow]] = {
    task_protocol.NAME: task_protocol.definition,
    plan_task.NAME: plan_task.definition,
    tight_loop.NAME: tight_loop.definition,
    phone_a_team.NAME: phone_a_team.definition,
}


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
            return user.validate(table, name, source, BUILTINS, GUARDS, EFFECTS)
    raise TaskprotoError(
        f"no workflow named {name!r}; available: {', '.join(workflow_names(config))} "
        "(see `taskproto workflow list`)"
    )


def load_file(path: Path) -> Workflow:
    """Read and validate one user workflow file (its name is the file's stem), without installing
    it."""
    return user.validate(
        user.read_file(path), path.stem, str(path.absolute()), BUILTINS, GUARDS, EFFECTS
    )


def file_problems(path: Path) -> tuple[Workflow | None, list[str]]:
    return user.problems(user.read_file(path), path.stem, BUILTINS, GUARDS, EFFECTS)

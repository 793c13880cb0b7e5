"""Every workflow taskproto knows: the built-ins, in one explicit table, and the repository's own.

Like pre-commit's `all_languages.py`: adding a built-in workflow is one import and one
row below. A definition is checked when it is first built (checks.py), the built-ins
included, and then kept for the life of the process.
"""

from __future__ import annotations

from taskproto.errors import TaskprotoError
from taskproto.machine import checks
from taskproto.machine.steps import EFFECTS, GUARDS
from taskproto.machine.workflow import Workflow

# Every command reads its task's workflow: no `typing`, `functools`, `pathlib` or `tomllib` at run
# time here (machine/user.py, which reads TOML, is imported only for a repository's own workflows).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping
    from pathlib import Path

    from taskproto.config import Config

# name -> its module in taskproto/machine/builtin/ (which defines NAME and definition())
BUILTIN_MODULES = {
    "task-protocol": "task_protocol",
    "plan-task": "plan_task",
    "tight-loop": "tight_loop",
    "phone-a-team": "phone_a_team",
}


class _Builtins:
    """name -> definition (a read-only mapping). A module is imported when its workflow is first
    asked for: a command on a task-protocol task does not pay for plan-task's artifact models
    (pydantic classes)."""

    def __getitem__(self, name: str) -> Callable[[], Workflow]:
        path = f"taskproto.machine.builtin.{BUILTIN_MODULES[name]}"
        __import__(path)
        import sys

        module = sys.modules[path]
        assert module.NAME == name, f"{module.__name__} defines {module.NAME}, not {name}"
        definition: Callable[[], Workflow] = module.definition
        return definition

    def __contains__(self, name: object) -> bool:
        return name in BUILTIN_MODULES

    def __iter__(self) -> Iterator[str]:
        return iter(BUILTIN_MODULES)

    def __len__(self) -> int:
        return len(BUILTIN_MODULES)

    def keys(self) -> Iterator[str]:
        return iter(BUILTIN_MODULES)

    def items(self) -> Iterator[tuple[str, Callable[[], Workflow]]]:
        return ((name, self[name]) for name in BUILTIN_MODULES)

    def values(self) -> Iterator[Callable[[], Workflow]]:
        return (self[name] for name in BUILTIN_MODULES)

    def get(self, name: str, default: object = None) -> object:
        return self[name] if name in BUILTIN_MODULES else default


BUILTINS = _Builtins()


def load_all() -> Mapping[str, Callable[[], Workflow]]:
    """Every built-in module imported, so GUARDS and EFFECTS hold every built-in guard and effect
    (a user workflow may name any of them)."""
    return {name: BUILTINS[name] for name in BUILTINS}


def builtin_names() -> list[str]:
    return sorted(BUILTINS)


_BUILT: dict[str, Workflow] = {}


def builtin(name: str) -> Workflow:
    """A built-in workflow, checked the first time it is built (a broken built-in is a bug: it
    raises)."""
    found = _BUILT.get(name)
    if found is None:
        found = checks.require_valid(BUILTINS[name](), GUARDS, EFFECTS, f"built-in workflow {name}")
        _BUILT[name] = found
    return found


def workflow_names(config: Config | None = None) -> list[str]:
    """Built-in names, then the user-defined ones of `config`'s repository."""
    names = builtin_names()
    if config is not None:
        from taskproto.machine import user

        names += [n for n in user.user_workflow_names(config) if n not in names]
    return names


def get_workflow(name: str, config: Config | None = None) -> Workflow:
    """A built-in workflow, else a user-defined one of `config`'s repository (validated)."""
    if name in BUILTINS:
        return builtin(name)
    if config is not None:
        from taskproto.machine import user

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
    from taskproto.machine import user

    return user.validate(
        user.read_file(path), path.stem, str(path.absolute()), load_all(), GUARDS, EFFECTS
    )


def file_problems(path: Path) -> tuple[Workflow | None, list[str]]:
    from taskproto.machine import user

    return user.problems(user.read_file(path), path.stem, load_all(), GUARDS, EFFECTS)

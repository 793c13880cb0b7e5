"""User-defined workflows: `<root>/workflows/NAME.toml` or `[workflows.NAME]` in the repo config.

A file is the Workflow model written as TOML (see docs/workflows.md). It is
checked as a whole and every problem is reported with the file and the key it
is under, so one run of `taskproto workflow validate FILE` lists them all.
"""

from __future__ import annotations

import tomllib
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from taskproto.errors import InvalidName, ValidationFailed
from taskproto.machine.workflow import EFFECTS, GUARDS, Workflow
from taskproto.names import check_name

if TYPE_CHECKING:
    from taskproto.config import Config

SUFFIX = ".toml"


def workflows_dir(config: Config) -> Path:
    return config.root / "workflows"


def _config_tables(config: Config) -> dict[str, Any]:
    tables = config.raw.get("workflows", {})
    return tables if isinstance(tables, dict) else {}


def _config_source(config: Config) -> str:
    for name in (".taskproto.toml", "pyproject.toml"):
        if (config.repo / name).is_file():
            return str(config.repo / name)
    return "the repository config"


def user_workflow_names(config: Config) -> list[str]:
    names: set[str] = set()
    folder = workflows_dir(config)
    if folder.is_dir():
        names.update(p.stem for p in folder.iterdir() if p.suffix == SUFFIX and p.is_file())
    names.update(k for k, v in _config_tables(config).items() if isinstance(v, dict))
    return sorted(names)


def find_user_workflow(config: Config, name: str) -> Workflow | None:
    """The user workflow `name` (file first, then config table), validated; None if there is none."""
    try:
        check_name("workflow", name)
    except InvalidName:
        return None
    path = workflows_dir(config) / f"{name}{SUFFIX}"
    if path.is_file():
        return load_file(path)
    table = _config_tables(config).get(name)
    if isinstance(table, dict):
        return validate(table, name, f"{_config_source(config)} [workflows.{name}]")
    return None


def load_file(path: Path) -> Workflow:
    """Read and validate one workflow file; its name is the file's stem."""
    path = path.absolute()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValidationFailed(f"{path}: no such file") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ValidationFailed(f"{path}: not valid TOML ({exc})") from None
    return validate(data, path.stem, str(path))


def _key(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top)"


def problems(data: dict[str, Any], name: str) -> tuple[Workflow | None, list[str]]:
    """Check a workflow table; returns the model (if it parsed) and every problem as `key: what`."""
    from taskproto.machine.registry import _load_builtins, builtin_names

    _load_builtins()  # the built-ins register the guards and effects a user file may name
    found: list[str] = []
    data = dict(data)
    declared = data.get("name", name)
    if declared != name:
        found.append(
            f"name: {declared!r} differs from the workflow's name {name!r} (the file's stem or table key)"
        )
    data["name"] = name
    try:
        check_name("workflow", name)
    except InvalidName as exc:
        found.append(f"name: {exc}")
    if name in builtin_names():
        found.append(f"name: {name!r} is a built-in workflow; copy it under another name")
    if "initial" not in data:
        found.append("initial: missing; name the state a new task starts in")
        data["initial"] = ""
    try:
        wf = Workflow.model_validate(data)
    except ValidationError as exc:
        for err in exc.errors():
            found.append(f"{_key(err['loc'])}: {err['msg']}")
        return None, found
    states = wf.state_names()
    seen: set[str] = set()
    for i, s in enumerate(wf.states):
        if s.name in seen:
            found.append(f"states[{i}].name: duplicate state {s.name!r}")
        seen.add(s.name)
    if not states:
        found.append("states: the workflow has no states")
    if wf.initial and wf.initial not in seen:
        found.append(
            f"initial: {wf.initial!r} is not one of the states ({', '.join(states) or 'none'})"
        )
    for i, t in enumerate(wf.transitions):
        for j, src in enumerate(t.source):
            if src not in seen:
                found.append(
                    f"transitions[{i}].source[{j}]: unknown state {src!r} (trigger {t.trigger!r})"
                )
        if t.dest not in seen:
            found.append(f"transitions[{i}].dest: unknown state {t.dest!r} (trigger {t.trigger!r})")
        for j, g in enumerate(t.guards):
            if g.lstrip("!") not in GUARDS:
                found.append(
                    f"transitions[{i}].guards[{j}]: unknown guard {g!r} (known: {', '.join(sorted(GUARDS))})"
                )
        for j, e in enumerate(t.effects):
            if e not in EFFECTS:
                found.append(
                    f"transitions[{i}].effects[{j}]: unknown effect {e!r} (known: {', '.join(sorted(EFFECTS))})"
                )
    for i, s in enumerate(wf.states):
        exits = [t.trigger for t in wf.triggers_from(s.name)]
        if s.terminal and exits:
            found.append(
                f"states[{i}].terminal: {s.name} is terminal but has exits ({', '.join(exits)})"
            )
    if wf.initial in seen:
        reached = reachable(wf)
        for i, s in enumerate(wf.states):
            if s.name not in reached:
                found.append(
                    f"states[{i}]: {s.name} is unreachable from the initial state {wf.initial}"
                )
    if not any(s.terminal for s in wf.states) and states:
        found.append("states: no state is terminal; mark the final one `terminal = true`")
    return wf, found


def reachable(wf: Workflow) -> set[str]:
    seen = {wf.initial}
    todo = deque([wf.initial])
    while todo:
        for dest in wf.targets_from(todo.popleft()):
            if dest not in seen:
                seen.add(dest)
                todo.append(dest)
    return seen


def validate(data: dict[str, Any], name: str, source: str) -> Workflow:
    """The workflow, or ValidationFailed listing every problem as `SOURCE: key: what`."""
    wf, found = problems(data, name)
    if found or wf is None:
        lines = "\n".join(f"  {source}: {p}" for p in found)
        raise ValidationFailed(
            f"{source}: workflow {name!r} is invalid ({len(found)} problem(s)):\n{lines}"
        )
    return wf

"""User-defined workflows: `<root>/workflows/NAME.toml` or `[workflows.NAME]` in the repo config.

A file is the Workflow model written as TOML (see docs/workflows.md). It is
checked as a whole and every problem is reported with the file and the key it
is under, so one run of `taskproto workflow validate FILE` lists them all.
"""

from __future__ import annotations

import tomllib
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from taskproto.errors import InvalidName, ValidationFailed
from taskproto.machine import checks
from taskproto.machine.workflow import Workflow
from taskproto.names import check_name
from taskproto.state.record import RecordError

if TYPE_CHECKING:
    from taskproto.config import Config

SUFFIX = ".toml"


def workflows_dir(config: Config) -> Path:
    return config.root / "workflows"


def _config_tables(config: Config) -> dict[str, Any]:
    tables = config.raw.get("workflows", {})
    return tables if isinstance(tables, dict) else {}


def _config_source(config: Config) -> str:
    return config.source or "the repository config"


def user_workflow_names(config: Config) -> list[str]:
    names: set[str] = set()
    folder = workflows_dir(config)
    if folder.is_dir():
        names.update(p.stem for p in folder.iterdir() if p.suffix == SUFFIX and p.is_file())
    names.update(k for k, v in _config_tables(config).items() if isinstance(v, dict))
    return sorted(names)


def find_source(config: Config, name: str) -> tuple[dict[str, Any], str] | None:
    """The table of user workflow `name` and where it is (file first, then config); None if none."""
    try:
        check_name("workflow", name)
    except InvalidName:
        return None
    path = workflows_dir(config) / f"{name}{SUFFIX}"
    if path.is_file():
        return read_file(path), str(path.absolute())
    table = _config_tables(config).get(name)
    if isinstance(table, dict):
        return table, f"{_config_source(config)} [workflows.{name}]"
    return None


def read_file(path: Path) -> dict[str, Any]:
    """One workflow file's table (its workflow's name is the file's stem)."""
    path = path.absolute()
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValidationFailed(f"{path}: no such file") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ValidationFailed(f"{path}: not valid TOML ({exc})") from None


def _key(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top)"


def problems(
    data: dict[str, Any],
    name: str,
    reserved: Collection[str],
    guards: Mapping[str, object],
    effects: Mapping[str, object],
) -> tuple[Workflow | None, list[str]]:
    """Check a workflow table; returns the model (if it parsed) and every problem as `key: what`.

    `reserved` are the built-in names a user workflow may not take; `guards` and `effects` the
    ones a user file may name.
    """
    found: list[str] = []
    data = dict(data)
    declared = data.get("name", name)
    if declared != name:
        found.append(
            f"name: {declared!r} differs from the workflow's name {name!r} (the file's stem or "
            "table key)"
        )
    data["name"] = name
    try:
        check_name("workflow", name)
    except InvalidName as exc:
        found.append(f"name: {exc}")
    if name in reserved:
        found.append(f"name: {name!r} is a built-in workflow; copy it under another name")
    if "initial" not in data:
        found.append("initial: missing; name the state a new task starts in")
        data["initial"] = ""
    try:
        wf = Workflow.model_validate(data)
    except RecordError as exc:
        for err in exc.errors():
            found.append(f"{_key(err['loc'])}: {err['msg']}")
        return None, found
    return wf, found + checks.problems(wf, guards, effects)


def validate(
    data: dict[str, Any],
    name: str,
    source: str,
    reserved: Collection[str],
    guards: Mapping[str, object],
    effects: Mapping[str, object],
) -> Workflow:
    """The workflow, or ValidationFailed listing every problem as `SOURCE: key: what`."""
    wf, found = problems(data, name, reserved, guards, effects)
    if found or wf is None:
        lines = "\n".join(f"  {source}: {p}" for p in found)
        raise ValidationFailed(
            f"{source}: workflow {name!r} is invalid ({len(found)} problem(s)):\n{lines}"
        )
    return wf

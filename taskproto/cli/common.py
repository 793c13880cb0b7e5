"""Shared pieces of the CLI: the lazily built engine and output helpers."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from taskproto.errors import TaskprotoError

if TYPE_CHECKING:
    from taskproto.engine import Engine


@dataclass
class AppState:
    root: str | None
    session: str | None
    cwd: Path | None
    _engine: Engine | None = field(default=None, repr=False)

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            from taskproto.config import load_config
            from taskproto.engine import Engine

            self._engine = Engine(load_config(self.cwd, self.root))
        return self._engine

    def session_id(self) -> str | None:
        from taskproto.sessions import resolve_session

        return resolve_session(self.session)


pass_state = click.make_pass_decorator(AppState)

json_option = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")


def emit(as_json: bool, data: Any, human: Callable[[], None]) -> None:
    if as_json:
        click.echo(json.dumps(data, indent=2, default=str, sort_keys=False))
    else:
        human()


def flush_warnings(state: AppState) -> None:
    engine = state._engine
    if engine is not None:
        for warning in engine.warnings:
            click.echo(f"taskproto: warning: {warning}", err=True)


def split_csv(value: str | None) -> list[str]:
    if not value:
        return []
    return [item.strip() for item in value.split(",") if item.strip()]


def fail(message: str) -> TaskprotoError:
    return TaskprotoError(message)

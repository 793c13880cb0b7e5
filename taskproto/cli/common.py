"""Shared pieces of the CLI: the lazily built engine and output helpers."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from taskproto import plainjson as json
from taskproto.errors import TaskprotoError, UserOnly
from taskproto.state import pydantic_plugins

if TYPE_CHECKING:
    from taskproto.clients.terminal import Resolved
    from taskproto.engine import Engine

# before any command builds a model: every command module imports this one first
pydantic_plugins.skip()


@dataclass
class AppState:
    root: str | None
    session: str | None
    cwd: Path | None
    _engine: Engine | None = field(default=None, repr=False)
    _resolved: Resolved | None = field(default=None, repr=False)

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            from taskproto.config import load_config
            from taskproto.engine import USER, Actor, Engine

            why = self.agent_context()
            actor = Actor(agent=True, why=why) if why else USER
            self._engine = Engine(load_config(self.cwd, self.root), actor)
        return self._engine

    @property
    def built_engine(self) -> Engine | None:
        """The engine this command used, if it built one (an error handler must not build it)."""
        return self._engine

    def reload(self) -> None:
        """Read the settings again at the next use of the engine (a command that changed them)."""
        self._engine = None

    def agent_context(self) -> str | None:
        from taskproto.clients.detect import agent_context

        return agent_context()

    def resolved(self) -> Resolved:
        """The session this command acts as, and where it came from (clients/terminal.py)."""
        if self._resolved is None:
            from taskproto.clients.terminal import resolve

            self._resolved = resolve(self.session)
        return self._resolved

    def owner_pid(self, explicit: int | None) -> int | None:
        """The pid a claim records: --pid, TASKPROTO_SESSION_PID, else the terminal's shell."""
        return self.resolved().owner_pid(explicit)[0]

    def session_id(self) -> str | None:
        from taskproto.sessions import SESSION_ENV

        session = self.resolved().session
        own = os.environ.get(SESSION_ENV)
        if self.session and own and session != own.strip():
            why = self.agent_context()
            if why:  # an agent may not act as another session
                raise UserOnly(
                    f"acting as session {session!r} (this session is {own.strip()!r})", why
                )
        return session

    def refresh_offer(self) -> None:
        """After the command: the offer the next SessionStart shows in `sh`, renewed if a task
        changed (hooks/agents/offer.py `refresh`)."""
        if self._engine is None:
            return
        from taskproto.hooks.agents.offer import refresh

        refresh(self._engine.config.layout)

    def renew_heartbeat(self) -> None:
        """Renew this session's heartbeat on the tasks the command read that it owns."""
        if self._engine is None:
            return
        from taskproto.errors import TaskprotoError

        said = len(self._engine.warnings)
        try:
            self._engine.renew_heartbeat(self.session_id())
        except TaskprotoError:
            return
        for warning in self._engine.warnings[said:]:  # a heartbeat file set aside, named
            click.echo(f"taskproto: warning: {warning}", err=True)


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


def fail(message: str) -> TaskprotoError:
    return TaskprotoError(message)

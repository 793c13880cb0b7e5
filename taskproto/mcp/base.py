"""What every MCP tool shares: the session it acts as, a fresh engine per call, refusals as tool
errors."""

from __future__ import annotations

import functools
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from taskproto.config import Config
from taskproto.engine import Actor, Engine
from taskproto.errors import TaskNotFound, TaskprotoError
from taskproto.git.files import GIT_MISSING, git_missing

Task = Annotated[
    str, Field(description="The task's name (see the `status` tool).", min_length=1, max_length=100)
]

READ_ONLY = ToolAnnotations(
    readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False
)
WRITES = ToolAnnotations(
    readOnlyHint=False, destructiveHint=False, idempotentHint=False, openWorldHint=False
)

F = TypeVar("F", bound=Callable[..., Any])


def refusal(message: str) -> CallToolResult:
    """A tool error carrying the CLI's own line (`taskproto: <reason>`)."""
    return CallToolResult(
        content=[TextContent(type="text", text=f"taskproto: {message}")], is_error=True
    )


# The engine's refusals name the CLI's `--force` (engine/claims.py, transitions.py, core.py). An MCP
# caller has no such argument, and forcing is the user's: this door names the command the user
# runs by hand, in their own terminal.
_FORCE = re.compile(
    r"(?:(?P<verb>claim it anyway|take over|take it back|move it anyway) with --force|"
    r"pass --force)(?P<logged>, logged| \((?:the user's, )?logged\))?"
)


def forced_command(tool: str, arguments: dict[str, Any]) -> str | None:
    """The CLI command that forces what tool `tool` was refused, or None when it has none."""
    task, state = arguments.get("task"), arguments.get("state")
    if not isinstance(task, str):
        return None
    if tool in ("claim", "heartbeat"):  # a claim taken over is taken back by a forced claim
        return f"taskproto claim {task} --force"
    if tool == "release":
        return f"taskproto release {task} --force"
    if tool == "transition" and isinstance(state, str):
        return f"taskproto transition {task} {state.upper()} --force"
    agent, status = arguments.get("agent"), arguments.get("status")
    if tool == "agent_set_status" and isinstance(agent, str) and isinstance(status, str):
        return f"taskproto agent set {task} {agent} --status {status} --force"
    if tool == "merge":
        return f"taskproto merge {task} --force"
    if tool == "submit_artifact":  # the artifact as the tool got it, written to a file
        return f"taskproto submit {task} --artifact FILE --force"
    if tool == "handoff":
        return (
            f"taskproto handoff {task} --to {arguments.get('to')} --decision "
            f"{str(arguments.get('decision')).lower()} --force"
        )
    if tool == "round_decide":
        rubric = ",".join(f"{k}={arguments.get(k)}" for k in ("acceptance", "risks", "validation"))
        note = arguments.get("note")
        said = f" --note {shlex.quote(note)}" if isinstance(note, str) else ""
        return f"taskproto round decide {task} --rubric {rubric}{said} --force"
    return None


def by_hand(message: str, command: str | None) -> str:
    """`message` with its `--force` advice made the user's: the command to run by hand."""
    run = f"`{command}`" if command else "the CLI command with --force"

    def said(match: re.Match[str]) -> str:
        what = f"{match['verb']} with {run}" if match["verb"] else f"run {run}"
        return f"ask the user to {what} in their own terminal" + (
            " (logged)" if match["logged"] else ""
        )

    return _FORCE.sub(said, message)


def refusals(fn: F, session: Session) -> F:
    """Turn every expected error into a tool error (no git on PATH is one: the CLI's line), its
    `--force` advice the user's command (`by_hand`); the SDK reports anything else as one too.
    A task that landed or was removed is said so by engine/gone.py, as the CLI and the board say
    it."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except TaskNotFound as exc:
            return refusal(str(session.gone(exc)))
        except TaskprotoError as exc:
            return refusal(by_hand(str(exc), forced_command(fn.__name__, kwargs)))
        except Exception as exc:
            if git_missing(exc):
                return refusal(GIT_MISSING)
            raise

    return wrapper  # type: ignore[return-value]


@dataclass
class Session:
    """One server process: its repository's config and the session its tools act as (fixed at
    start)."""

    config: Config
    session: str | None
    pid: int | None

    def engine(self) -> Engine:
        # A fresh engine per call: tools run on worker threads, and warnings are per call.
        # The MCP server is an agent's door: the user's actions are refused through it.
        return Engine(self.config, Actor(agent=True, why="through the MCP server"))

    def gone(self, exc: TaskNotFound) -> TaskprotoError:
        """The refusal for a task not here: landed or removed said so (engine/gone.py)."""
        from taskproto.engine.gone import no_longer_here

        try:
            engine = self.engine()
        except TaskprotoError:
            return exc
        return no_longer_here(engine, exc)

    def need_session(self, tool: str) -> str:
        if not self.session:
            raise TaskprotoError(
                f"{tool} changes the task, so it needs this session's id: start the server as "
                "`taskproto mcp --session ID` or set TASKPROTO_SESSION in its environment "
                "(see docs/mcp.md); read-only tools (status, log, prompt, doctor) work without one"
            )
        return self.session

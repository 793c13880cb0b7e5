"""What every MCP tool shares: the session it acts as, a fresh engine per call, refusals as tool
errors."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from taskproto.config import Config
from taskproto.engine import Actor, Engine
from taskproto.errors import TaskprotoError
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


def refusals(fn: F) -> F:
    """Turn every expected error into a tool error (no git on PATH is one: the CLI's line); the
    SDK reports anything else as one too."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except TaskprotoError as exc:
            return refusal(str(exc))
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

    def need_session(self, tool: str) -> str:
        if not self.session:
            raise TaskprotoError(
                f"{tool} changes the task, so it needs this session's id: start the server as "
                "`taskproto mcp --session ID` or set TASKPROTO_SESSION in its environment "
                "(see docs/mcp.md); read-only tools (status, log, prompt, doctor) work without one"
            )
        return self.session

"""Fixtures for the MCP server tests: real `taskproto mcp` processes driven by the SDK's own
client."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import CallToolResult

from tests import mcpfork

# The machine is shared; a server's first start imports the whole SDK.
TIMEOUT = 120.0


def server_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "TASKPROTO_SESSION"}
    env.update(extra or {})
    return env


@asynccontextmanager
async def connect(
    repo: Path,
    session: str | None = None,
    env: dict[str, str] | None = None,
    args: list[str] | None = None,
) -> AsyncIterator[ClientSession]:
    """A ClientSession on a fresh `taskproto mcp` server process in `repo`: forked from an
    interpreter that has imported the SDK (tests/mcpfork.py), its pipes the client's own."""
    argv = ["mcp", *(["--session", session] if session else []), *(args or [])]
    full_env = server_env(env)
    command, command_args = mcpfork.server_command(argv, full_env)
    params = StdioServerParameters(command=command, args=command_args, env=full_env, cwd=str(repo))
    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write, read_timeout_seconds=TIMEOUT) as client,
    ):
        await client.initialize()
        yield client


def text(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


async def ok(client: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    """Call `tool`; it must succeed; return its structured result."""
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, f"{tool}({arguments}) failed: {text(result)}"
    assert result.structured_content is not None
    # The text block carries the same data, for clients that ignore structured content.
    assert json.loads(text(result)) == result.structured_content
    return result.structured_content


async def refused(client: ClientSession, tool: str, **arguments: Any) -> str:
    """Call `tool`; it must come back as a tool error; return its one line."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error, f"{tool}({arguments}) was not refused: {text(result)}"
    return text(result)

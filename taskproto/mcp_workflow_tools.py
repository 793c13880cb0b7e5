"""MCP tools of the workflows with their own operations (plan-task, tight-loop, phone-a-team).

Listed only when this taskproto has the workflows' library; see docs/mcp.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mcp.types import ToolAnnotations

if TYPE_CHECKING:
    from taskproto.mcp_server import Tools


def tools(base: Tools) -> list[tuple[str, Callable[..., Any], ToolAnnotations]]:
    return []

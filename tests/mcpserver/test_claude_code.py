"""The real Claude Code, offline, calling taskproto's MCP server (registered with `taskproto mcp
install`).

The stand-in Messages API (tests/clients) asks for `mcp__taskproto__status`, then for
`mcp__taskproto__transition`, then ends the turn; the request bodies it recorded show what
reached the model.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from taskproto.clients import mcp_servers as mcp_config
from taskproto.engine import Engine
from tests.clients.runners import find_client, missing_reason, run_claude
from tests.clients.standin import AnthropicServer, StandinServer, Text, ToolCall

pytestmark = pytest.mark.clients
# The session Claude Code runs as (--session-id): the MCP server acts as its client's own session.
CC = "c0ffee00-0000-4000-8000-000000000001"


def tool_results(server: StandinServer) -> dict[str, dict[str, Any]]:
    """Tool name -> the tool_result block Claude Code sent back for it."""
    names: dict[str, str] = {}
    results: dict[str, dict[str, Any]] = {}
    for request in server.turns:
        for message in request.body.get("messages", []):
            content = message.get("content")
            for block in content if isinstance(content, list) else []:
                if block.get("type") == "tool_use":
                    names[block["id"]] = block["name"]
                elif block.get("type") == "tool_result":
                    results[block["tool_use_id"]] = block
    return {names.get(ident, ident): block for ident, block in results.items()}


def result_json(block: dict[str, Any]) -> Any:
    """A tool_result's content (a string, or text blocks) parsed as the tool's JSON."""
    content = block["content"]
    if isinstance(content, list):
        content = "".join(part.get("text", "") for part in content)
    return json.loads(content)


def test_claude_code_calls_status_then_transition(
    engine: Engine, repo: Path, tmp_path: Path
) -> None:
    if find_client("claude") is None:
        pytest.skip(missing_reason("claude"))
    engine.create_task("t1", description="ship the widget")
    engine.claim("t1", CC)
    # Registered the way a user does it, then approved for this project (headless runs cannot ask).
    change = mcp_config.register("claude", repo, command=[sys.executable, "-m", "taskproto", "mcp"])
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").write_text(
        json.dumps(
            {
                "enableAllProjectMcpServers": True,
                "permissions": {"allow": ["mcp__taskproto__status", "mcp__taskproto__transition"]},
            }
        )
    )
    home = tmp_path / "claude-home"
    home.mkdir()
    # Project MCP servers (.mcp.json) load only in a workspace the user trusted.
    (home / ".claude.json").write_text(
        json.dumps({"projects": {str(repo): {"hasTrustDialogAccepted": True}}})
    )
    script = [
        ToolCall("mcp__taskproto__status", {"task": "t1"}),
        ToolCall(
            "mcp__taskproto__transition",
            {"task": "t1", "state": "CLASSIFIED", "note": "moved by Claude Code"},
        ),
        Text("Done."),
    ]
    # What the server process needs: our package and git's identity. Claude Code passes its
    # environment on to stdio MCP servers, its CLAUDE_CODE_SESSION_ID too: the server's session.
    env = {
        "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
        **{k: v for k, v in os.environ.items() if k.startswith("GIT_")},
    }
    with AnthropicServer(script) as server:
        result = run_claude(
            "Move task t1 on.", repo, server, home, args=("--session-id", CC), env=env, timeout=240
        )
        assert result.returncode == 0, result.describe()
        # Claude Code defers MCP tools (ToolSearch): the first request names the server, connected
        # or still connecting, and the model may call its tools by name.
        assert "taskproto" in server.turns[0].text(), result.describe()
        results = tool_results(server)

    status = results["mcp__taskproto__status"]
    moved = results["mcp__taskproto__transition"]
    assert not status.get("is_error") and not moved.get("is_error"), (status, moved)
    # The server's answers reached the model in the next request.
    shown = result_json(status)
    assert shown["session"] == CC and shown["scope"] == "task"
    assert [(t["name"], t["state"], t["description"], t["mine"]) for t in shown["tasks"]] == [
        ("t1", "INIT", "ship the widget", True)
    ]
    assert result_json(moved) == {
        "task": "t1",
        "from": "INIT",
        "to": "CLASSIFIED",
        "revision": 3,
        "warnings": [],
    }
    # And the transition is in the task's log, made by this session.
    task = engine.load("t1")
    assert task.state == "CLASSIFIED"
    last = task.transition_log[-1]
    assert (last.from_state, last.to_state, last.session, last.note) == (
        "INIT",
        "CLASSIFIED",
        CC,
        "moved by Claude Code",
    )
    log = subprocess.run(
        [sys.executable, "-m", "taskproto", "log", "t1", "--json"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(log.stdout)["entries"][-1]["to"] == "CLASSIFIED"
    mcp_config.unregister("claude", repo)
    assert not change.path.exists()

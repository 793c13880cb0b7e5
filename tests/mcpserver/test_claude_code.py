"""The real Claude Code, offline, calling taskproto's MCP server (registered with `taskproto mcp install`)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from taskproto import mcp_config
from taskproto.engine import Engine

from .claude_standin import STATUS_ID, TRANSITION_ID, Standin

# Read before the autouse fixture points HOME at a temporary folder.
CLIENTS_DIR = Path(os.environ.get("TASKPROTO_CLIENTS_DIR") or Path.home() / ".cache" / "taskproto-clients")
QUIET = {"DISABLE_TELEMETRY": "1", "DISABLE_ERROR_REPORTING": "1", "DISABLE_AUTOUPDATER": "1",
         "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}


def find_claude() -> str | None:
    cached = CLIENTS_DIR / "node_modules" / ".bin" / "claude"
    return str(cached) if cached.is_file() else shutil.which("claude")


CLAUDE = find_claude()

pytestmark = [
    pytest.mark.clients,
    pytest.mark.skipif(CLAUDE is None, reason=(
        f"Claude Code is not installed: run `npm install --prefix {CLIENTS_DIR} @anthropic-ai/claude-code` "
        "(or .ci/install-clients.sh), or put `claude` on PATH")),
]


def result_json(block: dict[str, Any]) -> Any:
    """A tool_result's content (a string, or text blocks) parsed as the tool's JSON."""
    content = block["content"]
    if isinstance(content, list):
        content = "".join(part.get("text", "") for part in content)
    return json.loads(content)


def test_claude_code_calls_status_then_transition(engine: Engine, repo: Path, tmp_path: Path) -> None:
    engine.create_task("t1", description="ship the widget")
    engine.claim("t1", "cc-session")
    # Registered the way a user does it, then approved for this project (headless runs cannot ask).
    change = mcp_config.register("claude", repo, command=[sys.executable, "-m", "taskproto", "mcp"])
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").write_text(json.dumps({
        "enableAllProjectMcpServers": True,
        "permissions": {"allow": ["mcp__taskproto__status", "mcp__taskproto__transition"]},
    }))
    home = tmp_path / "claude-home"
    home.mkdir()
    # Project MCP servers (.mcp.json) load only in a workspace the user trusted.
    (home / ".claude.json").write_text(json.dumps({"projects": {str(repo): {"hasTrustDialogAccepted": True}}}))
    with Standin(task="t1", target="CLASSIFIED") as standin:
        env = {
            "PATH": os.environ["PATH"], "HOME": str(home), **QUIET,
            "ANTHROPIC_BASE_URL": standin.url, "ANTHROPIC_API_KEY": "standin-key",
            # What the server process needs: our package, git's identity, and the session.
            "PYTHONPATH": os.environ.get("PYTHONPATH", ""), "TASKPROTO_SESSION": "cc-session",
            **{k: v for k, v in os.environ.items() if k.startswith("GIT_")},
        }
        assert CLAUDE is not None
        proc = subprocess.run([CLAUDE, "-p", "Move task t1 on.", "--output-format", "json"], cwd=repo, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=240, check=False)
        described = f"exit {proc.returncode}\nstdout: {proc.stdout[-3000:]}\nstderr: {proc.stderr[-3000:]}"
        assert proc.returncode == 0, described
        # Claude Code defers MCP tools (ToolSearch); the first request names the server, connected or
        # still connecting, and the model may call its tools by name.
        assert "taskproto" in json.dumps(standin.turns()[0]), described
        results = standin.tool_results()

    assert STATUS_ID in results and TRANSITION_ID in results, (results, described)
    status, moved = results[STATUS_ID], results[TRANSITION_ID]
    assert not status.get("is_error") and not moved.get("is_error"), (status, moved)
    # The server's answers reached the model in the next request.
    shown = result_json(status)
    assert shown["session"] == "cc-session" and shown["scope"] == "task"
    assert [(t["name"], t["state"], t["description"], t["mine"]) for t in shown["tasks"]] == [
        ("t1", "INIT", "ship the widget", True)]
    assert result_json(moved) == {"task": "t1", "from": "INIT", "to": "CLASSIFIED", "revision": 3, "warnings": []}
    # And the transition is in the task's log, made by this session.
    task = engine.load("t1")
    assert task.state == "CLASSIFIED"
    last = task.transition_log[-1]
    assert (last.from_state, last.to_state, last.session, last.note) == (
        "INIT", "CLASSIFIED", "cc-session", "moved by Claude Code")
    log = subprocess.run([sys.executable, "-m", "taskproto", "log", "t1", "--json"], cwd=repo,
                         capture_output=True, text=True, check=True)
    assert json.loads(log.stdout)["entries"][-1]["to"] == "CLASSIFIED"
    mcp_config.unregister("claude", repo)
    assert not change.path.exists()

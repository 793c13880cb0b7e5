"""One end-to-end start with the real Claude Code, headless, against the stand-in model server:
it runs in the agent's worktree under the session id taskproto fixed, its hooks report that
session's activity, its output is the agent's log, and it ends as `exited`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.agents.conftest import real_clients, start_agent, wait_until
from tests.clients.standin import AnthropicServer, Text, ToolCall
from tests.conftest import run_taskproto

pytestmark = pytest.mark.slow  # Claude Code's own start takes a few seconds


def test_claude_code_started_headless_works_in_its_worktree_as_its_session(
    agents_repo: Path, cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_clients(monkeypatch, "claude")
    assert run_taskproto("init", "--claude", cwd=agents_repo).code == 0
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    worktree = agents_repo / ".taskproto/tasks/t1/agents/dev/code"
    # a read: the task is in INIT, where taskproto's guard refuses the agent's edits
    script = [ToolCall("Read", {"file_path": str(worktree / "README.md")}), Text("Read README.")]
    with AnthropicServer(script) as server:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "standin-key")
        session = start_agent(cli, "claude", prompt="read the README")["session"]
        row = wait_until(
            lambda: [
                r for r in json.loads(cli("agent", "ps", "--json").out) if r["state"] != "running"
            ],
            timeout=90,
            what="Claude Code's end",
        )[0]
    log = cli("agent", "logs", "t1", "dev").out
    assert row["state"] == "exited", log
    assert "Read README." in log
    assert "# test repo" in json.dumps(server.turns[-1].body)  # the tool ran in the worktree
    assert row["hook_activity"] is not None, "no hook of the session reported"
    assert row["session"] == session
    # sandboxed (auto, where bubblewrap runs), Claude Code keeps its transcripts in its own home
    home = Path(__import__("os").environ["HOME"])
    if row["sandbox"] == "bwrap":
        home = agents_repo / ".taskproto/tasks/t1/agents/dev/sandbox/home"
    projects = home / ".claude" / "projects"
    transcripts = list(projects.glob(f"*/{session}.jsonl"))
    assert transcripts, "Claude Code used another session id"
    assert transcripts[0].parent.name == "".join(c if c.isalnum() else "-" for c in str(worktree))


def test_claude_code_killed_is_restarted_resuming_its_session(
    agents_repo: Path, cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import signal

    from tests.clients.standin import Hang

    real_clients(monkeypatch, "claude")
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    with AnthropicServer([Hang(60), Text("Back after the restart.")]) as server:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "standin-key")
        first = start_agent(cli, "claude", prompt="say something")
        wait_until(lambda: server.turns, timeout=60, what="Claude Code's first request")
        os.killpg(first["pid"], signal.SIGKILL)  # a crash while it waits on the model
        row = wait_until(
            lambda: [
                r for r in json.loads(cli("agent", "ps", "--json").out) if r["state"] == "exited"
            ],
            timeout=90,
            what="the restarted client's end",
        )[0]
    log = cli("agent", "logs", "t1", "dev").out
    assert row["restarts"] == 1 and row["session"] == first["session"]
    assert "Back after the restart." in log
    assert "restart 1/3 of agent dev: it was killed" in cli("log", "t1").out
    # the second run goes on with the prompt: resumed, or started again under the same id when
    # the first was killed before Claude Code saved anything (`--resume` would find nothing)
    assert "say something" in json.dumps(server.turns[-1].body)

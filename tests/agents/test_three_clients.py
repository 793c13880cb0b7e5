"""Done means, headless with the real clients against their stand-in model servers: three agents
of one task (Claude Code, Codex CLI, Gemini CLI) started by taskproto, three processes, each in
its own worktree, each session's hooks reporting that agent's activity, each ending cleanly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.agents.conftest import real_clients, wait_until
from tests.clients.runners import CLAUDE_QUIET, gemini_user_settings, write_codex_config
from tests.clients.standin import AnthropicServer, GeminiServer, OpenAIResponsesServer, Text
from tests.conftest import run_taskproto

pytestmark = pytest.mark.slow  # three real clients start


def test_claude_codex_and_gemini_run_headless_as_three_agents_of_one_task(
    agents_repo: Path, cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    real_clients(monkeypatch, "claude", "codex", "gemini")
    assert run_taskproto("init", "--claude", "--codex", "--gemini", cwd=agents_repo).code == 0
    assert cli("task", "create", "t1", "--agents", "dev,qa,doc").code == 0
    worktree = {
        a: agents_repo / f".taskproto/tasks/t1/agents/{a}/code" for a in ("dev", "qa", "doc")
    }
    codex_home, gemini_home = tmp_path / "codex-home", tmp_path / "gemini-home"
    claude = AnthropicServer([Text("dev done.")])
    codex = OpenAIResponsesServer([Text("qa done.")])
    gemini = GeminiServer([Text("doc done.")])
    with claude, codex, gemini:
        write_codex_config(codex_home, codex, trusted=[worktree["qa"]])
        settings = gemini_home / ".gemini" / "settings.json"
        settings.parent.mkdir(parents=True)
        settings.write_text(json.dumps(gemini_user_settings()))
        env = {
            **CLAUDE_QUIET,
            "ANTHROPIC_BASE_URL": claude.url,
            "ANTHROPIC_API_KEY": "standin-key",
            "CODEX_HOME": str(codex_home),
            "MOCK_API_KEY": "standin-key",
            "GEMINI_CLI_HOME": str(gemini_home),
            "GOOGLE_GEMINI_BASE_URL": gemini.url,
            "GEMINI_API_KEY": "standin-key",
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
        }
        for key, value in env.items():  # before the first start: the supervisor inherits them
            monkeypatch.setenv(key, value)
        # Codex runs no hook the user has not trusted: a test cannot trust them by hand, so its
        # client is Codex with the option that skips that check (`codex OPTION exec PROMPT`)
        clients = {"dev": "claude", "qa": "codex --dangerously-bypass-hook-trust", "doc": "gemini"}
        for agent, client in clients.items():
            result = cli(
                "agent",
                "start",
                "t1",
                agent,
                "--client",
                client,
                "--headless",
                "--prompt",
                f"do the {agent} part",
            )
            assert result.code == 0, result.err
        rows = wait_until(
            lambda: (
                (r := json.loads(cli("agent", "ps", "--json").out))
                and all(x["state"] != "running" for x in r)
                and r
            ),
            timeout=120,
            what="the three clients' end",
        )
    logs = {a: cli("agent", "logs", "t1", a).out for a in clients}
    by_agent = {r["agent"]: r for r in rows}
    assert {a: r["state"] for a, r in by_agent.items()} == dict.fromkeys(clients, "exited"), logs
    assert "dev done." in logs["dev"] and "qa done." in logs["qa"] and "doc done." in logs["doc"]
    # each session's own hooks reported, from its own worktree (the binding needs that cwd)
    for agent, row in by_agent.items():
        assert row["hook_activity"] is not None, (agent, logs[agent])
    assert by_agent["dev"]["client_session"] is None  # Claude Code took taskproto's id
    assert by_agent["qa"]["client_session"] and by_agent["doc"]["client_session"]
    sessions = {r["session"] for r in rows} | {r["client_session"] for r in rows} - {None}
    assert len(sessions) == 5
    for agent in clients:  # each one's own hooks moved its status
        status = agents_repo / f".taskproto/tasks/t1/agents/{agent}/status.json"
        assert json.loads(status.read_text())["status"] == "WORKING", agent
    log = cli("log", "t1").out
    assert all(f"agent {a}: WORKING, seen by its hooks" in log for a in clients), log

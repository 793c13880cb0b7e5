"""A crash and restart of the real Codex CLI and Gemini CLI, headless, against their stand-in
model servers: neither takes a session id from taskproto, so the agent's session is the one its
first hook call named (`client_session`), and the restart resumes that same session (`codex exec
resume ID`, `gemini --resume ID`): its hooks name it again, and the conversation goes on."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from tests.agents.conftest import ps, real_clients, start_agent, wait_until
from tests.clients.runners import gemini_user_settings, write_codex_config
from tests.clients.standin import GeminiServer, Hang, OpenAIResponsesServer, Text, ToolCall
from tests.conftest import run_taskproto

pytestmark = pytest.mark.slow  # the real clients start, twice each


def _codex(monkeypatch: pytest.MonkeyPatch, home: Path, server: Any, worktree: Path) -> str:
    write_codex_config(home, server, trusted=[worktree])
    monkeypatch.setenv("CODEX_HOME", str(home))
    monkeypatch.setenv("MOCK_API_KEY", "standin-key")
    # Codex runs no hook the user has not trusted; a named client takes options after its name
    return "codex --dangerously-bypass-hook-trust"


def _gemini(monkeypatch: pytest.MonkeyPatch, home: Path, server: Any, worktree: Path) -> str:
    settings = home / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps(gemini_user_settings()))
    monkeypatch.setenv("GEMINI_CLI_HOME", str(home))
    monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", server.url)
    monkeypatch.setenv("GEMINI_API_KEY", "standin-key")
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    return "gemini"


SETUP = {"codex": (OpenAIResponsesServer, _codex), "gemini": (GeminiServer, _gemini)}


def _script(name: str, worktree: Path) -> list[Any]:
    """The model's turns: the first run is killed while it waits on the model. Codex resumes a
    session as soon as it has one; Gemini only once its model answered (a prompt that begins
    with a hook's context, as taskproto's does, is not enough for its `--resume`): a read first."""
    if name == "gemini":
        read = ToolCall("read_file", {"file_path": str(worktree / "README.md")})
        return [read, Hang(60), Text("Back after the restart.")]
    return [Hang(60), Text("Back after the restart.")]


@pytest.mark.parametrize("name", ["codex", "gemini"])
def test_a_killed_client_is_restarted_in_the_session_its_first_hook_named(
    agents_repo: Path, cli: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str
) -> None:
    real_clients(monkeypatch, name)
    assert run_taskproto("init", f"--{name}", cwd=agents_repo).code == 0
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    worktree = agents_repo / ".taskproto/tasks/t1/agents/dev/code"
    server_type, setup = SETUP[name]
    script = _script(name, worktree)
    with server_type(script) as server:
        client = setup(monkeypatch, tmp_path / f"{name}-home", server, worktree)
        first = start_agent(cli, client, prompt="say something")
        # its first hook call (SessionStart) bound its own session; then it waits on the model
        bound = wait_until(
            lambda: (
                (r := ps(cli)[0])["client_session"] and len(server.turns) == len(script) - 1 and r
            ),
            timeout=60,
            what=f"{name}'s session bound and its first request",
        )
        # the agent takes its task as its own session, as its SessionStart hook tells it to
        claimed = cli("--session", bound["client_session"], "claim", "t1")
        assert claimed.code == 0, claimed.err
        os.killpg(first["pid"], signal.SIGKILL)  # a crash while it waits on the model
        row = wait_until(
            lambda: [r for r in ps(cli) if r["state"] in ("exited", "escalated")],
            timeout=90,
            what=f"the restarted {name}'s end",
        )[0]
    log = cli("agent", "logs", "t1", "dev").out
    assert row["restarts"] == 1 and row["session"] == first["session"], log
    assert row["client_session"] == bound["client_session"], log  # the same session, resumed
    assert row["hook_activity"] is not None
    assert "Back after the restart." in log
    assert "restart 1/3 of agent dev: it was killed" in cli("log", "t1").out
    task = json.loads((agents_repo / ".taskproto/tasks/t1/task.json").read_text())
    assert task["owner"]["session"] == bound["client_session"]  # its claim survived the restart
    # the resumed conversation carries the first run's: its prompt (Codex), its read (Gemini)
    body = json.dumps(server.turns[-1].body)
    assert body.count("say something") >= 2 if name == "codex" else "# test repo" in body, log

"""What each attempt of an agent runs (ops/agent_launch.py): the named clients' modes, their
options, and the session resumed after a crash only where the client saved one it resumes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taskproto.engine import Engine
from taskproto.ops.agent_launch import CLAUDE_HEADLESS_TOOLS, launch

SESSION = "11111111-2222-3333-4444-555555555555"  # taskproto's, fixed at the start
OWN = "0199aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee"  # the one Codex's or Gemini's first hook named


def _record(client: str, headless: bool = True, own: str | None = None) -> dict[str, Any]:
    return {
        "task": "t1",
        "agent": "dev",
        "client": client,
        "headless": headless,
        "prompt": "go",
        "session": SESSION,
        "client_session": own,
        "sandbox": "none",
    }


@pytest.fixture
def homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, folder in (("CLAUDE_CONFIG_DIR", "claude"), ("CODEX_HOME", "codex")):
        monkeypatch.setenv(name, str(tmp_path / folder))
    monkeypatch.setenv("GEMINI_CLI_HOME", str(tmp_path / "gemini"))
    return tmp_path


def _saved(homes: Path, client: str, chat: list[dict[str, Any]] | None = None) -> None:
    """Leave what the client itself leaves once it saved the session."""
    if client == "claude":
        path = homes / "claude" / "projects" / "-some-folder" / f"{SESSION}.jsonl"
    elif client == "codex":
        path = homes / "codex" / "sessions" / "2026" / "11" / "28" / f"rollout-x-{OWN}.jsonl"
    else:
        path = (
            homes / "gemini" / ".gemini" / "tmp" / "code" / "chats" / f"session-x-{OWN[:8]}.jsonl"
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [{"sessionId": OWN}, *(chat or [])]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


@pytest.mark.parametrize(
    ("client", "headless", "argv"),
    [
        (
            "claude",
            True,
            [
                *("claude", "--session-id", SESSION, "-p", "go", "--permission-mode"),
                *("acceptEdits", "--allowedTools", *CLAUDE_HEADLESS_TOOLS),
            ],
        ),
        ("claude", False, ["claude", "--session-id", SESSION, "go"]),
        ("codex", True, ["codex", "exec", "go"]),
        ("codex", False, ["codex", "go"]),
        (
            "codex --dangerously-bypass-hook-trust",
            True,
            ["codex", "--dangerously-bypass-hook-trust", "exec", "go"],
        ),
        ("gemini", True, ["gemini", "-p", "go", "--approval-mode", "auto_edit"]),
        ("gemini", False, ["gemini", "-i", "go"]),
        # the user's own mode stands, and no second one is added (the client would refuse two)
        ("gemini --approval-mode yolo", True, ["gemini", "--approval-mode", "yolo", "-p", "go"]),
        ("gemini --yolo", True, ["gemini", "--yolo", "-p", "go"]),
        (
            "claude --permission-mode=plan",
            True,
            [
                *("claude", "--permission-mode=plan", "--session-id", SESSION, "-p", "go"),
                *("--allowedTools", *CLAUDE_HEADLESS_TOOLS),
            ],
        ),
        ("python3 my_agent.py --fast", True, ["python3", "my_agent.py", "--fast"]),
    ],
)
def test_the_first_start_of_each_client(
    engine: Engine, homes: Path, client: str, headless: bool, argv: list[str]
) -> None:
    engine.create_task("t1", ["dev"])
    command = launch(engine.config, _record(client, headless), 0)
    assert command.argv == argv and not command.resumed
    assert ("TASKPROTO_SESSION" in command.env) == (not client.startswith(("codex", "gemini")))


@pytest.mark.parametrize(
    ("client", "headless", "argv"),
    [
        (
            "claude",
            True,
            [
                *("claude", "--resume", SESSION, "-p", "go", "--permission-mode"),
                *("acceptEdits", "--allowedTools", *CLAUDE_HEADLESS_TOOLS),
            ],
        ),
        ("codex", True, ["codex", "exec", "resume", OWN, "go"]),
        ("codex", False, ["codex", "resume", OWN, "go"]),
        ("gemini", True, ["gemini", "--resume", OWN, "-p", "go", "--approval-mode", "auto_edit"]),
        ("gemini", False, ["gemini", "--resume", OWN]),
    ],
)
def test_a_restart_resumes_the_session_the_client_saved(
    engine: Engine, homes: Path, client: str, headless: bool, argv: list[str]
) -> None:
    engine.create_task("t1", ["dev"])
    own = None if client == "claude" else OWN
    reply = [{"id": "m2", "type": "gemini", "content": "looking"}]
    _saved(homes, client, reply)
    command = launch(engine.config, _record(client, headless, own), 1)
    assert command.argv == argv
    assert command.resumed == (client != "claude")  # Codex's, Gemini's own session stays bound


def test_nothing_saved_or_nothing_gemini_resumes_starts_anew(engine: Engine, homes: Path) -> None:
    engine.create_task("t1", ["dev"])
    fresh = ["gemini", "-p", "go", "--approval-mode", "auto_edit"]
    assert launch(engine.config, _record("gemini", own=OWN), 1).argv == fresh  # no chat at all
    # a chat with the set-up context and a prompt that begins with a hook's context only: Gemini's
    # own `--resume` finds no session there
    _saved(
        homes,
        "gemini",
        [
            {
                "$set": {
                    "messages": [{"type": "user", "content": [{"text": "<session_context>..."}]}]
                }
            },
            {
                "id": "m1",
                "type": "user",
                "content": [{"text": "<hook_context>taskproto: ...</hook_context>\n\ngo"}],
            },
        ],
    )
    command = launch(engine.config, _record("gemini", own=OWN), 1)
    assert command.argv == fresh and not command.resumed
    # Codex with no rollout, or with no session bound yet (killed before its first hook call)
    assert launch(engine.config, _record("codex", own=OWN), 1).argv == ["codex", "exec", "go"]
    _saved(homes, "codex")
    assert launch(engine.config, _record("codex", own=None), 1).argv == ["codex", "exec", "go"]

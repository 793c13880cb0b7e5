"""The real Claude Code runs taskproto's hooks from `.claude/settings.local.json`, where
`taskproto init --claude` writes them (#36): in the main worktree, in an agent worktree, and once
each after init moved them out of an older init's `.claude/settings.json`. Which hook commands ran
is read from Claude Code's own debug log (`--debug`), and the session leaves `git status` clean.
Codex and Gemini read the files init made and keeps out of git (`info/exclude`) all the same."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from taskproto.config import load_config
from taskproto.engine import Engine
from tests.conftest import GIT_ENV, run_taskproto
from tests.hooks.agents.conftest import move_to
from tests.hooks.agents.older_init import older_claude_init

from .runners import CLIENTS, find_client, missing_reason, write_codex_config
from .standin import Text, ToolCall

pytestmark = pytest.mark.clients

SESSION = "5a1c0e2d-7b44-4e4b-9c1e-3f0d2a6b8c11"
EVENTS = ("SessionStart", "UserPromptSubmit", "PreToolUse", "Stop")
# Claude Code's debug log, one line per hook command run:
#   Hooks: PreToolUse:Write [<command>] finished with status 2 (38ms)
HOOK_RAN = re.compile(r"Hooks: (\w+)(?::\w+)? \[(.+?)\] finished with status (\d+)")


def status(path: Path) -> str:
    return subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def installed(settings: Path) -> dict[str, str]:
    """event -> the command of the one hook init put there."""
    hooks = json.loads(settings.read_text())["hooks"]
    return {event: hooks[event][0]["hooks"][0]["command"] for event in EVENTS}


@pytest.mark.parametrize("where", ["main worktree", "agent worktree", "moved from settings.json"])
def test_claude_code_runs_the_hooks_in_settings_local_json(
    where: str, project: Path, home: Path
) -> None:
    if find_client("claude") is None:
        pytest.skip(missing_reason("claude"))
    if where == "moved from settings.json":
        assert run_taskproto("init", cwd=project).code == 0
        older_claude_init(load_config(project))
    r = run_taskproto("init", "--claude", cwd=project)
    assert r.code == 0, r.err
    assert not (project / ".claude" / "settings.json").exists()
    engine = Engine(load_config(project))
    engine.create_task("t1", ["dev"], description="add the widget")
    engine.claim("t1", SESSION)
    move_to(engine, "t1", "REQUIREMENTS")
    agent = engine.config.agent_worktree("t1", "dev")
    cwd = agent if where == "agent worktree" else project
    # A write the guard refuses: taskproto's own state from main, an edit in REQUIREMENTS there.
    target = engine.config.task_file("t1") if cwd == project else agent / "widget.py"
    script = [ToolCall("Write", {"file_path": str(target), "content": "{}\n"}), Text("Waiting.")]
    spec = CLIENTS["claude"]
    args = ("--permission-mode", "acceptEdits", "--session-id", SESSION, "--debug")
    with spec.server(script) as server:
        result = spec.run("What is the plan?", cwd, server, home, args=args, env=dict(GIT_ENV))
        first = json.dumps(server.turns[0].body)
    assert result.returncode == 0, result.describe()

    log = (home / ".claude" / "debug" / f"{SESSION}.txt").read_text()
    ran = [(m[1], m[2], int(m[3])) for m in HOOK_RAN.finditer(log)]
    commands = installed(cwd / ".claude" / "settings.local.json")
    for event in EVENTS:  # each fired once, with the command init wrote in settings.local.json
        assert [c for e, c, _ in ran if e == event] == [commands[event]], (event, ran)
    assert {e: s for e, _, s in ran}["PreToolUse"] == 2  # the guard's refusal
    # ... and the client acted on each answer
    assert "owns task t1, in state REQUIREMENTS" in first
    assert [(i.type, i.text) for i in engine.load("t1").interruptions] == [
        ("QUESTION", "What is the plan?")
    ]
    assert [d["tool_name"] for d in result.json["permission_denials"]] == ["Write"]
    assert status(project) == "" and status(agent) == ""


@pytest.mark.parametrize("client", ["codex", "gemini"])
def test_codex_and_gemini_read_the_files_init_keeps_out_of_git(
    client: str, project: Path, home: Path
) -> None:
    if find_client(client) is None:
        pytest.skip(missing_reason(client))
    r = run_taskproto("init", f"--{client}", cwd=project)
    assert r.code == 0 and r.err == "", r.err
    assert run_taskproto("task", "create", "t1", cwd=project).code == 0
    assert status(project) == ""
    spec = CLIENTS[client]
    with spec.server([Text("Nothing to do.")]) as server:
        if client == "codex":
            write_codex_config(home / ".codex", server, trusted=[project])
        result = spec.run("Hello.", project, server, home, env=dict(GIT_ENV))
        first = json.dumps(server.turns[0].body)
    assert result.returncode == 0, result.describe()
    assert "owns no task" in first and "t1" in first, first[:2000]  # SessionStart's offer
    assert status(project) == ""

"""The real Claude Code, trying to get around taskproto: through a link, by approving its own work
(as a shell command, and as the workflow's review verdict), and with taskproto's hooks absent (the
CLI itself then refuses, from the environment Claude Code gives its commands)."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import pytest

from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.state import journal

from .runners import CLIENTS, ClientResult
from .standin import Request, Text, ToolCall, Turn
from .test_agent_hooks import SESSION, require, setup, tool_outputs

pytestmark = pytest.mark.clients
GO_ON = "Please continue with the task."
TASKPROTO = f"{shlex.quote(sys.executable)} -m taskproto"


def claude(
    cwd: Path, home: Path, script: list[Turn], prompt: str = GO_ON
) -> tuple[ClientResult, list[Request]]:
    spec = CLIENTS["claude"]
    env = {
        "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
        "XDG_STATE_HOME": os.environ["XDG_STATE_HOME"],
    }
    with spec.server(script) as server:
        result = spec.run(
            prompt,
            cwd,
            server,
            home,
            env=env,
            args=(
                "--permission-mode",
                "acceptEdits",
                "--allowedTools",
                "Bash",
                "--session-id",
                SESSION,
            ),
        )
        turns = server.turns
    assert result.returncode == 0, result.describe()
    return result, turns


def test_a_write_through_a_link_to_task_json_is_denied(project: Path, home: Path) -> None:
    require("claude")
    engine, wt = setup(project, "claude", "IMPLEMENTATION", own=True)
    link = wt / "notes.json"
    link.symlink_to(engine.config.task_file("t1"))
    peer = wt / "peer"
    peer.symlink_to(engine.config.task_worktree("t1"))
    before = engine.config.task_file("t1").read_bytes()
    script: list[Turn] = [
        # (Claude Code's Write needs a Read first, which Claude Code itself refuses through a link
        # leaving its folder: the shell write is the way through.)
        ToolCall("Bash", {"command": "printf '{}' > notes.json"}),
        ToolCall("Write", {"file_path": str(peer / "stolen.py"), "content": "x"}),
        Text("Stopped."),
    ]
    result, turns = claude(wt, home, script)
    outputs = tool_outputs(turns)
    assert "taskproto's own state" in outputs and "outside this agent's worktree" in outputs
    denied = [d["tool_name"] for d in result.json["permission_denials"]]
    assert denied == ["Bash", "Write"]
    assert not (engine.config.task_worktree("t1") / "stolen.py").exists()
    # task.json changed only by taskproto's own record of the prompt, never to "{}"
    assert engine.config.task_file("t1").read_bytes() != b"{}" and engine.load("t1").name == "t1"
    assert before != b"{}"


def test_claude_cannot_approve_its_own_plan(project: Path, home: Path) -> None:
    require("claude")
    engine, wt = setup(project, "claude", "SYNTHESIS", own=True)
    head = journal.head(engine.git, "t1")
    script: list[Turn] = [
        ToolCall("Bash", {"command": "taskproto approve t1 --plan"}),
        ToolCall("Bash", {"command": f"env -i PATH=/usr/bin:/bin {TASKPROTO} approve t1 --plan"}),
        ToolCall(
            "Bash", {"command": f"bash -c '{TASKPROTO} transition t1 IMPLEMENTATION --force'"}
        ),
        Text("Waiting for the user."),
    ]
    result, turns = claude(wt, home, script)
    assert len(result.json["permission_denials"]) == 3, tool_outputs(turns)
    task = engine.load("t1")
    assert task.checkpoint.plan_approval is None and task.state == "SYNTHESIS"
    assert journal.head(engine.git, "t1") != head  # the prompt was recorded; nothing else moved


def test_claude_cannot_give_the_review_verdict_of_a_plan_task(project: Path, home: Path) -> None:
    require("claude")
    setup(project, "claude", "INIT", own=False)
    engine = Engine(load_config(project))
    engine.create_task("p", workflow="plan-task")
    engine.claim("p", SESSION)
    engine.fire(
        "p",
        "submit",
        session=SESSION,
        params={"artifact": {"context_summary": "small", "affected_files": ["a.py"]}},
    )
    script: list[Turn] = [
        ToolCall("Bash", {"command": "taskproto transition p STRATEGIZE"}),
        ToolCall("Bash", {"command": f"{TASKPROTO} fire p approve"}),
        Text("Waiting for the review."),
    ]
    result, turns = claude(project, home, script)
    assert len(result.json["permission_denials"]) == 2, tool_outputs(turns)
    assert "the user's verdict in REVIEW_CONTEXT" in tool_outputs(turns)
    assert engine.load("p").state == "REVIEW_CONTEXT"


def test_without_the_hooks_the_cli_itself_refuses(project: Path, home: Path) -> None:
    """No PreToolUse hook here: the command runs, and taskproto sees it runs for Claude Code."""
    require("claude")
    engine, _wt = setup(project, "claude", "SYNTHESIS", own=True)
    (project / ".claude" / "settings.local.json").unlink()  # this machine's settings, without ours
    script: list[Turn] = [
        ToolCall("Bash", {"command": f"{TASKPROTO} --session {SESSION} approve t1 --plan"}),
        Text("Done."),
    ]
    result, turns = claude(project, home, script)
    assert result.json["permission_denials"] == []
    outputs = tool_outputs(turns)
    assert (
        "is the user's to do, and this runs for an agent (CLAUDECODE is set (Claude Code))"
        in outputs
    )
    assert engine.load("t1").checkpoint.plan_approval is None


def test_claude_cannot_pull_a_commit_over_the_state_into_the_main_checkout(
    project: Path, home: Path, tmp_path: Path
) -> None:
    """A session that owns no task, in the main checkout, pulls a branch from a remote it
    controls whose commit tracks an agent's status file: a pull would write it over the status
    file before anything could look at the commit."""
    from tests.conftest import git
    from tests.enforcement.test_tool_guard_sweeps import _evil_branch

    require("claude")
    engine, _wt = setup(project, "claude", "IMPLEMENTATION", own=False)
    status = engine.config.status_file("t1", "dev")
    _evil_branch(project, status.relative_to(project).as_posix())
    git(tmp_path, "clone", "-q", "--bare", str(project), str(tmp_path / "up"))
    git(project, "branch", "-D", "evil")
    git(project, "remote", "add", "up", str(tmp_path / "up"))
    before = status.read_bytes()
    script: list[Turn] = [
        ToolCall("Bash", {"command": "git pull --no-rebase --no-edit up evil"}),
        ToolCall("Bash", {"command": "git fetch up evil && git merge FETCH_HEAD"}),
        Text("Stopped."),
    ]
    result, turns = claude(project, home, script)
    assert [d["tool_name"] for d in result.json["permission_denials"]] == ["Bash", "Bash"]
    assert "fetches commits and writes them into" in tool_outputs(turns)
    assert status.read_bytes() == before

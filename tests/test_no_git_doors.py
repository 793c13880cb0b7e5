"""No git on PATH, through the doors other than the CLI (tests/cli/test_no_git.py): the MCP server
answers a tool call that needs git with the CLI's one line as a tool error, and keeps serving; an
agent client's hook, run as the client runs it, never shows a traceback: a lifecycle event warns
in that line and does nothing, a tool call it cannot judge is denied saying why (docs/agents.md,
docs/mcp.md)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

from taskproto.git.files import GIT_MISSING
from tests.conftest import git, run_taskproto
from tests.hooks.agents.conftest import payload
from tests.mcpserver.conftest import TIMEOUT, server_env, text

HOOK_SH = Path(__file__).resolve().parents[1] / "taskproto" / "hooks" / "agents" / "hook.sh"
DENIED = f"taskproto: this tool call could not be judged: {GIT_MISSING}"


def path_without_git(folder: Path) -> str:
    """A PATH with every program of this one but git (the hook's `sh` script needs the others)."""
    folder.mkdir()
    for entry in os.environ["PATH"].split(os.pathsep):
        if not os.path.isdir(entry):
            continue
        for name in os.listdir(entry):
            if name == "git" or name.startswith("git-") or (folder / name).exists():
                continue
            os.symlink(os.path.join(entry, name), folder / name)
    assert shutil.which("git", path=str(folder)) is None
    return str(folder)


def _tp(repo: Path, *args: str) -> None:
    done = run_taskproto(*args, cwd=repo, env={"TASKPROTO_SESSION": "s1"})
    assert done.code == 0, done.err


@pytest.fixture
def packed(repo: Path) -> Path:
    """Two tasks, t1 owned by s1, their journals packed (so reading them needs `git cat-file`)."""
    _tp(repo, "init", "--claude")
    _tp(repo, "task", "create", "t1")
    _tp(repo, "task", "create", "t2")
    _tp(repo, "claim", "t1")
    git(repo, "gc", "-q")
    return repo


def test_mcp_tools_needing_git_answer_the_one_line_and_the_server_keeps_serving(
    packed: Path, tmp_path: Path
) -> None:
    env = {"PATH": path_without_git(tmp_path / "bin")}
    errlog = tmp_path / "server-stderr.txt"
    calls: list[tuple[str, dict[str, object]]] = [
        ("status", {}),
        ("status", {"task": "t1"}),
        ("claim", {"task": "t2"}),
        ("transition", {"task": "t1", "state": "CLASSIFIED"}),
        ("log", {"task": "t1"}),
        ("doctor", {}),
        ("diff", {"task": "t1"}),
    ]
    answers: dict[str, list[str]] = {}

    async def main() -> None:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "taskproto", "mcp", "--session", "s1"],
            env=server_env(env),
            cwd=str(packed),
        )
        with errlog.open("w") as err:
            async with (
                stdio_client(params, errlog=err) as (read, write),
                ClientSession(read, write, read_timeout_seconds=TIMEOUT) as client,
            ):
                await client.initialize()
                for tool, arguments in calls:
                    result = await client.call_tool(tool, arguments)
                    assert result.is_error, (tool, text(result))
                    answers.setdefault(tool, []).append(text(result))
                # still serving
                assert "status" in {t.name for t in (await client.list_tools()).tools}

    anyio.run(main)
    for tool, lines in answers.items():
        assert lines == [f"taskproto: {GIT_MISSING}"] * len(lines), tool
    assert "Traceback" not in errlog.read_text()
    assert "Error executing tool" not in errlog.read_text()
    # nothing was written: t1 is still where it was, t2 still free
    shown = run_taskproto("task", "show", "t2", "--json", cwd=packed)
    assert '"owner": null' in shown.out, shown


def _hook(repo: Path, path: str, event: str, data: bytes) -> subprocess.CompletedProcess[bytes]:
    """The hook as Claude Code runs it: the command `init --claude` wrote, under `sh`."""
    env = {k: v for k, v in os.environ.items() if k != "TASKPROTO_SESSION"}
    env["PATH"] = path
    return subprocess.run(
        ["/bin/sh", str(HOOK_SH), sys.executable, "claude", event],
        input=data,
        cwd=repo,
        env=env,
        capture_output=True,
        timeout=60,
    )


@pytest.mark.parametrize("event", ["SessionStart", "UserPromptSubmit", "Stop"])
def test_a_lifecycle_hook_warns_in_one_line_and_does_nothing(
    packed: Path, tmp_path: Path, event: str
) -> None:
    worktree = packed / ".taskproto" / "tasks" / "t1" / "code"
    extra = {"prompt": "why is that?"} if event == "UserPromptSubmit" else {}
    data = payload("claude", event, session_id="s1", cwd=str(worktree), **extra)
    done = _hook(packed, path_without_git(tmp_path / "bin"), event, data)
    assert done.returncode == 0, done.stderr
    assert done.stdout == b""
    assert done.stderr.decode().splitlines() == [
        f"taskproto: warning: {GIT_MISSING}; hook claude {event} did nothing"
    ]


def test_an_edit_the_guard_cannot_judge_without_git_is_denied_saying_why(
    packed: Path, tmp_path: Path
) -> None:
    worktree = packed / ".taskproto" / "tasks" / "t1" / "code"
    data = payload(
        "claude",
        "PreToolUse",
        session_id="s1",
        cwd=str(worktree),
        tool_input={"file_path": str(worktree / "x.py"), "content": "x\n"},
    )
    done = _hook(packed, path_without_git(tmp_path / "bin"), "PreToolUse", data)
    assert done.returncode == 2, done.stderr
    assert done.stderr.decode().splitlines() == [DENIED]
    assert not (worktree / "x.py").exists()


@pytest.mark.parametrize(
    ("command", "with_git_code"), [("git checkout evil", 2), ("git stash pop", 0)]
)
def test_a_git_command_the_guard_needs_git_to_judge_is_denied_not_let_through(
    repo: Path, tmp_path: Path, command: str, with_git_code: int
) -> None:
    """`git checkout evil` would write a file into taskproto's root: with git the guard sees it
    and denies; without git it cannot look, and denies saying so (it was let through). `git stash
    pop` of no stash: with git, allowed; without, denied saying why (it was denied as a stash that
    may put untracked files anywhere)."""
    _tp(repo, "init", "--claude")
    (repo / ".taskproto" / "planted").write_text("x\n")
    git(repo, "checkout", "-q", "-b", "evil")
    git(repo, "add", "-f", ".taskproto/planted")
    git(repo, "commit", "-q", "-m", "tracks the root")
    git(repo, "checkout", "-q", "main")
    data = payload(
        "claude",
        "PreToolUse",
        variant="Bash",
        session_id="s9",
        cwd=str(repo),
        tool_input={"command": command},
    )
    with_git = _hook(repo, os.environ["PATH"], "PreToolUse", data)
    assert with_git.returncode == with_git_code, with_git.stderr
    assert GIT_MISSING.encode() not in with_git.stderr
    without = _hook(repo, path_without_git(tmp_path / "bin"), "PreToolUse", data)
    assert without.returncode == 2, without.stderr
    assert without.stderr.decode().splitlines() == [DENIED]
    # a git that cannot be run (not executable): the guard cannot look either, and denies
    (tmp_path / "bin" / "git").write_text("#!/bin/sh\nexit 0\n")
    (tmp_path / "bin" / "git").chmod(0o644)
    broken = _hook(repo, str(tmp_path / "bin"), "PreToolUse", data)
    assert broken.returncode == 2, broken.stderr
    assert len(broken.stderr.splitlines()) == 1, broken.stderr
    if "checkout" in command:  # (a stash it cannot read is denied as one that may hold anything)
        assert b"could not be judged" in broken.stderr, broken.stderr

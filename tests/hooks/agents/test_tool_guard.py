"""PreToolUse / BeforeTool: edits follow the governing task's state and stay in the agent's
worktree; taskproto's own files and the user's commands are off limits whatever the state."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from taskproto.engine import Engine
from taskproto.hooks.agents.tool_guard import UNKNOWN, analyse

from .conftest import STATES, Hook, move_to, payload

ENTRY = Path(__file__).resolve().parents[3] / "taskproto" / "hooks" / "agents" / "entry.py"


def write_call(
    client: str, target: Path, cwd: Path, session: str = "s1", shell: bool = False
) -> tuple[str, bytes]:
    """(event, payload) of a tool call that writes `target`, as each client sends it."""
    if client == "claude":
        if shell:
            return "PreToolUse", payload(
                "claude",
                "PreToolUse",
                variant="Bash",
                session_id=session,
                cwd=str(cwd),
                tool_input={"command": f"printf 'x' > {shlex.quote(str(target))}"},
            )
        return "PreToolUse", payload(
            "claude",
            "PreToolUse",
            session_id=session,
            cwd=str(cwd),
            tool_input={"file_path": str(target), "content": "x"},
        )
    if client == "codex":
        return "PreToolUse", payload(
            "codex",
            "PreToolUse",
            session_id=session,
            cwd=str(cwd),
            tool_input={"command": f"printf 'x' > {shlex.quote(str(target))}"},
        )
    if shell:
        return "BeforeTool", payload(
            "gemini",
            "BeforeTool",
            variant="run_shell_command",
            session_id=session,
            cwd=str(cwd),
            tool_input={"command": f"touch {shlex.quote(str(target))}"},
        )
    return "BeforeTool", payload(
        "gemini",
        "BeforeTool",
        session_id=session,
        cwd=str(cwd),
        tool_input={"file_path": str(target), "content": "x"},
    )


CALLS = [("claude", False), ("claude", True), ("codex", True), ("gemini", False), ("gemini", True)]


@pytest.mark.parametrize(("client", "shell"), CALLS)
def test_state_decides_edits_in_the_agent_worktree(
    client: str, shell: bool, engine: Engine, task: str, agent_wt: Path, hook: Hook
) -> None:
    engine.claim(task, "s1")
    move_to(engine, task, "REQUIREMENTS")
    code, _, err = hook(client, *write_call(client, agent_wt / "new.txt", agent_wt))
    assert code == 2 and "state REQUIREMENTS, which does not allow edits" in err
    move_to(engine, task, "IMPLEMENTATION")
    assert hook(client, *write_call(client, agent_wt / "new.txt", agent_wt)) == (0, "", "")
    # Outside the agent's own worktree: the main worktree, the task worktree.
    for other in (engine.config.repo / "x.txt", engine.config.task_worktree(task) / "x.txt"):
        code, _, err = hook(client, *write_call(client, other, agent_wt))
        assert code == 2 and "outside this agent's worktree" in err, other


def test_a_session_that_owns_nothing_is_governed_by_the_worktree_it_is_in(
    engine: Engine, task: str, agent_wt: Path, hook: Hook
) -> None:
    code, _, err = hook(
        "claude", *write_call("claude", agent_wt / "a.txt", agent_wt, session="stranger")
    )
    assert code == 2 and "state INIT" in err
    # Outside every task: nothing governs, the write is allowed.
    assert (
        hook(
            "claude",
            *write_call(
                "claude", engine.config.repo / "a.txt", engine.config.repo, session="stranger"
            ),
        )[0]
        == 0
    )


@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("client", ["claude", "codex", "gemini"])
def test_task_json_is_never_writable(
    state: str, client: str, engine: Engine, task: str, agent_wt: Path, hook: Hook
) -> None:
    engine.claim(task, "s1")
    move_to(engine, task, state)
    for cwd in (agent_wt, engine.config.repo):
        for target in (
            engine.config.task_file(task),
            engine.config.status_file(task, "dev"),
            engine.config.task_dir(task) / "task.json.lock",
        ):
            code, _, err = hook(client, *write_call(client, target, cwd, shell=client == "codex"))
            assert code == 2 and "taskproto's own state" in err, (cwd, target)


@pytest.mark.parametrize(
    "command",
    [
        "taskproto approve t1 --plan",
        "cd /x && taskproto --session s1 approve t1 --commit",
        f"{sys.executable} -m taskproto approve t1 --plan",
        "taskproto claim t1 --force",
        "TASKPROTO_SESSION=x taskproto claim --force t1",
        "taskproto dep remove t2 --on t1",
        "bash -c 'taskproto --root .taskproto dep remove t2 --on t1'",
    ],
)
@pytest.mark.parametrize("client", ["claude", "codex", "gemini"])
def test_the_users_commands_are_denied_to_agents(
    command: str, client: str, engine: Engine, hook: Hook
) -> None:
    variant = {"claude": "Bash", "codex": None, "gemini": "run_shell_command"}[client]
    event = "BeforeTool" if client == "gemini" else "PreToolUse"
    data = payload(
        client,
        event,
        variant=variant,
        session_id="s1",
        cwd=str(engine.config.repo),
        tool_input={"command": command},
    )
    code, _, err = hook(client, event, data)
    assert code == 2 and "own terminal" in err


@pytest.mark.parametrize(
    "command",
    [
        "taskproto task list",
        "taskproto claim t1",
        "taskproto ready --json",
        "taskproto dep add t1 --on t2",
        "git status",
        "ls -la 2>&1",
        "cat .taskproto/tasks/t1/task.json",
    ],
)
def test_reads_and_ordinary_commands_are_allowed(
    command: str, engine: Engine, task: str, agent_wt: Path, hook: Hook
) -> None:
    data = payload(
        "claude",
        "PreToolUse",
        variant="Bash",
        session_id="s1",
        cwd=str(agent_wt),
        tool_input={"command": command},
    )
    assert hook("claude", "PreToolUse", data) == (0, "", "")


def test_corrupt_task_json_blocks_edits_and_says_doctor(
    engine: Engine, task: str, agent_wt: Path, hook: Hook
) -> None:
    engine.config.task_file(task).write_text("{ not json")
    code, _, err = hook("claude", *write_call("claude", agent_wt / "a.txt", agent_wt))
    assert code == 2 and "taskproto doctor" in err
    read = payload(
        "claude", "PreToolUse", variant="Bash", cwd=str(agent_wt), tool_input={"command": "ls"}
    )
    assert hook("claude", "PreToolUse", read)[0] == 0


@pytest.mark.parametrize(
    ("command", "targets"),
    [
        ("echo hi > out.txt", ["/w/out.txt"]),
        ("rm -f a 2>/dev/null", ["/w/a"]),
        ("ls -la 2>&1 | head", []),
        ("cd sub && touch x", ["/w/sub/x"]),
        ("git -C /r commit -m x", ["/r"]),
        ("git push origin t1", ["/w"]),
        ("sed -i 's/a/b/' f.txt", ["/w/f.txt"]),
        ("cp a b/c", ["/w/b/c"]),
        ("echo x >&2; grep -r foo . | wc -l", []),
        (
            (
                "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: new.txt\n+hi\n*** Update "
                "File: /abs/old.py\n"
                "*** End Patch\nEOF"
            ),
            ["/w/new.txt", "/abs/old.py"],
        ),
        ("cat <<EOF > f\nrm -rf /\nEOF", ["/w/f"]),
    ],
)
def test_shell_commands_are_read_for_what_they_write(command: str, targets: list[str]) -> None:
    assert analyse("Bash", {"command": command}, "/w").targets == targets


def test_write_tools_without_a_path_count_as_writes() -> None:
    assert analyse("Write", {}, "/w").targets == [UNKNOWN]
    assert analyse("Read", {"file_path": "/w/x"}, "/w").targets == []


def test_installed_entry_decides_without_site_packages(
    engine: Engine, task: str, agent_wt: Path
) -> None:
    """The fast path: `python -I -S entry.py`, and no click, pydantic, jinja2 or GitPython when
    nothing governs."""
    probe = (
        "import sys; sys.argv=['entry', 'claude', 'PreToolUse']; sys.path.insert(0, "
        f"{str(ENTRY.parents[3])!r});"
        "from taskproto.hooks.agents.runner import run_agent_hook;"
        "import json; r = run_agent_hook('claude', 'PreToolUse', sys.stdin.buffer.read(), {});"
        "print(json.dumps([r[0], sorted(m for m in ('click', 'pydantic', 'jinja2', 'git') if m in "
        "sys.modules)]))"
    )
    data = payload(
        "claude",
        "PreToolUse",
        session_id="nobody",
        cwd=str(engine.config.repo),
        tool_input={"file_path": str(engine.config.repo / "x.txt"), "content": "x"},
    )
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", probe], input=data, capture_output=True, check=True
    )
    assert json.loads(proc.stdout) == [0, []]
    # The installed command itself, with the flags cache warm, denies in INIT without loading
    # pydantic.
    deny = payload(
        "claude",
        "PreToolUse",
        session_id="nobody",
        cwd=str(agent_wt),
        tool_input={"file_path": str(agent_wt / "x.txt"), "content": "x"},
    )
    first = subprocess.run(
        [sys.executable, "-I", "-S", str(ENTRY), "claude", "PreToolUse"],
        input=deny,
        capture_output=True,
        env={k: os.environ[k] for k in ("PATH", "HOME", "XDG_STATE_HOME")},
        check=False,
    )
    assert first.returncode == 2 and b"state INIT" in first.stderr
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", probe], input=deny, capture_output=True, check=True
    )
    assert json.loads(proc.stdout) == [2, []]

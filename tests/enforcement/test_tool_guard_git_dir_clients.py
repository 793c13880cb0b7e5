"""Codex CLI's and Gemini CLI's shell tools held to what Claude Code's Bash is held to
(test_tool_guard_escapes.py): for an agent that `taskproto agent start` launched (its session owns
the task, it works in its own worktree, its environment names it), a shell command that moves
another agent's branch or the main one through `--git-dir=...`, `GIT_DIR=... git commit` or
`git -C <other worktree>` is denied, naming the worktree it would write in; its own git dir and
reads pass. Each client's captured real payload (tests/clients/payloads/), through the real hook
entry point."""

from __future__ import annotations

import pytest

from taskproto.engine import Engine
from tests.hooks.agents.conftest import Hook, payload

from .test_tool_guard_escapes import SESSION, dev, qa, t1  # noqa: F401 (a fixture)

# each client's shell tool: the event and the captured payload's variant
CLIENTS = {"codex": ("PreToolUse", None), "gemini": ("BeforeTool", "run_shell_command")}
LAUNCHED = {"TASKPROTO_AGENT": "1", "TASKPROTO_TASK": "t1", "TASKPROTO_AGENT_NAME": "dev"}

MOVES = [
    ("git --git-dir=../../qa/code/.git commit --allow-empty -m x", "qa"),
    ("git --git-dir ../../qa/code/.git commit --allow-empty -m x", "qa"),
    ("GIT_DIR=../../qa/code/.git git commit --allow-empty -m x", "qa"),
    ("export GIT_DIR=../../qa/code/.git; git commit --allow-empty -m x", "qa"),
    ("env GIT_DIR=../../qa/code/.git git commit --allow-empty -m x", "qa"),
    ("git -C ../../qa/code commit --allow-empty -m x", "qa"),
    ("bash -c 'git -C ../../qa/code commit --allow-empty -m x'", "qa"),
    ("git --git-dir={main}/.git commit --allow-empty -m x", "main"),
    ("GIT_DIR={main}/.git git commit --allow-empty -m x", "main"),
    ("git -C {main} commit --allow-empty -m x", "main"),
    ("git -C {main} merge t1-dev", "main"),
    ("git -C {main} --git-dir=.git reset --hard HEAD", "main"),
]


def shell(hook: Hook, client: str, command: str, cwd: str) -> tuple[int, str]:
    event, variant = CLIENTS[client]
    data = payload(
        client, event, variant=variant, session_id=SESSION, cwd=cwd, tool_input={"command": command}
    )
    code, _, err = hook(client, event, data, env=LAUNCHED)
    return code, err


@pytest.mark.parametrize("client", sorted(CLIENTS))
@pytest.mark.parametrize(("command", "whose"), MOVES, ids=[m[0] for m in MOVES])
def test_another_branch_moved_through_a_git_dir_or_C_is_denied(
    t1: Engine,  # noqa: F811
    hook: Hook,
    client: str,
    command: str,
    whose: str,
) -> None:
    main = t1.config.repo
    code, err = shell(hook, client, command.format(main=main), str(dev(t1)))
    assert code == 2, (client, command, err)
    other = qa(t1) if whose == "qa" else main
    assert err.startswith(f"taskproto: {other} is outside this agent's worktree of task t1"), err


@pytest.mark.parametrize("client", sorted(CLIENTS))
@pytest.mark.parametrize(
    "command",
    [
        "git --git-dir=.git commit --allow-empty -m x",
        "GIT_DIR=.git git commit --allow-empty -m x",
        "git commit --allow-empty -m x",
        "git --git-dir=../../qa/code/.git log -1",
        "git -C ../../qa/code log -1",
        "git -C {main} status",
    ],
)
def test_the_agents_own_git_dir_or_a_read_passes(
    t1: Engine,  # noqa: F811
    hook: Hook,
    client: str,
    command: str,
) -> None:
    code, err = shell(hook, client, command.format(main=t1.config.repo), str(dev(t1)))
    assert code == 0, (client, command, err)

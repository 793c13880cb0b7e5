"""A Claude Code session the user started carries TASKPROTO_AGENT=1 and its TASKPROTO_SESSION (the
SessionStart hook writes them into every command it runs), but no task or agent name. It is an
agent (docs/agents.md: the CLI refuses the user's actions to it), so the git hook holds its git to
the tool guard's branch rule, asked of one function (hooks/session_branches.py): a session that
owns task t1 moves only t1's branches, one that owns none moves no task's branch. The ways around
the tool guard (another shell, a script file, another cwd, GIT_DIR) meet the git hook; the user's
own terminal is not held to it. Real git, the installed hooks, the real hook entry point for the
guard."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from taskproto.engine import Engine
from taskproto.git.command import Git
from taskproto.hooks.git import install
from tests.conftest import commit_file, git
from tests.hooks.agents.conftest import Hook, move_to, payload

SESSION = "s1"
RULE = "held to the tool guard's rule: "


@pytest.fixture
def owned(engine: Engine, repo: Path) -> Engine:
    """Hooks installed; t1 (agent dev) owned by s1 in IMPLEMENTATION (commits allowed); t2 owned
    by nobody, in IMPLEMENTATION too; a commit on branch `feature` to move to."""
    git(repo, "checkout", "-q", "-b", "feature")
    commit_file(repo, "feature.txt", "feature\n")
    git(repo, "checkout", "-q", "main")
    install.install(Git(repo))
    engine.create_task("t1", ["dev"])
    engine.claim("t1", SESSION)
    move_to(engine, "t1", "IMPLEMENTATION")
    engine.create_task("t2")
    engine.claim("t2", "s2")
    move_to(engine, "t2", "IMPLEMENTATION")
    engine.release("t2", "s2")
    return engine


def _session_env(session: str | None) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("TASKPROTO_") and k not in ("GIT_DIR", "GIT_WORK_TREE")
    }
    if session is not None:
        env |= {"TASKPROTO_AGENT": "1", "TASKPROTO_SESSION": session}
    return env


def run(command: str, cwd: Path, session: str | None = SESSION) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", "-c", command],
        cwd=cwd,
        env=_session_env(session),
        capture_output=True,
        text=True,
        check=False,
    )


def refs(repo: Path) -> str:
    return git(repo, "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/")


def guard(hook: Hook, command: str, cwd: Path, session: str = SESSION) -> tuple[int, str]:
    data = payload(
        "claude",
        "PreToolUse",
        variant="Bash",
        session_id=session,
        cwd=str(cwd),
        tool_input={"command": command},
    )
    code, _, err = hook("claude", "PreToolUse", data, env={"TASKPROTO_AGENT": "1"})
    return code, err


def _taskproto_lines(proc: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in proc.stderr.splitlines() if line.startswith("taskproto:")]


def test_a_session_that_owns_a_task_moves_no_other_branch_whichever_way_git_gets_there(
    owned: Engine, hook: Hook, tmp_path: Path
) -> None:
    repo = owned.config.repo
    task_wt, t2_wt = owned.config.task_worktree("t1"), owned.config.task_worktree("t2")
    script = tmp_path / "commit.sh"
    script.write_text(f"cd {repo}\ngit commit --allow-empty -qm 'onto main'\n")
    main_line = (
        f"taskproto: refused: moving refs/heads/main: this git runs in agent session {SESSION} "
        f"(TASKPROTO_AGENT=1, as its client's commands run), {RULE}refs/heads/main is no branch "
        "of task t1, this session's: the session moves only its task's branches; work reaches "
        "the base branch through the user's `taskproto land t1`."
    )
    t2_line = (
        f"taskproto: refused: moving refs/heads/t2: this git runs in agent session {SESSION} "
        f"(TASKPROTO_AGENT=1, as its client's commands run), {RULE}refs/heads/t2 belongs to "
        "task t2, not to this session's task t1."
    )
    attempts = [
        (f"git -C {repo} commit --allow-empty -qm x", task_wt, main_line, True),
        (f"bash -c 'git -C {repo} commit --allow-empty -qm x'", task_wt, main_line, True),
        (f"sh {script}", task_wt, main_line, False),  # a script file: the guard cannot read it
        ("git commit --allow-empty -qm x", repo, main_line, True),  # another cwd
        (f"GIT_DIR={repo}/.git git commit --allow-empty -qm x", tmp_path, main_line, True),
        (f"git -C {t2_wt} commit --allow-empty -qm x", task_wt, t2_line, True),
    ]
    before = refs(repo)
    for command, cwd, line, guard_reads in attempts:
        proc = run(command, cwd)
        assert proc.returncode != 0, (command, proc.stdout, proc.stderr)
        assert _taskproto_lines(proc) == [line], (command, proc.stderr)
        assert refs(repo) == before, command
        if guard_reads:  # the tool guard refuses it before it runs
            code, err = guard(hook, command, cwd)
            assert code == 2, (command, err)
    # its own task's branch moves, in its worktree
    assert run("git commit --allow-empty -qm mine", task_wt).returncode == 0
    assert refs(repo) != before
    # the user's own terminal, with the same session exported by hand, is no agent session
    mine = run(f"git -C {repo} commit --allow-empty -qm 'the user on main'", task_wt, None)
    assert mine.returncode == 0 and _taskproto_lines(mine) == [], mine.stderr


def test_a_session_that_owns_no_task_moves_no_tasks_branch_and_says_it_as_the_guard_does(
    owned: Engine, hook: Hook
) -> None:
    repo = owned.config.repo
    main = git(repo, "rev-parse", "main")
    command = "git update-ref refs/heads/t2 feature"
    why = (
        "refs/heads/t2 is a branch of task t2: only the session that owns the task moves it "
        "(claim it first)."
    )
    code, err = guard(hook, command, repo, session="s9")
    assert code == 2 and why in err, err
    before = refs(repo)
    proc = run(command, repo, session="s9")
    assert proc.returncode != 0
    assert _taskproto_lines(proc) == [
        "taskproto: refused: moving refs/heads/t2: this git runs in agent session s9 "
        f"(TASKPROTO_AGENT=1, as its client's commands run), {RULE}{why}"
    ], proc.stderr
    assert refs(repo) == before
    # the base branch is no task's: it moves, as the guard lets it
    assert guard(hook, "git commit --allow-empty -qm x", repo, session="s9")[0] == 0
    assert run("git commit --allow-empty -qm x", repo, session="s9").returncode == 0
    assert git(repo, "rev-parse", "main") != main

"""Events around tasks on real repositories: a conflicted merge left in an agent's worktree, hooks
git no longer runs, an interpreter that vanished; escalations a person can act on."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from doctor_helpers import Env, commit_file, ids

from taskproto.hooks.git import install as git_install
from taskproto.hooks.git import repair  # noqa: F401  (registers the hooks' reinstall fix)


def _conflict(env: Env) -> Path:
    wt = env.worktree("a")
    commit_file(wt, "same.txt", "agent side\n")
    commit_file(env.worktree(), "same.txt", "task side\n")
    proc = subprocess.run(["git", "merge", "t"], cwd=wt, capture_output=True, text=True)
    assert proc.returncode != 0
    return wt


def test_a_conflicted_merge_is_named_with_the_commands_to_finish_or_abort(
    env: Env, cli: Any
) -> None:
    wt = _conflict(env)
    before = env.git("rev-parse", "HEAD", cwd=wt)
    r = cli("doctor")
    assert r.code == 1
    assert "git-operation-in-progress" in r.out
    where = wt.relative_to(env.repo)
    assert f"git -C {where} merge --continue" in r.out and f"git -C {where} merge --abort" in r.out
    # one escalation, the options name the real task and the runnable one says how
    assert r.out.count("encountered a recovery scenario") == 1
    assert "TASK" not in r.out
    assert "Run it: `taskproto recover t --option 2`" in r.out
    # --fix changes nothing here: the resolution is a person's
    cli("doctor", "--fix")
    assert (env.admin_dir(wt) / "MERGE_HEAD").exists()
    # dry run says "would"; nothing changes
    r = cli("recover", "t", "--option", "2", "--dry-run")
    assert r.code == 0 and r.out.startswith("would run: git -C ")
    assert (env.admin_dir(wt) / "MERGE_HEAD").exists()
    # an option that is a person's is refused, one line, nothing changed
    r = cli("recover", "t", "--option", "1")
    assert r.code == 1 and len(r.err.strip().splitlines()) == 1 and "person" in r.err
    r = cli("recover", "t", "--option", "9")
    assert r.code == 1 and "choose 1 to 3" in r.err
    r = cli("recover", "t", "--option", "2")
    assert r.code == 0, r.err
    assert not (env.admin_dir(wt) / "MERGE_HEAD").exists()
    assert env.git("rev-parse", "HEAD", cwd=wt) == before  # the agent's commit is still there
    assert cli("doctor").code == 0


def test_recover_option_with_nothing_to_choose_is_refused(env: Env, cli: Any) -> None:
    r = cli("recover", "t", "--option", "1")
    assert r.code == 1 and "no escalation" in r.err
    r = cli("recover", "t", "--option", "1", "--json")
    assert r.code == 1 and "error" in json.loads(r.err or r.out)


def _init(env: Env, cli: Any) -> Path:
    r = cli("init", "--git")
    assert r.code == 0, r.err
    return Path(env.git("rev-parse", "--path-format=absolute", "--git-path", "hooks"))


def test_a_changed_hooks_path_is_found_and_fixed(env: Env, cli: Any, tmp_path: Path) -> None:
    _init(env, cli)
    other = tmp_path / "team-hooks"
    other.mkdir()
    (other / "pre-commit").write_text("#!/bin/sh\necho team hook ran >&2\n")
    (other / "pre-commit").chmod(0o755)
    (other / "post-checkout").write_text("#!/bin/sh\necho team checkout hook ran >&2\n")
    (other / "post-checkout").chmod(0o755)
    env.git("config", "core.hooksPath", str(other))
    r = cli("doctor")
    assert r.code == 1 and "git-hooks-missing" in r.out and str(other) in r.out
    r = cli("doctor", "--fix")
    assert r.code == 0, r.out
    assert git_install.is_ours(other / "reference-transaction")
    assert git_install.is_ours(other / "post-checkout")
    # the team's hooks are kept and still run: pre-commit where it was (taskproto installs none),
    # post-checkout chained, first
    assert not git_install.is_ours(other / "pre-commit")
    assert "team checkout hook ran" in (other / "post-checkout.taskproto-chained").read_text()
    proc = subprocess.run(
        ["git", "commit", "--allow-empty", "-m", "x"], cwd=env.repo, capture_output=True, text=True
    )
    assert proc.returncode == 0 and "team hook ran" in proc.stderr
    proc = subprocess.run(
        ["git", "checkout", "-q", "-b", "other"], cwd=env.repo, capture_output=True, text=True
    )
    assert proc.returncode == 0 and "team checkout hook ran" in proc.stderr


def test_uninstalled_hooks_while_tasks_exist_are_reported(env: Env, cli: Any) -> None:
    _init(env, cli)
    assert cli("init", "--uninstall", "--git").code == 0
    r = cli("doctor")
    assert r.code == 1 and "git-hooks-missing" in r.out and "--uninstall" in r.out
    assert cli("doctor", "--fix").code == 0
    assert cli("doctor").code == 0


def test_a_vanished_interpreter_blocks_only_task_branches_until_reinstalled(
    env: Env, cli: Any, tmp_path: Path
) -> None:
    # A virtualenv that existed at init time and was deleted since.
    venv_python = tmp_path / "venv" / "bin" / "python"
    venv_python.parent.mkdir(parents=True)
    os.symlink(os.path.realpath(os.sys.executable), venv_python)  # type: ignore[attr-defined]
    report = git_install.install(env.engine.git, python=str(venv_python))
    git_install.record(env.config.root, report, installed=True)
    venv_python.unlink()

    def commit(cwd: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["git", "commit", "--allow-empty", "-m", "x"], cwd=cwd, capture_output=True, text=True
        )

    free = commit(env.repo)  # main is no task's branch: never blocked
    assert free.returncode == 0, free.stderr  # (the shell's fast path may not even look)
    blocked = commit(env.worktree("a"))  # t-a is a task's branch: reference-transaction stops it
    assert blocked.returncode == 128
    assert "cannot check this commit on task branch t-a" in blocked.stderr
    assert "taskproto doctor --fix" in blocked.stderr
    r = cli("doctor")
    assert "git-hooks-interpreter-missing" in r.out and str(venv_python) in r.out
    assert cli("doctor", "--fix").code == 0
    again = commit(env.worktree("a"))
    assert "is gone" not in again.stderr  # the hook runs taskproto again (its own decision)
    assert "git-hooks" not in cli("doctor").out


def test_a_relative_hooks_path_is_explained(env: Env, cli: Any) -> None:
    _init(env, cli)
    env.git("config", "core.hooksPath", ".githooks")
    r = cli("doctor", "--fix")
    assert "git-hooks-path-relative" in r.out
    assert f"git config core.hooksPath {env.repo / '.githooks'}" in r.out
    assert ids(env.doctor()) >= {"git-hooks-path-relative"}


def test_escalation_commands_carry_the_real_branch(env: Env, cli: Any) -> None:
    env.engine.create_task("gone")
    env.engine.remove_task("gone")
    env.git("switch", "--quiet", "-c", "gone-old")
    commit_file(env.repo, "only-here.txt", "work\n")  # a commit found on no other branch
    env.git("switch", "--quiet", "main")
    r = cli("doctor", "--fix")
    assert r.code == 1
    assert "`git branch -D gone-old`" in r.out and "BRANCH" not in r.out
    assert env.git("branch", "--list", "gone-old")  # kept: its commit is nowhere else


def _complete(env: Env) -> None:
    """Task t with agent a's work merged, approved and COMPLETE; taskproto's git hooks installed."""
    from taskproto.git.command import Git
    from tests.hooks.agents.conftest import move_to

    git_install.install(Git(env.repo))
    env.engine.claim("t", "s1")
    move_to(env.engine, "t", "IMPLEMENTATION")
    commit_file(env.worktree("a"), "greeting.py", "print('hello from a')\n")
    env.engine.merge("t", session="s1")
    move_to(env.engine, "t", "AWAITING_USER_APPROVAL")
    env.engine.approve("t", "commit", "user")
    env.engine.fire("t", target="COMPLETE", session="s1")


def test_the_merge_land_asks_for_is_no_corruption(env: Env, cli: Any) -> None:
    """`land` refuses a base that moved and conflicts (naming `taskproto update`). Doing the update
    by hand (roll back, merge the base into the task branch in its worktree, approve again) is
    work in progress, then a legitimate merge commit: doctor reports no error and asks no
    decision at any step."""
    from tests.hooks.agents.conftest import move_to

    _complete(env)
    commit_file(env.repo, "greeting.py", "print('hello from main')\n", "main wrote it too")
    r = cli("land", "t")
    assert r.code == 1 and "`taskproto update t`" in r.err, r.err
    assert cli("rollback", "t", "--to", "IMPLEMENTATION").code == 0
    wt = env.worktree()
    proc = subprocess.run(["git", "merge", "main"], cwd=wt, capture_output=True, text=True)
    assert proc.returncode == 1 and "CONFLICT" in proc.stdout  # as a person meets it
    r = cli("doctor")
    assert r.code == 0, r.out + r.err
    assert "ERROR" not in r.out and "recovery scenario" not in r.out
    assert "merge-in-progress" in r.out and "a merge of main into t" in r.out
    assert "git -C .taskproto/tasks/t/code merge --continue" in r.out
    r = cli("recover", "t")  # the recovery tree does not take it for corruption either
    assert r.code == 0 and "[corruption]" not in r.out and "merge-in-progress" in r.out, r.out
    (wt / "greeting.py").write_text("print('hello from both')\n")
    env.git("add", "greeting.py", cwd=wt)
    env.git("commit", "--no-edit", cwd=wt)  # the merge commit, through taskproto's hooks
    r = cli("doctor")
    assert r.code == 0 and "healthy" in r.out and "merge-in-progress" not in r.out, r.out
    move_to(env.engine, "t", "AWAITING_USER_APPROVAL")
    assert cli("approve", "t", "--commit").code == 0
    assert cli("doctor").code == 0
    env.engine.fire("t", target="COMPLETE", session="s1")
    r = cli("land", "t")
    assert r.code == 0, r.err
    assert (env.repo / "greeting.py").read_text() == "print('hello from both')\n"
    assert cli("doctor").code == 0


def test_the_merge_of_the_task_branch_taskproto_merge_asks_for_is_no_corruption(
    env: Env, cli: Any
) -> None:
    """`taskproto merge` stops at a conflicting agent and says: merge the task branch into the
    agent's branch in the agent's worktree. That merge in progress is no error either."""
    from tests.hooks.agents.conftest import move_to

    env.engine.claim("t", "s1")
    move_to(env.engine, "t", "IMPLEMENTATION")
    commit_file(env.worktree("a"), "same.txt", "a's side\n")
    commit_file(env.worktree("b"), "same.txt", "b's side\n")
    r = cli("merge", "t", env={"TASKPROTO_SESSION": "s1"})
    assert r.code == 1 and "merge t into t-b in the agent's worktree" in r.err, r.err
    proc = subprocess.run(["git", "merge", "t"], cwd=env.worktree("b"), capture_output=True)
    assert proc.returncode == 1
    r = cli("doctor")
    assert r.code == 0 and "recovery scenario" not in r.out, r.out
    assert "merge-in-progress" in r.out and "a merge of t into t-b" in r.out


def test_a_half_done_merge_is_one_short_message_with_paths_in_the_repository(
    env: Env, cli: Any
) -> None:
    _conflict(env)  # in INIT, where no commit may land: an error, with a decision
    r = cli("doctor")
    assert r.code == 1
    assert str(env.repo) not in r.out, r.out  # paths relative to the repository
    message = r.out[r.out.index("Task 't' encountered") :]
    assert len(message.strip().splitlines()) <= 16, message
    assert message.count("merge --continue") == 1 and message.count("merge --abort") == 1
    assert "Run it: `taskproto recover t --option 2`" in message
    table = r.out[: r.out.index("Task 't' encountered")]
    assert table.count(".taskproto/tasks/t/agents/a/code") == 1, table

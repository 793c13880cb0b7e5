"""The journal's ref moves in-process, under git's own ref lock, only when that is what
`git update-ref` would do (git/reffiles.py); otherwise git moves it, and whoever watches sees it."""

from __future__ import annotations

from pathlib import Path

import pytest

from taskproto.errors import GitError
from taskproto.git import reffiles
from taskproto.git.files import find_repo
from tests.conftest import git, git_recorder, run_taskproto

SESSION = {"TASKPROTO_SESSION": "s1"}


def _shim(tmp_path: Path) -> tuple[dict[str, str], Path]:
    log = tmp_path / "git-calls.log"
    return {**SESSION, **git_recorder(tmp_path / "shim", log)}, log


def _ready(repo: Path) -> None:
    for args in (("init", "--git"), ("task", "create", "t1"), ("claim", "t1")):
        result = run_taskproto(*args, cwd=repo, env=SESSION)
        assert result.code == 0, result.err


def test_a_transition_starts_no_git_and_leaves_what_git_would(repo: Path, tmp_path: Path) -> None:
    _ready(repo)
    env, log = _shim(tmp_path)
    result = run_taskproto("transition", "t1", "CLASSIFIED", cwd=repo, env=env)
    assert result.code == 0, result.err
    assert not log.exists() or log.read_text() == ""  # no git process, no hook run
    head = git(repo, "rev-parse", "refs/taskproto/tasks/t1")
    assert (repo / ".git/refs/taskproto/tasks/t1").read_text() == head + "\n"
    assert not (repo / ".git/refs/taskproto/tasks/t1.lock").exists()
    assert git(repo, "log", "-1", "--format=%s", head) == "classify: INIT -> CLASSIFIED"
    git(repo, "fsck", "--strict")


def test_a_users_reference_transaction_hook_still_sees_journal_updates(
    repo: Path, tmp_path: Path
) -> None:
    seen = tmp_path / "seen"
    hook = repo / ".git" / "hooks" / "reference-transaction"
    hook.write_text(f'#!/bin/sh\nwhile read -r old new ref; do echo "$1 $ref" >> "{seen}"; done\n')
    hook.chmod(0o755)
    _ready(repo)  # init keeps the user's hook, chained before taskproto's
    result = run_taskproto("transition", "t1", "CLASSIFIED", cwd=repo, env=SESSION)
    assert result.code == 0, result.err
    assert "committed refs/taskproto/tasks/t1" in seen.read_text().splitlines()
    head = git(repo, "rev-parse", "refs/taskproto/tasks/t1")
    assert git(repo, "log", "-1", "--format=%s", head) == "classify: INIT -> CLASSIFIED"


def test_core_hooks_path_leaves_the_move_to_git(repo: Path, tmp_path: Path) -> None:
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    git(repo, "config", "core.hooksPath", str(hooks))
    _ready(repo)
    env, log = _shim(tmp_path)
    result = run_taskproto("transition", "t1", "CLASSIFIED", cwd=repo, env=env)
    assert result.code == 0, result.err
    assert any(line.startswith("update-ref ") for line in log.read_text().splitlines())


def test_a_leftover_ref_lock_refuses_the_transition_and_writes_nothing(repo: Path) -> None:
    _ready(repo)
    task_json = repo / ".taskproto" / "tasks" / "t1" / "task.json"
    before, head = task_json.read_bytes(), git(repo, "rev-parse", "refs/taskproto/tasks/t1")
    lock = repo / ".git" / "refs" / "taskproto" / "tasks" / "t1.lock"
    lock.write_text("")  # a killed writer's (git's or ours: the same lock)
    result = run_taskproto("transition", "t1", "CLASSIFIED", cwd=repo, env=SESSION)
    assert result.code == 1
    assert len(result.err.strip().splitlines()) == 1, result.err
    assert "journal of t1 could not be written" in result.err
    assert task_json.read_bytes() == before
    assert git(repo, "rev-parse", "refs/taskproto/tasks/t1") == head
    lock.unlink()
    assert run_taskproto("transition", "t1", "CLASSIFIED", cwd=repo, env=SESSION).code == 0


def test_an_unexpected_old_value_is_refused_and_the_ref_stays(repo: Path) -> None:
    dirs = find_repo(str(repo))
    assert dirs is not None
    first = git(repo, "rev-parse", "HEAD")
    ref = "refs/taskproto/tasks/x"
    assert reffiles.update(dirs, ref, first, None)
    assert git(repo, "rev-parse", ref) == first
    second = git(repo, "commit-tree", "-m", "second", f"{first}^{{tree}}")
    with pytest.raises(GitError, match="expected"):
        reffiles.update(dirs, ref, second, None)  # it exists: "must not exist" fails
    with pytest.raises(GitError, match="expected"):
        reffiles.update(dirs, ref, second, second)
    assert git(repo, "rev-parse", ref) == first
    assert reffiles.update(dirs, ref, second, first)
    assert git(repo, "rev-parse", ref) == second
    # a packed ref is read as git reads it, and moved by a loose one
    git(repo, "pack-refs", "--all")
    assert not (repo / ".git" / ref).exists()
    assert reffiles.update(dirs, ref, first, second)
    assert git(repo, "rev-parse", ref) == first
    assert not reffiles.update(dirs, "refs/heads/main", first, first)  # not ours: git's to do

"""Worktree states a user leaves behind by hand: a locked worktree (`git worktree lock`, a folder on
a removable drive) whose folder is gone (git never lists a locked worktree as prunable, so doctor
must still see it missing, and --fix must not re-add it behind the lock); a rebase left half done
(git detaches HEAD meanwhile: that is the rebase, not a wrong branch)."""

from __future__ import annotations

import shutil
from typing import Any

from doctor_helpers import Env, commit_file, ids


def test_locked_worktree_whose_folder_is_gone_is_reported_and_not_readded(
    env: Env, cli: Any
) -> None:
    code_dir = env.worktree()
    env.git("worktree", "lock", "--reason", "on a usb drive", str(code_dir))
    shutil.rmtree(code_dir)

    r = cli("doctor")
    assert r.code == 1
    assert "task-worktree-missing" in r.out
    assert "locked" in r.out and "git worktree unlock" in r.out

    r = cli("doctor", "--fix")
    assert r.code == 1
    assert not code_dir.exists()  # nothing re-made behind the lock
    assert "locked" in env.git("worktree", "list", "--porcelain")

    env.git("worktree", "unlock", str(code_dir))
    r = cli("doctor", "--fix")
    assert r.code == 0, r.out + r.err
    assert code_dir.is_dir()
    assert env.git("rev-parse", "--abbrev-ref", "HEAD", cwd=code_dir).strip() == "t"


def test_a_half_done_rebase_is_reported_as_the_rebase_not_as_a_wrong_branch(env: Env) -> None:
    agent_wt = env.worktree("a")
    base = env.git("rev-parse", "HEAD").strip()
    commit_file(agent_wt, "f.txt", "ours\n")
    env.git("switch", "--quiet", "-c", "side", base, cwd=agent_wt)
    commit_file(agent_wt, "f.txt", "theirs\n")
    env.git("switch", "--quiet", "t-a", cwd=agent_wt)
    assert env.git_status("rebase", "side", cwd=agent_wt) != 0  # stops at the conflict

    report = env.doctor()
    assert "git-operation-in-progress" in ids(report)
    assert "worktree-wrong-branch" not in ids(report)  # its fix would say `git switch t-a`

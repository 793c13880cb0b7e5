"""A task worktree locked with `git worktree lock` (a folder on a removable drive) whose folder is
gone: git never lists a locked worktree as prunable, so doctor must still see it missing, and
--fix must not prune or re-add it behind the lock."""

from __future__ import annotations

import shutil
from typing import Any

from doctor_helpers import Env


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

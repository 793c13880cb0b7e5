"""A repository moved and not re-linked yet: `task remove` refuses to delete a worktree git has no
registration of at this place (its uncommitted work would go), and a removal never prunes the
other tasks' registrations, which `taskproto init` re-links them with."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def _tp(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TASKPROTO_")}
    env["TASKPROTO_SESSION"] = "me"
    return subprocess.run(
        [sys.executable, "-m", "taskproto", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_remove_in_a_moved_repository_keeps_work_and_the_other_tasks_registrations(
    repo: Path, tmp_path: Path
) -> None:
    assert _tp(repo, "init").returncode == 0
    for name in ("drop", "keep"):
        made = _tp(repo, "task", "create", name)
        assert made.returncode == 0, made.stderr
    moved = tmp_path / "moved"
    os.rename(repo, moved)
    precious = moved / ".taskproto" / "tasks" / "drop" / "code" / "uncommitted.txt"
    precious.write_text("precious\n")
    admins = sorted(os.listdir(moved / ".git" / "worktrees"))

    refused = _tp(moved, "task", "remove", "drop")
    assert refused.returncode == 1, refused.stdout + refused.stderr
    assert "not registered in git at this place" in refused.stderr
    assert "taskproto init" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    assert precious.read_text() == "precious\n"
    assert sorted(os.listdir(moved / ".git" / "worktrees")) == admins

    forced = _tp(moved, "task", "remove", "drop", "--force")
    assert forced.returncode == 0, forced.stderr
    assert not precious.exists()
    # only the removed task's registration went: the other task's is there for init to re-link
    assert len(os.listdir(moved / ".git" / "worktrees")) == len(admins) - 1
    relinked = _tp(moved, "init")
    assert relinked.returncode == 0, relinked.stderr
    status = subprocess.run(
        ["git", "status", "--porcelain"],
        cwd=moved / ".taskproto" / "tasks" / "keep" / "code",
        capture_output=True,
        text=True,
    )
    assert status.returncode == 0, status.stderr

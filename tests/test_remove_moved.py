"""A repository moved and not re-linked yet: `task remove` refuses to delete a worktree git has no
registration of at this place (its uncommitted work would go), and a removal never prunes the
other tasks' registrations, which `taskproto init` re-links them with."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.conftest import Result, run_taskproto


def _tp(cwd: Path, *args: str) -> Result:
    return run_taskproto(*args, cwd=cwd, env={"TASKPROTO_SESSION": "me"}, timeout=120)


def test_remove_in_a_moved_repository_keeps_work_and_the_other_tasks_registrations(
    repo: Path, tmp_path: Path
) -> None:
    assert _tp(repo, "init").code == 0
    for name in ("drop", "keep"):
        made = _tp(repo, "task", "create", name)
        assert made.code == 0, made.err
    moved = tmp_path / "moved"
    os.rename(repo, moved)
    precious = moved / ".taskproto" / "tasks" / "drop" / "code" / "uncommitted.txt"
    precious.write_text("precious\n")
    admins = sorted(os.listdir(moved / ".git" / "worktrees"))

    refused = _tp(moved, "task", "remove", "drop")
    assert refused.code == 1, refused.out + refused.err
    assert "not registered in git at this place" in refused.err
    assert "taskproto init" in refused.err
    assert len(refused.err.strip().splitlines()) == 1, refused.err
    assert precious.read_text() == "precious\n"
    assert sorted(os.listdir(moved / ".git" / "worktrees")) == admins

    forced = _tp(moved, "task", "remove", "drop", "--force")
    assert forced.code == 0, forced.err
    assert not precious.exists()
    # only the removed task's registration went: the other task's is there for init to re-link
    assert len(os.listdir(moved / ".git" / "worktrees")) == len(admins) - 1
    relinked = _tp(moved, "init")
    assert relinked.code == 0, relinked.err
    status = subprocess.run(
        ["git", "status", "--porcelain"],
        cwd=moved / ".taskproto" / "tasks" / "keep" / "code",
        capture_output=True,
        text=True,
    )
    assert status.returncode == 0, status.stderr


def test_remove_through_a_linked_path_is_judged_as_in_place(repo: Path, tmp_path: Path) -> None:
    """The repository reached through a symbolic link is not a moved one: the worktree is found
    registered (resolved paths), its uncommitted work refused as dirty, a clean one removed."""
    assert _tp(repo, "init").code == 0
    for name in ("dirty", "clean"):
        assert _tp(repo, "task", "create", name).code == 0
    link = tmp_path / "link"
    link.symlink_to(repo)
    (repo / ".taskproto" / "tasks" / "dirty" / "code" / "wip.txt").write_text("wip\n")

    refused = _tp(link, "task", "remove", "dirty")
    assert refused.code == 1, refused.out + refused.err
    assert "uncommitted changes" in refused.err
    assert "not registered" not in refused.err
    assert (repo / ".taskproto" / "tasks" / "dirty" / "code" / "wip.txt").exists()

    removed = _tp(link, "task", "remove", "clean")
    assert removed.code == 0, removed.err
    assert not (repo / ".taskproto" / "tasks" / "clean").exists()

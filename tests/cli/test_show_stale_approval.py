"""`task show` says when the commit approval no longer names the branch's head (the branch moved
after the approval), as the board, the inbox and doctor do; both the quick and the full path."""

from __future__ import annotations

from pathlib import Path

from taskproto.engine import Engine
from tests.cli.test_quick_read_path import run
from tests.conftest import commit_file
from tests.landing.conftest import approved_task


def test_show_flags_an_approval_the_branch_moved_past(engine: Engine, repo: Path) -> None:
    approved = approved_task(engine, "t", {"a.py": "a = 1\n"}, complete=False)
    shown = run(repo, "task", "show", "t", quick=False)[1]
    assert f"  commit     approved {approved[:12]}: 1 file changed" in shown  # not stale yet
    moved = commit_file(engine.config.task_worktree("t"), "b.py", "b = 1\n", "after the approval")
    full = run(repo, "task", "show", "t", quick=False)
    quick = run(repo, "task", "show", "t")
    assert quick[3] == "quick" and quick[:3] == full[:3]
    assert (
        f"  commit     approved {approved[:12]} (stale: branch t is now at {moved[:12]}): "
        "1 file changed" in full[1]
    )

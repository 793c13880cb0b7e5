"""scripts/bench_scale.py runs at a tiny size and prints every goal row of issue #44, so it does not
rot; a second run with --reuse builds nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "bench_scale.py"
TINY = ["--tasks", "12", "--big", "20", "--log", "30", "--transitions", "3", "--runs", "1"]
TINY += ["--seconds", "0.2"]
GOAL_ROWS = (
    "`task list`, 12 tasks, journals packed",
    "`task list`, 20 tasks, journals packed",
    "board `/api/tasks`, 12 tasks × 2 agents, packed",
    "quiet Stop, 12 tasks",
    "a new session's start (SessionStart), 12 tasks",
    "`doctor --json`, 20 tasks",
    "`doctor --json --full`, 20 tasks (nothing kept",
    "`transition` on a task with 30 log entries",
    "transitions/s on the Python API, a 30-entry task",
    "`.git` growth per transition, a 30-entry task, loose",
    "`.git` growth per transition, a 30-entry task, packed",
    "`task create`, no agents, 12 tasks",
)
BUILT = ("tasks-12", "tasks-12-loose", "tasks-20", "board-12x2", "log-30", "growth-30")


def bench(workdir: Path, *extra: str) -> str:
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--workdir", str(workdir), *TINY, *extra],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.slow
def test_every_goal_row_is_printed_and_reuse_builds_nothing(tmp_path: Path) -> None:
    printed = bench(tmp_path)
    table = printed.split("\n\n")[1].splitlines()
    assert table[0] == "| figure | measured | floor (same run) | × floor | goal | |"
    rows = table[2:]
    assert len(rows) == len(GOAL_ROWS), rows
    for row, title in zip(rows, GOAL_ROWS, strict=True):
        assert row.startswith(f"| {title}"), row
        assert row.endswith((" | met |", " | **NOT met** |")), row
        assert "timed out" not in row, row
    assert "healthy" in rows[5] and "not healthy" not in rows[5], rows[5]  # doctor trusts them
    assert "| cards `/api/tasks` answered | 12 |" in printed
    calls = next(line for line in printed.splitlines() if "git processes of `doctor" in line)
    assert "worktree" not in calls, calls  # the worktrees are read from git's files
    assert "| max RSS of `doctor --json`, 20 tasks (doctor or its largest git child) | " in printed
    for name in BUILT:
        assert f"| building `{name}` |" in printed

    again = bench(tmp_path, "--reuse")
    for name in BUILT:
        assert f"| building `{name}` (built by an earlier run) |" in again

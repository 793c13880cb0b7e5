"""16 processes writing the same tasks: no lost update, no torn file, linear journals.

The default run does 16 x 5 operations on one task and 16 x 5 over 5 tasks; `--slow`
does the full 16 x 200 on one task and over 50 (scripts/contention_bench.py prints
the figures for docs/reliability.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import contention
import pytest


def _assert_exact(report: contention.ContentionReport) -> None:
    summary = report.summary()
    print(json.dumps(summary, indent=2))
    assert report.failures == [], summary
    assert report.ops == report.procs * report.ops_per_proc, summary
    # every locked change reported its wait; a heartbeat of a session whose claim was taken over
    # is refused before the lock (engine/claims.py `_refuse_taken_over`), and reports none
    lockless = report.counts.get("refused:heartbeat", 0)
    assert len(report.waits) >= report.ops - 1 - lockless, summary


@pytest.mark.parametrize("tasks", [1, 5])
def test_sixteen_processes_counts_exact(tmp_path: Path, tasks: int) -> None:
    repo, names = contention.setup(tmp_path, tasks)
    _assert_exact(contention.run(repo, names, procs=16, ops_per_proc=5, seed=tasks))


@pytest.mark.slow
@pytest.mark.parametrize("tasks", [1, 50])
def test_sixteen_processes_two_hundred_ops(tmp_path: Path, tasks: int) -> None:
    repo, names = contention.setup(tmp_path, tasks)
    _assert_exact(contention.run(repo, names, procs=16, ops_per_proc=200, seed=tasks))


def test_the_checker_catches_a_lost_update(tmp_path: Path) -> None:
    """The verification can fail: an interruption written behind the lock's back is caught."""
    repo, names = contention.setup(tmp_path, 1)
    engine = contention.ops.engine_for(repo)
    base = contention._baseline(engine, names[0])
    task = engine.load(names[0])
    task.revision += 1  # a save that no worker counted
    path = engine.config.task_file(names[0])
    contention.store.atomic_write(path, contention.store.dump(task))  # behind the engine's back
    problems = contention._verify(engine, names[0], base, contention.Counter())
    assert any("lost update" in p for p in problems), problems

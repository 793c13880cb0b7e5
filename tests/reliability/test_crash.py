"""SIGKILL at random instants: the state is the one before or after the change, never torn.

The default run kills 40 writers; `--slow` kills 500 (as does scripts/crash_test.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import crash_harness
import ops
import pytest


def _assert_survived(report: crash_harness.CrashReport) -> None:
    summary = report.summary()
    print(json.dumps(summary, indent=2))
    assert report.failures == [], summary
    assert report.kills == report.outcomes.total()
    # the kills must have landed inside operations, not only between them
    assert sum(report.ops_started.values()) >= report.kills // 3, summary


def test_forty_kills_leave_a_valid_state_and_a_journal_at_most_one_ahead(tmp_path: Path) -> None:
    _assert_survived(crash_harness.run(tmp_path, kills=40, seed=7))


@pytest.mark.slow
def test_five_hundred_kills(tmp_path: Path) -> None:
    report = crash_harness.run(tmp_path, kills=500, seed=11)
    _assert_survived(report)
    # with this many kills some land between the save and the journal append
    assert report.journal_lags_repaired > 0


def test_the_checker_catches_a_torn_file(tmp_path: Path) -> None:
    """The harness can fail: a half-written task.json is reported, not accepted."""
    repo = ops.make_repo(tmp_path / "repo")
    engine = ops.engine_for(repo)
    ops.prepare_task(engine, "t")
    before = ops.snapshot(engine.config, "t")
    path = engine.config.task_file("t")
    path.write_bytes(path.read_bytes()[:200])
    problem = crash_harness._check(engine.config, "t", before, None, crash_harness.CrashReport())
    assert problem is not None and "does not load" in problem


def test_the_checker_catches_a_lost_change(tmp_path: Path) -> None:
    """A change that vanished after its "after" record is reported."""
    repo = ops.make_repo(tmp_path / "repo")
    engine = ops.engine_for(repo)
    ops.prepare_task(engine, "t")
    before = ops.snapshot(engine.config, "t")
    engine.claim("t", ops.SESSION)
    after = ops.snapshot(engine.config, "t")
    record = {"k": 0, "phase": "A", "op": "claim", "snap": after}
    engine.release("t", ops.SESSION)  # not what the record says happened last
    problem = crash_harness._check(engine.config, "t", before, record, crash_harness.CrashReport())
    assert problem is not None and "differs" in problem

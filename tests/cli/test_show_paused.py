"""`task show` says when the task's work waits for the user's `taskproto resume` (a question or
another message that is not a go paused it), as `task list`, the inbox and the board do; both the
quick and the full path. Found walking a user's day: the German question was listed as an
interruption, but nothing in `task show` said that the work stood still until the user resumed."""

from __future__ import annotations

import json
from pathlib import Path

from taskproto.engine import Engine
from tests.cli.test_quick_read_path import run, tp


def paused_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("  PAUSED")]


def test_show_says_the_work_waits_for_resume(engine: Engine, repo: Path) -> None:
    engine.create_task("t")
    tp(repo, "claim", "t", TASKPROTO_SESSION="s1")
    assert paused_lines(run(repo, "task", "show", "t")[1]) == []
    tp(
        repo,
        "interrupt",
        "record",
        "t",
        "Warum schlägt der Login-Test fehl?",
        TASKPROTO_SESSION="s1",
    )
    quick = run(repo, "task", "show", "t")
    full = run(repo, "task", "show", "t", quick=False)
    assert quick[3] == "quick" and quick[:3] == full[:3]
    assert paused_lines(full[1]) == [
        "  PAUSED     by the user's QUESTION: the work waits until `taskproto resume t`"
    ]
    assert json.loads(run(repo, "task", "show", "t", "--json")[1])["paused"] == "QUESTION"
    listed = run(repo, "task", "list")[1]
    assert "PAUSED (QUESTION) until `taskproto resume t`" in listed  # the same words
    tp(repo, "resume", "t", TASKPROTO_SESSION="s1")
    for quick_path in (True, False):
        assert paused_lines(run(repo, "task", "show", "t", quick=quick_path)[1]) == []


def test_a_go_pauses_nothing(engine: Engine, repo: Path) -> None:
    engine.create_task("t")
    tp(repo, "claim", "t", TASKPROTO_SESSION="s1")
    tp(
        repo,
        "interrupt",
        "record",
        "t",
        "了解です。作業を再開してください。",
        TASKPROTO_SESSION="s1",
    )
    assert paused_lines(run(repo, "task", "show", "t", quick=False)[1]) == []

"""A half-written agent status.json and the journal: a journal commit made while it is unreadable
(another repair, any change of the task) keeps the agent's last good status, so `doctor --fix`
restores that one, not a fresh PENDING that would forget an ERROR and its spent retries."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from tests.conftest import git

ENV = {"TASKPROTO_SESSION": "walker"}


def test_a_corrupt_status_is_restored_from_the_journal_after_other_repairs(
    cli: Any, repo: Path
) -> None:
    assert cli("task", "create", "t", "--agents", "dev", env=ENV).code == 0
    assert (
        cli("agent", "set", "t", "dev", "--status", "error", "--message", "boom", env=ENV).code == 0
    )
    folder = repo / ".taskproto" / "tasks" / "t"
    status = folder / "agents" / "dev" / "status.json"
    status.write_text('{"schema_version": 1, "agent": "d')  # a write cut short
    shutil.rmtree(folder / "code")  # and the task's worktree removed by hand: repaired first

    fixed = cli("doctor", "--fix", env=ENV)
    assert "task-worktree-missing: re-added worktree" in fixed.out
    assert "agent-status-corrupt: restored dev's status.json from journal commit" in fixed.out
    restored = json.loads(status.read_text())
    assert (restored["status"], restored["error_message"]) == ("ERROR", "boom")
    # no journal commit holds the cut-short bytes
    for sha in git(repo, "rev-list", "refs/taskproto/tasks/t").split():
        json.loads(git(repo, "show", f"{sha}:status-dev.json"))

"""An escalated task on the board: a badge on its card, the escalation in its detail, and the
user's "Resume the work", which resolves it (tests/doctor/test_escalation_waits.py: the CLI)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from taskproto.engine import Engine
from tests.conftest import run_taskproto


def test_the_board_shows_an_escalation_and_resumes_it(
    board_for: Any, engine: Engine, repo: Path
) -> None:
    engine.create_task("blocked", [])
    detail = "the staging database is down"
    reason = ("--reason", "external-dependency", "--detail", detail)
    assert run_taskproto("escalate", "blocked", *reason, cwd=repo).code == 0
    board = board_for(repo, "--no-doctor")
    (card,) = board.get("/api/tasks").json()["tasks"]
    assert card["escalations"][0]["reason"] == "external-dependency"
    assert card["waiting_for"] == "your decision (escalated)"
    assert card["actions"]["resume"] is True
    assert "escalated: external-dependency" in board.get("/").body.decode()
    page = board.get("/tasks/blocked").body.decode()
    assert detail in page and "Resume the work" in page
    assert board.post("/api/tasks/blocked/resume").status == 200
    assert engine.load("blocked").escalations == []
    assert board.post("/api/tasks/blocked/resume").status == 409  # nothing waits any more

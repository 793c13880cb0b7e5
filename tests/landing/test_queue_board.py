"""The board's read-only queue panel and `/api/queue`, from a real `taskproto board` process."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from taskproto.engine import Engine
from taskproto.ops import queue as queueing
from tests.board.conftest import board_for  # noqa: F401  (the fixture)
from tests.landing.conftest import approved_task


def test_the_board_shows_the_queue(board_for: Any, hooked: Engine, repo: Path) -> None:  # noqa: F811
    approved = approved_task(hooked, "t", {"a.py": "a = 1\n"})
    queueing.add(hooked, "t", "user")
    board = board_for(repo, "--no-doctor")
    entries = board.get("/api/queue").json()["entries"]
    assert [(e["task"], e["approved"], e["status"]) for e in entries] == [("t", approved, "queued")]
    page = board.get("/").body.decode()
    assert "Merge queue" in page and 'data-queued="t"' in page

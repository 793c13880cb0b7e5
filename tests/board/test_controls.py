"""The board as the control surface, against a real `taskproto board` process on 127.0.0.1: create,
claim and release, complete, land, remove; each refused as the CLI refuses it, each journaled as
the user's from the board; a blocked task shown as blocked; no action offered that no longer
applies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from taskproto.engine import Engine
from tests.board.scenario import build


@pytest.fixture
def scene(engine: Engine) -> dict[str, str]:
    return build(engine)


@pytest.fixture
def board(board_for: Any, repo: Path, scene: dict[str, str]) -> Any:
    return board_for(repo, "--no-doctor")


def test_an_approved_commit_is_no_longer_offered_for_approval(board: Any, engine: Engine) -> None:
    head = engine.branch_head("widget")
    assert board.get("/api/tasks/widget").json()["actions"]["approve_commit"] is True
    assert f'data-sha="{head}"' in board.get("/tasks/widget").body.decode()
    assert board.post("/api/tasks/widget/approve", {"kind": "commit", "sha": head}).status == 200
    assert board.get("/api/tasks/widget").json()["actions"]["approve_commit"] is False
    page = board.get("/tasks/widget").body.decode()
    assert 'data-kind="commit"' not in page

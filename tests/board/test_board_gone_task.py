"""The board's API and page of a task that landed here say so, as the CLI does (engine/gone.py),
instead of offering to create it; a task that never was is answered as before. A real board
process on a real repository."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from taskproto.config import load_config
from taskproto.engine import Engine
from tests.landing.conftest import SESSION, approved_task
from tests.remote.remote_servers import ok

LANDED = (
    "task 't' landed: it is no task here any more, its journal is kept "
    "(`taskproto log t` shows its history)"
)


def test_the_board_of_a_landed_task_says_it_landed(board_for: Any, repo: Path) -> None:
    approved_task(Engine(load_config(repo)), "t", {"t.py": "t = 1\n"})
    ok(repo, "land", "t", session=SESSION)
    board = board_for(repo, "--no-doctor")
    reply = board.get("/api/tasks/t")
    assert (reply.status, reply.json()) == (404, {"error": LANDED}), reply
    reply = board.post("/api/tasks/t/claim", {})
    assert (reply.status, reply.json()) == (404, {"error": LANDED}), reply
    page = board.get("/tasks/t")
    assert (page.status, page.body.decode()) == (404, f"taskproto board: {LANDED}\n"), page
    never = board.get("/api/tasks/never")
    assert never.status == 404 and "create one with" in never.json()["error"], never

"""`taskproto sync` brings the shared remote's merge queue too: the board's queue (this machine's
last view of it) does not keep showing entries another machine's worker landed. Found walking the
queue from two clones: after B's `queue run` landed A's tasks and A synced, A's board still showed
them all "queued" beside their cards in CLEANUP."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.ops import queue as queueing
from tests.board.conftest import board_for  # noqa: F401  (the fixture)
from tests.landing.conftest import approved_task
from tests.remote.remote_servers import clone, ok, seed_server


@pytest.mark.slow  # two clones, a worker and a board: ~8 s on a loaded 2-core machine
def test_sync_brings_the_queue_another_machine_worked(
    board_for: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    bare = seed_server(tmp_path)
    a, b = clone(bare.as_uri(), tmp_path / "a"), clone(bare.as_uri(), tmp_path / "b")
    engine = Engine(load_config(a))
    approved_task(engine, "t", {"t.py": "t = 1\n"})
    queueing.add(engine, "t", "user")
    assert "t: landed" in ok(b, "queue", "run", session="worker")
    assert "fetched t" in ok(a, "sync")
    board = board_for(a, "--no-doctor")
    assert board.get("/api/queue").json()["entries"] == []

"""A task another machine landed (its queue worker) is in CLEANUP here after `sync`, its branches
still here; `task remove` before this clone's base has the landing says so, and what to do:
bring the base here. Found walking a new user's day: it said "4 commit(s) ... are on no other
branch; merge them, or pass --force to delete them", though they were on the remote's main."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.ops import queue as queueing
from tests.conftest import git
from tests.landing.conftest import approved_task
from tests.remote.remote_servers import clone, ok, seed_server, tp


@pytest.mark.slow  # two clones and a queue worker: ~6 s on a loaded 2-core machine
def test_removing_a_task_landed_elsewhere_says_to_bring_the_base_here(tmp_path: Path) -> None:
    bare = seed_server(tmp_path)
    a, b = clone(bare.as_uri(), tmp_path / "a"), clone(bare.as_uri(), tmp_path / "b")
    engine = Engine(load_config(a))
    approved_task(engine, "t", {"t.py": "t = 1\n"})
    queueing.add(engine, "t", "user")
    assert "t: landed" in ok(b, "queue", "run", session="worker")
    synced = ok(a, "sync")
    assert "fetched t" in synced
    # sync fetches journals, not the base: it says what brings the landing here
    assert (
        "  t: landed on main elsewhere; `git pull origin main` brings it here, then "
        "`taskproto task remove t`" in synced
    ), synced
    refused = tp(a, "task", "remove", "t")
    assert refused.returncode == 1, refused.stdout
    assert refused.stderr.count("\n") == 1, refused.stderr
    landed = git(bare, "rev-parse", "main")
    assert f"it landed on main at {landed[:12]} (pushed to origin)" in refused.stderr
    assert "bring it here (`git pull origin main`), then remove the task" in refused.stderr
    assert (a / ".taskproto/tasks/t/code").is_dir()  # nothing removed
    # said by the sync that brings the landing; a later one has nothing new to say
    assert json.loads(ok(a, "sync", "--json"))["landed_not_here"] == {}
    # what it says works
    git(a, "pull", "--quiet", "origin", "main")
    assert "removed task t" in ok(a, "task", "remove", "t")
    assert (a / "t.py").read_text() == "t = 1\n"

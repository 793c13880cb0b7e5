"""The queue on a shared remote (a bare repository over file://, and git daemon on 127.0.0.1): a
task approved and queued on one machine is landed by a worker on another, exactly once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.ops import queue as queueing
from tests.conftest import git
from tests.landing.conftest import approved_task
from tests.remote import remote_servers
from tests.remote.remote_servers import Server, clone, ok

server = remote_servers.server  # the fixture: seeded servers over file:// and git daemon


@pytest.mark.slow  # ~15 s on a loaded 2-core machine
def test_a_worker_on_another_machine_lands_the_queue_once(server: Server, tmp_path: Path) -> None:
    url = server.make()
    a, b = clone(url, tmp_path / "a"), clone(url, tmp_path / "b")
    engine = Engine(load_config(a))
    approved = approved_task(engine, "t", {"t.py": "t = 1\n"})
    approved_task(engine, "u", {"README.md": "# u\n"})  # nothing pushed: the entries carry it
    queueing.add(engine, "t", "user")
    queueing.add(engine, "u", "user")
    # main moves on the remote (from b) where u writes too
    (b / "README.md").write_text("# main moved\n")
    git(b, "commit", "--quiet", "-am", "main moved")
    git(b, "push", "--quiet", "origin", "main")
    listed = json.loads(ok(b, "queue", "list", "--json"))
    assert [e["task"] for e in listed] == ["t", "u"]
    out = json.loads(ok(b, "queue", "run", "--json", session="worker"))
    assert [(o["task"], o["result"]) for o in out] == [("t", "landed"), ("u", "conflict")]
    assert server.bare is not None
    landed = git(server.bare, "rev-parse", "main")
    assert git(server.bare, "rev-parse", "main^2") == approved
    assert git(server.bare, "log", "--format=%H", "--grep=^Task: t$", "main").split() == [landed]
    assert json.loads(ok(a, "queue", "list", "--json")) == []
    assert ok(b, "queue", "run").strip() == "the queue has nothing to take"
    assert git(server.bare, "rev-parse", "main") == landed
    sync = json.loads(ok(a, "sync", "--json"))
    assert "u" in sync["fetched"]
    assert "README.md" in ok(a, "prompt", "u")


def test_the_queue_catches_its_base_up_by_the_rule_land_follows(tmp_path: Path) -> None:
    """The queue's base comes from engine/basebranch.catch_up, as `update`'s and `land`'s: a
    base here with commits the remote lacks is refused (the queue pushes what it lands: they
    would go along unasked), nothing changed, the entry still queued for any worker; once
    pushed, the entry lands on the remote."""
    bare = remote_servers.seed_server(tmp_path)
    a = clone(bare.as_uri(), tmp_path / "a")
    engine = Engine(load_config(a))
    approved_task(engine, "t", {"t.py": "t = 1\n"})
    queueing.add(engine, "t", "user")
    (a / "local.txt").write_text("not pushed\n")
    git(a, "add", "local.txt")
    git(a, "commit", "--quiet", "-m", "a local commit")
    here, there = git(a, "rev-parse", "main"), git(bare, "rev-parse", "main")
    r = remote_servers.tp(a, "queue", "run", session="worker")
    assert r.returncode == 1 and r.stderr.count("\n") == 1, r
    assert "main here has commits origin lacks; push them" in r.stderr
    assert (git(a, "rev-parse", "main"), git(bare, "rev-parse", "main")) == (here, there)
    # the entry is given back as it was, queued, not left taken by a worker that refused it
    listed = json.loads(ok(a, "queue", "list", "--json"))
    assert [(e["task"], e["status"], e.get("taken")) for e in listed] == [("t", "queued", None)]
    git(a, "push", "--quiet", "origin", "main")
    out = json.loads(ok(a, "queue", "run", "--json", session="worker"))
    assert [(o["task"], o["result"]) for o in out] == [("t", "landed")]
    assert git(bare, "rev-parse", "main^1") == here

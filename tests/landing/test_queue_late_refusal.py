"""A queue run refused after the landing intent was recorded, before the base moved: the entry is
given back at once, its intent cleared, so the next run takes it without waiting for the lease.
The refusal is a real one: main is checked out with an uncommitted file the landing would write."""

from __future__ import annotations

import json
from pathlib import Path

from taskproto.engine import Engine
from tests.conftest import git
from tests.landing.conftest import approved_task


def test_a_refusal_after_the_intent_gives_the_entry_back_at_once(
    hooked: Engine, repo: Path, cli
) -> None:
    approved = approved_task(hooked, "t", {"a.py": "a = 1\n"})
    assert cli("queue", "add", "t").code == 0
    before = git(repo, "rev-parse", "main")
    (repo / "a.py").write_text("mine\n")  # the user's own, uncommitted, where main is checked out

    r = cli("queue", "run", "--once")
    assert r.code == 1 and len(r.err.strip().splitlines()) == 1, r.err
    assert "refusing to land: main is checked out in" in r.err and "a.py" in r.err
    assert git(repo, "rev-parse", "main") == before  # nothing landed
    assert (repo / "a.py").read_text() == "mine\n"
    [entry] = json.loads(cli("queue", "list", "--json").out)
    assert entry["status"] == "queued" and "taken" not in entry and "intent" not in entry
    assert git(repo, "rev-parse", "refs/taskproto/queue/t^{commit}") == entry["entry"]

    # the worker (this process) is still alive and its lease is 10 minutes: the entry is free now
    (repo / "a.py").unlink()
    r = cli("queue", "run", "--once", "--json")
    assert r.code == 0, r.err
    assert [(o["task"], o["result"]) for o in json.loads(r.out)] == [("t", "landed")]
    assert git(repo, "rev-parse", "main^2") == approved
    assert cli("queue", "list").out == "the queue is empty\n"


DECLINE_MAIN = """#!/bin/sh
while read old new ref; do
  if [ "$ref" = refs/heads/main ]; then echo "main is frozen" >&2; exit 1; fi
done
exit 0
"""


def test_a_push_the_server_declines_gives_the_entry_back_at_once(tmp_path: Path, cli) -> None:
    """With a shared remote: the base's push is declined by the server's hook after the intent was
    recorded on the remote's entry; the entry there is free again at once, its intent cleared."""
    from taskproto.config import load_config
    from tests.remote.remote_servers import clone, seed_server

    bare = seed_server(tmp_path)
    a = clone(bare.as_uri(), tmp_path / "a")
    engine = Engine(load_config(a))
    approved = approved_task(engine, "t", {"t.py": "t = 1\n"})
    assert cli("queue", "add", "t", cwd=a).code == 0
    hook = bare / "hooks" / "pre-receive"
    hook.write_text(DECLINE_MAIN)
    hook.chmod(0o755)
    before = git(bare, "rev-parse", "main")

    r = cli("queue", "run", "--once", cwd=a)
    assert r.code == 1 and len(r.err.strip().splitlines()) == 1, r.err
    assert "main is frozen" in r.err or "declined" in r.err, r.err
    assert git(bare, "rev-parse", "main") == before == git(a, "rev-parse", "main")
    [entry] = json.loads(cli("queue", "list", "--json", cwd=a).out)
    assert entry["status"] == "queued" and "taken" not in entry and "intent" not in entry

    hook.unlink()
    r = cli("queue", "run", "--once", "--json", cwd=a)  # the same live worker: no lease to wait
    assert r.code == 0, r.err
    assert [(o["task"], o["result"]) for o in json.loads(r.out)] == [("t", "landed")]
    assert git(bare, "rev-parse", "main^2") == approved

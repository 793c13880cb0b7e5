"""`taskproto ready` syncs first with a shared remote; a conflict that sync reports (the remote
holds another journal of a task landed here) was hidden by `ready`, which listed the queue and
exited 0 while `sync` and `init --remote` said it and exited 1 (found by the doors helper). Now
`ready` says it in sync's words after the queue and exits 1 (its --json has `sync_conflicts`), and
MCP's `ready` returns the same lines in `sync_conflicts` (tests/mcpserver/test_remote_doors.py). A
real bare remote over file://, two clones, the CLI as a subprocess."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.remote import sync_conflicts
from tests.remote.remote_servers import tp
from tests.remote.test_landed_before_remote import _remote_journals


@pytest.fixture
def conflicted(tmp_path: Path) -> tuple[Path, Path]:
    return sync_conflicts.landed_conflict(tmp_path)


def landed_conflict(bare: Path) -> str:
    """`taskproto sync`'s words for that conflict (cli/sync.py, engine/sync.py)."""
    there = _remote_journals(bare)["refs/taskproto/tasks/t"][:12]
    return (
        f"landed here, but remote 'shared' holds another journal of that name ({there}), so its "
        "journal here was not published (a task waiting for it on another machine waits); "
        "nothing was overwritten"
    )


def test_sync_says_the_conflict_once_after_init_remote(conflicted: tuple[Path, Path]) -> None:
    a, bare = conflicted
    sync = tp(a, "sync")
    assert sync.returncode == 1
    assert f"  t: {landed_conflict(bare)}" in sync.stdout.splitlines(), sync.stdout
    assert tp(a, "sync").returncode == 0  # the remote's t adopted: nothing left to say


def test_ready_says_the_conflict_sync_says_and_exits_as_sync_does(
    conflicted: tuple[Path, Path],
) -> None:
    a, bare = conflicted
    before = _remote_journals(bare)
    ready = tp(a, "ready")
    assert ready.returncode == 1, ready.stdout
    out = ready.stdout.splitlines()
    assert out[0].startswith("t  p2  INIT"), out  # the queue still listed: the remote's t
    assert out[1:] == ["synced with shared, not all of it:", f"  t: {landed_conflict(bare)}"], out
    assert _remote_journals(bare) == before  # nothing overwritten
    # said where it happened, as sync says it once: the next ready has nothing to say
    data = json.loads(tp(a, "ready", "--json").stdout)
    assert data["sync_conflicts"] == {} and [r["name"] for r in data["ready"]] == ["t"]


def test_ready_json_carries_the_conflict(conflicted: tuple[Path, Path]) -> None:
    a, bare = conflicted
    proc = tp(a, "ready", "--json")
    assert proc.returncode == 1
    data = json.loads(proc.stdout)
    assert data["sync_conflicts"] == {"t": landed_conflict(bare)}
    assert [r["name"] for r in data["ready"]] == ["t"]

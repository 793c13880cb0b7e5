"""The reverse of the release gap: the owner released the task on the remote from another clone,
and this clone has not synced since. `release` and `claim` here said "owned by alice; wait for it
to be released", as if alice still held it, until a `sync`. Now the line says the claim may be
stale, what the remote holds, and names `taskproto sync`; an owner the remote agrees with keeps
the plain line. A real bare remote over file://, two clones, the CLI as a subprocess."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import make_repo
from tests.remote.remote_servers import ok, tp
from tests.remote.test_landed_before_remote import _second_clone, _shared

OWNED = "taskproto: task 't' is owned by session alice on "


def _two_clones(tmp_path: Path) -> tuple[Path, Path]:
    """Clone a made task t and alice claimed it; clone b synced and sees alice's claim."""
    a = make_repo(tmp_path / "a")
    ok(a, "init")
    _shared(tmp_path, a)
    ok(a, "init", "--remote", "shared")
    ok(a, "task", "create", "t")
    ok(a, "sync")
    b = _second_clone(tmp_path, tmp_path / "shared.git")
    ok(a, "claim", "t", session="alice")
    ok(b, "sync")
    return a, b


def test_a_claim_released_elsewhere_is_named_stale_with_the_sync_that_shows_it(
    tmp_path: Path,
) -> None:
    a, b = _two_clones(tmp_path)
    task_json = b / ".taskproto" / "tasks" / "t" / "task.json"
    # alice still holds it: the plain line, no word of staleness
    held = tp(b, "claim", "t", session="bob")
    assert held.returncode == 1
    assert "by session alice on " in held.stderr and "wait for it to be released" in held.stderr
    assert "stale" not in held.stderr
    held = tp(b, "release", "t", session="bob")
    assert held.returncode == 1 and held.stderr.startswith(OWNED), held.stderr
    assert "stale" not in held.stderr
    ok(a, "release", "t", session="alice")  # on the remote; b has not synced
    before = task_json.read_bytes()
    for command in ("release", "claim"):
        proc = tp(b, command, "t", session="bob")
        assert proc.returncode == 1, proc.stdout
        assert proc.stderr.count("\n") == 1, proc.stderr
        assert proc.stderr.startswith(OWNED), proc.stderr
        assert proc.stderr.endswith(
            "; that claim may be stale: remote 'shared' holds no claim on it (changed on another "
            "clone, not synced here): run `taskproto sync`, then try again\n"
        ), proc.stderr
        assert task_json.read_bytes() == before  # nothing written
    # what it says works
    ok(b, "sync")
    assert "claimed" in ok(b, "claim", "t", session="bob")


def test_a_claim_taken_by_another_session_elsewhere_names_who_holds_it(tmp_path: Path) -> None:
    a, b = _two_clones(tmp_path)
    ok(a, "release", "t", session="alice")
    ok(a, "claim", "t", session="carol")
    proc = tp(b, "release", "t", session="bob")
    assert proc.returncode == 1
    assert proc.stderr.startswith(OWNED), proc.stderr
    assert "remote 'shared' holds session carol's claim, not alice's, on it" in proc.stderr
    assert "run `taskproto sync`, then try again" in proc.stderr

"""Two clones that each made task x before either synced hold two journals of x: sync leaves both
alone and exits 1 (docs/remote.md, "diverged"). A new user's walk found `sync` saying "already up
to date" above the conflict it exited 1 for; now it says it synced "not all of it", as `ready`
does. A real bare remote over file://, two clones, the CLI as a subprocess."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import make_repo
from tests.remote.remote_servers import ok, tp
from tests.remote.test_landed_before_remote import _remote_journals, _second_clone, _shared


def diverged(tmp_path: Path) -> tuple[Path, Path]:
    """Clones a and b of one bare remote, each with its own task x; b's reached the remote."""
    a = make_repo(tmp_path / "a")
    ok(a, "init")
    bare = _shared(tmp_path, a)
    ok(a, "init", "--remote", "shared")
    b = _second_clone(tmp_path, bare)
    ok(a, "task", "create", "x")
    ok(b, "task", "create", "x")
    ok(b, "sync")
    return a, bare


def test_sync_does_not_call_a_diverged_journal_up_to_date(tmp_path: Path) -> None:
    a, bare = diverged(tmp_path)
    before = _remote_journals(bare)
    sync = tp(a, "sync")
    assert sync.returncode == 1, sync.stderr
    lines = sync.stdout.splitlines()
    assert lines[0] == "synced with shared, not all of it:", lines
    assert lines[1].startswith("  x: journal differs here and on the remote"), lines
    assert "up to date" not in sync.stdout
    assert _remote_journals(bare) == before  # nothing overwritten

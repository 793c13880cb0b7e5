"""Two clones that each made task x before either synced hold two journals of x: sync leaves both
alone and exits 1 (docs/remote.md, "diverged"). A new user's walk found `sync` saying "already up
to date" above the conflict it exited 1 for, and the conflict line sending the user to `taskproto
doctor`, which said "healthy" and nothing of x. Now sync says it synced "not all of it", as
`ready` does, and the line names the two journals to compare, by refs that exist. A real bare
remote over file://, two clones, the CLI as a subprocess."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import git
from tests.remote import sync_conflicts
from tests.remote.remote_servers import ok, tp
from tests.remote.test_landed_before_remote import _remote_journals

MINE = "refs/taskproto/tasks/x"
THEIRS = "refs/taskproto/remote/shared/tasks/x"


@pytest.fixture
def diverged(tmp_path: Path) -> tuple[Path, Path]:
    return sync_conflicts.diverged(tmp_path)


def test_sync_does_not_call_a_diverged_journal_up_to_date(diverged: tuple[Path, Path]) -> None:
    a, bare = diverged
    before = _remote_journals(bare)
    sync = tp(a, "sync")
    assert sync.returncode == 1, sync.stderr
    lines = sync.stdout.splitlines()
    assert lines[0] == "synced with shared, not all of it:", lines
    assert lines[1].startswith("  x: journal differs here and on the remote"), lines
    assert "up to date" not in sync.stdout
    assert _remote_journals(bare) == before  # nothing overwritten


def test_the_diverged_line_names_the_two_journals_not_doctor(diverged: tuple[Path, Path]) -> None:
    a, _ = diverged
    proc = tp(a, "sync", "--json")
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["diverged"] == ["x"]
    line = json.loads(tp(a, "ready", "--json").stdout)["sync_conflicts"]["x"]
    assert "doctor" not in line, line
    assert f"`git log {MINE}`" in line and f"`git log {THEIRS}`" in line, line
    # the refs it names are there, and are the two journals
    assert git(a, "rev-parse", MINE) != git(a, "rev-parse", THEIRS)
    assert "healthy" in ok(a, "doctor")  # doctor has nothing to say of it: why it is not named

"""`update` and `land --update` with a shared remote: the base that moved is the remote's (another
machine landed there, or the queue did), not only this clone's branch, which lags behind it until
a pull. Found walking a queue run on another machine as a new user: `taskproto update` answered
"already has main" to a task the queue had just sent back for a conflict with the remote's main."""

from __future__ import annotations

from pathlib import Path

import pytest

from taskproto.config import load_config
from taskproto.engine import Engine
from tests.conftest import git
from tests.landing.conftest import approved_task
from tests.remote.remote_servers import clone, seed_server, tp


def _machines(tmp_path: Path) -> tuple[Path, Path, Path]:
    bare = seed_server(tmp_path)
    return bare, clone(bare.as_uri(), tmp_path / "a"), clone(bare.as_uri(), tmp_path / "b")


def _push_main(b: Path, file: str, content: str) -> str:
    (b / file).write_text(content)
    git(b, "add", file)
    git(b, "commit", "--quiet", "-m", f"main: {file}")
    git(b, "push", "--quiet", "origin", "main")
    return git(b, "rev-parse", "HEAD")


@pytest.mark.slow  # ~2 s alone, ~6 s on a loaded 2-core machine (two clones, a task approved)
def test_update_brings_in_the_remotes_base_and_its_conflict(tmp_path: Path) -> None:
    _, a, b = _machines(tmp_path)
    approved_task(Engine(load_config(a)), "u", {"app.py": "x = 1\n"})
    moved = _push_main(b, "app.py", "x = 2\n")  # another machine's landing on the remote's main
    proc = tp(a, "update", "u", session="user")
    assert proc.returncode == 1, proc.stdout
    assert "conflicts in app.py" in proc.stderr
    assert proc.stderr.count("\n") == 1
    assert git(a, "rev-parse", "main") == moved  # this clone's main caught up (a fast-forward)


@pytest.mark.slow  # ~2 s alone, ~6 s on a loaded 2-core machine
def test_land_update_lands_on_the_remotes_moved_base(tmp_path: Path) -> None:
    bare, a, b = _machines(tmp_path)
    approved = approved_task(Engine(load_config(a)), "u", {"u.py": "u = 1\n"})
    moved = _push_main(b, "other.py", "o = 1\n")
    proc = tp(a, "land", "u", "--update", session="user")
    assert proc.returncode == 0, proc.stderr
    landed = git(bare, "rev-parse", "main")
    assert git(bare, "rev-parse", "main^1") == moved
    assert git(bare, "ls-tree", "--name-only", "main", "u.py", "other.py").split() == [
        "other.py",
        "u.py",
    ]
    assert git(a, "rev-parse", "main") == landed
    assert git(bare, "merge-base", "--is-ancestor", approved, "main") == ""

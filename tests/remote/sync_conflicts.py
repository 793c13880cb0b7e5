"""The two clones whose sync leaves a conflict, made once for the tests that read it: a task
landed here before the remote was on while the other clone made another task of that name there
(`landed_conflict`), and a task each clone made before either synced (`diverged`). A real bare
remote over file://, the CLI as a subprocess."""

from __future__ import annotations

from pathlib import Path

from taskproto.config import load_config
from taskproto.engine import Engine
from tests.conftest import make_repo
from tests.landing.conftest import SESSION, approved_task
from tests.remote.remote_servers import ok, tp
from tests.remote.test_landed_before_remote import _second_clone, _shared


def _other_made(tmp_path: Path, a: Path, name: str) -> tuple[Path, Path]:
    """The bare remote `shared` of clone `a`, and clone b of it, where task `name` was made and
    synced."""
    bare = _shared(tmp_path, a)
    b = _second_clone(tmp_path, bare)
    ok(b, "task", "create", name)
    ok(b, "sync")
    return b, bare


def landed_conflict(tmp_path: Path) -> tuple[Path, Path]:
    """Clone `a` landed task t before its remote was on; clone b made another t there first; `a`'s
    `init --remote` said the conflict (exit 1). Returns `a` and the bare remote."""
    a = make_repo(tmp_path / "a")
    ok(a, "init")
    approved_task(Engine(load_config(a)), "t", {"t.py": "t = 1\n"})
    ok(a, "land", "t", session=SESSION)
    _, bare = _other_made(tmp_path, a, "t")
    assert tp(a, "init", "--remote", "shared").returncode == 1
    return a, bare


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

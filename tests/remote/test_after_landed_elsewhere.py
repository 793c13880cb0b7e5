"""`task create --after X` (and `dep add`) where X landed on another clone, known here only through
the shared remote's journals (synced: its journal archived here): X counts as here, as an import
counts it (ops/importing.py), and its landing meets the dependency, so the new task is accepted and
ready. One removed elsewhere unfinished is refused with the line every door says for a gone task
(engine/gone.py), not "removed here". Two clones and a bare remote on disk, the CLI as a
subprocess."""

from __future__ import annotations

import json
from pathlib import Path

from taskproto.config import load_config
from taskproto.engine import Engine
from tests.conftest import git
from tests.landing.conftest import SESSION, approved_task
from tests.remote.remote_servers import clone, ok, seed_server, tp


def test_a_task_may_wait_for_one_landed_elsewhere_not_for_one_removed_unfinished(
    tmp_path: Path,
) -> None:
    bare = seed_server(tmp_path)
    a, b = clone(bare.as_uri(), tmp_path / "a"), clone(bare.as_uri(), tmp_path / "b")
    approved_task(Engine(load_config(a)), "t", {"t.py": "t = 1\n"})
    ok(a, "task", "create", "gone")
    ok(a, "sync")
    ok(a, "land", "t", session=SESSION)
    ok(a, "task", "remove", "gone")
    ok(a, "sync")
    synced = ok(b, "sync")
    assert "landed elsewhere (kept in its log) t" in synced, synced
    assert not (b / ".taskproto/tasks/t").exists()  # known here only through its journal

    made = tp(b, "task", "create", "u", "--after", "t")
    assert made.returncode == 0, made.stderr
    assert made.stdout.startswith("created task u ") and made.stdout.endswith(", after t\n")
    ready = json.loads(ok(b, "ready", "--json"))
    assert "u" in [r["name"] for r in ready["ready"]], ready  # the landing met it
    ok(b, "task", "create", "v")
    ok(b, "dep", "add", "v", "--on", "t")
    assert json.loads(ok(b, "task", "show", "v", "--json"))["depends_on"] == ["t"]

    refs = git(b, "for-each-ref", "--format=%(refname) %(objectname)", "refs/taskproto/")
    for args in (("task", "create", "w", "--after", "gone"), ("dep", "add", "v", "--on", "gone")):
        r = tp(b, *args)
        assert (r.returncode, r.stdout) == (1, ""), r
        assert r.stderr == (
            "taskproto: task 'gone' was removed: it is no task here any more, its journal is kept "
            "(`taskproto log gone` shows its history); it ended unfinished, so a task waiting for "
            "it would wait forever: leave it out\n"
        ), r.stderr
    assert not (b / ".taskproto/tasks/w").exists()
    assert git(b, "for-each-ref", "--format=%(refname) %(objectname)", "refs/taskproto/") == refs

"""Tasks landed before `init --remote`: their journals were archived here and never pushed, so a
task on another clone waiting for them waited forever ("not on this machine"). `init --remote`
(and a later `sync`) publish a landed archive the remote lacks, expecting the ref absent (or at
the older head it has), and the other clones' sync keeps it as "landed elsewhere". Found on a new
user's walk. A real bare remote over file://, two clones, the CLI as a subprocess."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taskproto.config import load_config
from taskproto.engine import Engine
from tests.conftest import git, make_repo
from tests.landing.conftest import SESSION, approved_task
from tests.remote.remote_servers import ok, tp

# whole landings on two clones of a shared remote: heavy (docs/testing.md), run by CI
pytestmark = pytest.mark.heavy

CALC = ("calc-add", "calc-sub", "calc-mul", "calc-div")


def _landed_here(a: Path, names: tuple[str, ...]) -> None:
    """Tasks `names` approved, `docs-calc` made to wait for two of them, then each landed."""
    engine = Engine(load_config(a))
    for name in names:
        approved_task(engine, name, {f"{name}.py": f"{name.replace('-', '_')} = 1\n"})
    ok(a, "task", "create", "docs-calc", "--after", "calc-mul", "--after", "calc-div")
    for name in names:
        ok(a, "land", name, session=SESSION)
        assert git(a, "for-each-ref", f"refs/taskproto/archive/{name}/"), name


def _shared(tmp_path: Path, a: Path) -> Path:
    """A bare repository `shared` that `a`'s main is pushed to (docs/remote.md)."""
    bare = tmp_path / "shared.git"
    git(tmp_path, "init", "-q", "--bare", "--initial-branch=main", str(bare))
    git(a, "remote", "add", "shared", bare.as_uri())
    git(a, "push", "-q", "shared", "main")
    return bare


def _second_clone(tmp_path: Path, bare: Path) -> Path:
    b = tmp_path / "b"
    git(tmp_path, "clone", "-q", "-o", "shared", bare.as_uri(), str(b))
    git(b, "config", "commit.gpgsign", "false")
    ok(b, "init", "--remote", "shared")
    return b


def _remote_journals(bare: Path) -> dict[str, str]:
    out = git(bare, "for-each-ref", "--format=%(refname) %(objectname)", "refs/taskproto/")
    return dict(line.split(" ", 1) for line in out.splitlines())


def test_tasks_landed_before_init_remote_reach_the_other_clone(tmp_path: Path) -> None:
    a = make_repo(tmp_path / "a")
    ok(a, "init")
    _landed_here(a, CALC)
    ok(a, "task", "create", "scratch")
    ok(a, "task", "remove", "scratch")  # removed, not landed: it stays removed, here only
    bare = _shared(tmp_path, a)
    out = ok(a, "init", "--remote", "shared")
    assert f"landed tasks published on shared: {', '.join(sorted(CALC))}" in out, out
    archived = {
        n: git(a, "for-each-ref", "--format=%(objectname)", f"refs/taskproto/archive/{n}/")
        for n in CALC
    }
    assert _remote_journals(bare) == {f"refs/taskproto/tasks/{n}": archived[n] for n in CALC}
    git(a, "add", ".taskproto.toml")
    git(a, "commit", "-q", "-m", "share tasks")
    git(a, "push", "-q", "shared", "main")
    ok(a, "sync")
    assert "docs-calc" in ok(a, "ready")

    b = _second_clone(tmp_path, bare)
    synced = json.loads(ok(b, "sync", "--json"))
    assert sorted(synced["landed_elsewhere"]) == sorted(CALC), synced
    assert synced["adopted"] == ["docs-calc"], synced
    ready = json.loads(ok(b, "ready", "--json"))
    assert [t["name"] for t in ready["ready"]] == ["docs-calc"], ready
    log = ok(b, "log", "calc-mul")
    assert "CLEANUP" in log, log
    assert tp(b, "log", "scratch").returncode == 1  # never on this machine, nor on the remote
    # `task show` says of it what it says on the machine that landed it
    shown, there = tp(b, "task", "show", "calc-mul"), tp(a, "task", "show", "calc-mul")
    assert (shown.returncode, shown.stdout, shown.stderr) == (
        there.returncode,
        there.stdout,
        there.stderr,
    )

    # again: nothing more to publish or fetch, nothing changed on the remote
    before = _remote_journals(bare)
    again = ok(a, "init", "--remote", "shared")
    assert "landed tasks published" not in again, again
    assert "already up to date" in ok(a, "sync")
    assert "already up to date" in ok(b, "sync")
    assert _remote_journals(bare) == before


def test_a_remote_holding_another_journal_of_that_name_is_a_conflict(tmp_path: Path) -> None:
    a = make_repo(tmp_path / "a")
    ok(a, "init")
    engine = Engine(load_config(a))
    approved_task(engine, "t", {"t.py": "t = 1\n"})
    ok(a, "land", "t", session=SESSION)
    bare = _shared(tmp_path, a)
    b = _second_clone(tmp_path, bare)
    ok(b, "task", "create", "t")  # another task of that name, on the remote first
    ok(b, "sync")
    before = _remote_journals(bare)

    for _ in range(2):  # and again: the same line, still nothing overwritten
        r = tp(a, "init", "--remote", "shared")
        assert r.returncode == 1, r.stdout
        theirs = before["refs/taskproto/tasks/t"]
        assert r.stderr == (
            f"taskproto: t: landed here, but remote 'shared' holds another journal of that name "
            f"({theirs[:12]}), so its journal here was not published (a task waiting for it on "
            "another machine waits); nothing was overwritten\n"
        ), r.stderr
        assert _remote_journals(bare) == before
    assert "tasks are shared through shared" in r.stdout  # the setting was written all the same
    # sync says it too, once: it then takes the remote's task of that name as any other's
    r = tp(a, "sync")
    assert r.returncode == 1, r.stderr
    assert "  t: landed here, but remote 'shared' holds another journal of that name" in r.stdout
    assert "new here t" in r.stdout, r.stdout
    assert _remote_journals(bare) == before
    assert "already up to date" in ok(a, "sync")


def test_sync_publishes_a_task_landed_while_the_remote_was_off(tmp_path: Path) -> None:
    """The remote holds an older head of the journal (synced before the remote was turned off):
    sync fast-forwards it to the landed head, and the other clone sees it landed."""
    from tests.conftest import commit_file
    from tests.hooks.agents.conftest import move_to

    a = make_repo(tmp_path / "a")
    ok(a, "init")
    bare = _shared(tmp_path, a)
    ok(a, "init", "--remote", "shared")
    settings = (a / ".taskproto.toml").read_text()
    ok(a, "task", "create", "v")
    ok(a, "task", "create", "w", "--after", "v")
    ok(a, "sync")
    older = _remote_journals(bare)["refs/taskproto/tasks/v"]
    b = _second_clone(tmp_path, bare)
    ok(b, "sync")

    (a / ".taskproto.toml").unlink()  # the remote off: v done and landed here only
    engine = Engine(load_config(a))
    engine.claim("v", SESSION)
    move_to(engine, "v", "IMPLEMENTATION")
    commit_file(engine.config.task_worktree("v"), "v.py", "v = 1\n", "v: v.py")
    move_to(engine, "v", "AWAITING_USER_APPROVAL")
    engine.approve("v", "commit", "user")
    engine.fire("v", target="COMPLETE", session=SESSION)
    ok(a, "land", "v", session=SESSION)
    landed = git(a, "for-each-ref", "--format=%(objectname)", "refs/taskproto/archive/v/")
    assert _remote_journals(bare)["refs/taskproto/tasks/v"] == older

    (a / ".taskproto.toml").write_text(settings)
    synced = json.loads(ok(a, "sync", "--json"))
    assert _remote_journals(bare)["refs/taskproto/tasks/v"] == landed
    assert synced["landed_published"] == ["v"], synced
    assert json.loads(ok(a, "sync", "--json"))["landed_published"] == []

    assert json.loads(ok(b, "sync", "--json"))["landed_elsewhere"] == ["v"]
    ready = json.loads(ok(b, "ready", "--json"))
    assert [t["name"] for t in ready["ready"]] == ["w"], ready


def test_init_remote_that_cannot_be_reached_leaves_the_landed_journals_to_the_next_sync(
    tmp_path: Path,
) -> None:
    a = make_repo(tmp_path / "a")
    ok(a, "init")
    approved_task(Engine(load_config(a)), "t", {"t.py": "t = 1\n"})
    ok(a, "land", "t", session=SESSION)
    bare = tmp_path / "shared.git"  # not made yet: unreachable
    git(a, "remote", "add", "shared", bare.as_uri())
    r = tp(a, "init", "--remote", "shared")
    assert r.returncode == 0, r.stderr
    err = r.stderr.splitlines()
    assert len(err) == 1, r.stderr
    assert err[0].startswith(
        "taskproto: the journals of the tasks landed here are not on shared yet ("
    ), r.stderr
    assert err[0].endswith("); the next `taskproto sync` publishes them"), r.stderr
    assert "landed tasks published" not in r.stdout
    git(tmp_path, "init", "-q", "--bare", "--initial-branch=main", str(bare))
    git(a, "push", "-q", "shared", "main")
    ok(a, "sync")
    assert "refs/taskproto/tasks/t" in _remote_journals(bare)

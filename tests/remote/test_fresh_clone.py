"""A fresh clone of a repository whose origin holds the tasks: what the clone's user sees, and the
one command that turns sharing on. Real clones of a bare repository over file://."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import commit_file, git, git_recorder, make_repo, run_taskproto

# a shared remote and its fresh clones: heavy (docs/testing.md), run by CI
pytestmark = pytest.mark.heavy

SESSION = {"TASKPROTO_SESSION": "alice"}


@pytest.fixture
def origin(tmp_path: Path) -> Path:
    """A bare origin holding task fix-login's journal and its pushed branch; the first clone's
    `.taskproto.toml` (remote = "origin") was never committed."""
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "--initial-branch=main", str(bare))
    first = make_repo(tmp_path / "first")
    git(first, "remote", "add", "origin", f"file://{bare}")
    git(first, "push", "-q", "origin", "main")
    (first / ".taskproto.toml").write_text('remote = "origin"\n')
    for args in (("init",), ("task", "create", "fix-login", "--agents", "dev"), ("sync",)):
        r = run_taskproto(*args, cwd=first, env=SESSION)
        assert r.code == 0, r.err
    git(first, "push", "-q", "origin", "fix-login")  # pushed for review, as people do
    return bare


def clone(origin: Path, where: Path) -> Path:
    git(where.parent, "clone", "-q", f"file://{origin}", str(where))
    return where


def test_the_clone_is_told_how_to_fetch_and_share_the_tasks(origin: Path, tmp_path: Path) -> None:
    b = clone(origin, tmp_path / "b")
    r = run_taskproto("task", "list", cwd=b)
    assert r.code == 0 and "no tasks" in r.out and "`taskproto sync`" in r.out
    r = run_taskproto("sync", cwd=b)
    assert r.code == 1 and len(r.err.strip().splitlines()) == 1
    assert "origin holds 1 task journal(s)" in r.err
    assert "`taskproto init --remote origin`" in r.err
    assert not (b / ".taskproto.toml").exists()
    r = run_taskproto("init", "--remote", "origin", "--json", cwd=b)
    assert r.code == 0, r.err
    assert json.loads(r.out)["remote"] == {
        "name": "origin",
        "written": str(b / ".taskproto.toml"),
        "claims": {"published": [], "conflicts": {}, "pending": [], "unreachable": None},
        "landed": {"published": [], "conflicts": {}, "unreachable": None},
    }
    assert (b / ".taskproto.toml").read_text() == 'remote = "origin"\n'
    r = run_taskproto("sync", cwd=b)
    assert r.code == 0 and "new here fix-login" in r.out, r.err
    r = run_taskproto("task", "list", "--json", cwd=b)
    assert [t["name"] for t in json.loads(r.out)] == ["fix-login"]
    # a second init --remote changes nothing
    r = run_taskproto("init", "--remote", "origin", "--json", cwd=b)
    assert r.code == 0 and json.loads(r.out)["remote"]["written"] is None
    # and says so, without telling the user to commit a file it did not write
    r = run_taskproto("init", "--remote", "origin", cwd=b)
    assert r.code == 0, r.err
    assert (
        "tasks are shared through origin (already set in the settings); run `taskproto sync`"
        in r.out
    )
    assert "commit the settings file" not in r.out and "(the settings (already set))" not in r.out


def test_creating_a_task_beside_the_old_work_is_refused(origin: Path, tmp_path: Path) -> None:
    b = clone(origin, tmp_path / "b")
    r = run_taskproto("task", "create", "fix-login", cwd=b)
    assert r.code == 1 and len(r.err.strip().splitlines()) == 1
    assert "branch origin/fix-login already holds work named 'fix-login'" in r.err
    assert "taskproto sync" in r.err
    assert git(b, "branch", "--list", "fix-login") == ""
    assert not (b / ".taskproto" / "tasks" / "fix-login").exists()
    # an agent branch of that name counts too; another name goes through
    r = run_taskproto("task", "create", "fix", "--agents", "login", cwd=b)
    assert r.code == 1 and "origin/fix-login" in r.err
    r = run_taskproto("task", "create", "fix-logout", cwd=b)
    assert r.code == 0, r.err


def test_a_clone_with_no_shared_remote_is_told_how_to_share(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "solo")
    r = run_taskproto("sync", cwd=repo)
    assert r.code == 1 and "`taskproto init --remote origin`" in r.err


def test_init_remote_edits_the_settings_file_it_finds(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    git(repo, "remote", "add", "origin", str(tmp_path / "nowhere.git"))
    settings = repo / ".taskproto.toml"
    settings.write_text('# ours\nlease_minutes = 5\n\n[workflows.mini]\ninitial = "A"\n')
    r = run_taskproto("init", "--remote", "origin", cwd=repo)
    assert r.code == 0, r.err
    assert settings.read_text() == (
        'remote = "origin"\n# ours\nlease_minutes = 5\n\n[workflows.mini]\ninitial = "A"\n'
    )
    settings.write_text('remote = "old"\nlease_minutes = 5\n')
    r = run_taskproto("init", "--remote", "origin", cwd=repo)
    assert r.code == 0, r.err
    assert settings.read_text() == 'remote = "origin"\nlease_minutes = 5\n'
    before = settings.read_bytes()
    r = run_taskproto("init", "--remote", "upstream", cwd=repo)
    assert r.code == 1 and "no remote named 'upstream'" in r.err
    assert settings.read_bytes() == before
    settings.unlink()
    (repo / "pyproject.toml").write_text("[tool.taskproto]\nlease_minutes = 5\n")
    r = run_taskproto("init", "--remote", "origin", cwd=repo)
    assert r.code == 1 and "[tool.taskproto]" in r.err and 'remote = "origin"' in r.err
    assert not settings.exists()


def test_doctor_in_the_clone_finds_nothing_wrong_with_a_task_not_claimed_here(
    origin: Path, tmp_path: Path
) -> None:
    """A task from the remote has no branches here until a session here claims it (docs/remote.md):
    doctor reports no missing branch, and --fix makes none at the base, which the claim would then
    have used instead of origin's work."""
    b = clone(origin, tmp_path / "b")
    for args in (("init", "--remote", "origin"), ("sync",)):
        assert run_taskproto(*args, cwd=b).code == 0
    r = run_taskproto("doctor", "--fix", "--json", cwd=b)
    assert r.code == 0, r.out + r.err
    assert json.loads(r.out)["findings"] == []
    assert git(b, "branch", "--list", "fix-login*") == ""
    r = run_taskproto("claim", "fix-login", cwd=b, env={"TASKPROTO_SESSION": "bob"})
    assert r.code == 0, r.err
    pushed = git(b, "rev-parse", "origin/fix-login")
    assert git(b, "rev-parse", "fix-login") == pushed


def test_a_working_repository_is_not_offered_as_the_shared_remote(tmp_path: Path) -> None:
    """A clone of a repository where tasks are worked on: pushing journals into it would leave its
    task.json files behind (its commands then refuse those tasks), so sharing through it is refused
    and the message says what to share through instead."""
    first = make_repo(tmp_path / "first")
    for args in (("init",), ("task", "create", "fix-login")):
        assert run_taskproto(*args, cwd=first).code == 0
    b = clone(first, tmp_path / "b")
    for args in (("sync",), ("init", "--remote", "origin")):
        r = run_taskproto(*args, cwd=b)
        assert r.code == 1 and len(r.err.strip().splitlines()) == 1, r.err
        assert f"origin is the working repository {first.resolve()}" in r.err
        assert "a bare repository" in r.err and "docs/remote.md" in r.err
        assert "init --remote origin" not in r.err
    assert not (b / ".taskproto.toml").exists()


def test_a_task_landed_on_another_machine_is_not_stale_here(
    origin: Path, tmp_path: Path, cli: Any
) -> None:
    """The machine that made the task never had its work: after sync its branch is still at the
    task's base, behind the commit the other machine approved and landed. That approval is not
    stale here (doctor --fix would write a change into a landed task's journal). A clone that never
    had the task does not make it a task at all."""
    first = tmp_path / "first"
    b = clone(origin, tmp_path / "b")
    c = clone(origin, tmp_path / "c")  # before the landing: its main does not have it
    bob = {"TASKPROTO_SESSION": "bob"}
    for args in (
        ("init", "--remote", "origin"),
        ("sync",),
        ("claim", "fix-login"),
        ("next", "fix-login", "--to", "SYNTHESIS"),
        ("approve", "fix-login", "--plan"),
        ("next", "fix-login"),
    ):
        r = cli(*args, cwd=b, env=bob)
        assert r.code == 0, (args, r.err)
    commit_file(b / ".taskproto" / "tasks" / "fix-login" / "agents" / "dev" / "code", "login.py")
    for args in (
        ("agent", "set", "fix-login", "dev", "--status", "COMPLETE"),
        ("merge", "fix-login"),
        ("next", "fix-login", "--to", "AWAITING_USER_APPROVAL"),
        ("approve", "fix-login", "--commit"),
        ("next", "fix-login"),
        ("task", "create", "add-tests", "--after", "fix-login"),
        ("land", "fix-login"),
        ("sync",),
    ):
        r = cli(*args, cwd=b, env=bob)
        assert r.code == 0, (args, r.err)
    assert cli("sync", cwd=first, env=SESSION).code == 0
    r = cli("doctor", "--json", cwd=first, env=SESSION)
    assert r.code == 0, r.out
    assert json.loads(r.out)["findings"] == []
    # A clone that never had the task: it is done, so sync keeps its journal as a removed task's
    # (its log readable, a task waiting for it ready) and makes no task of it, which would sit in
    # CLEANUP in every such clone until removed by hand.
    carol = {"TASKPROTO_SESSION": "carol"}
    assert cli("init", "--remote", "origin", cwd=c, env=carol).code == 0
    r = cli("sync", "--json", cwd=c, env=carol)
    assert r.code == 0, r.err
    report = json.loads(r.out)
    assert report["adopted"] == ["add-tests"] and report["landed_elsewhere"] == ["fix-login"]
    r = cli("task", "list", "--json", cwd=c, env=carol)
    assert [t["name"] for t in json.loads(r.out)] == ["add-tests"]
    assert not (c / ".taskproto" / "tasks" / "fix-login").exists()
    r = cli("log", "fix-login", cwd=c, env=carol)
    assert r.code == 0 and "CLEANUP" in r.out, r.err
    r = cli("ready", "--json", cwd=c, env=carol)
    assert r.code == 0 and "add-tests" in r.out, r.out
    # and the task that waited for it starts from its code: the shared remote's main, which this
    # clone's main was behind (it started from its own stale main, without login.py)
    r = cli("claim", "add-tests", cwd=c, env=carol)
    assert r.code == 0, r.err
    assert (c / ".taskproto" / "tasks" / "add-tests" / "code" / "login.py").is_file(), r.out + r.err
    assert git(c, "rev-parse", "main") == git(b, "rev-parse", "main")
    r = cli("sync", cwd=c, env=carol)
    assert r.code == 0 and "already up to date" in r.out, r.out
    r = cli("doctor", "--json", cwd=c, env=carol)
    assert "remote-tasks-unknown" not in r.out, r.out


def test_sync_adopts_many_tasks_with_a_constant_number_of_git_processes(
    origin: Path, tmp_path: Path
) -> None:
    """A sync of 1,000 tasks started a `git update-ref` per task pushed and a `git rev-list` per
    task adopted (35 s each on a busy machine): the tracking refs move in-process, the journal
    heads are read through the one `cat-file` process."""
    first = tmp_path / "first"
    for name in ("a", "b", "c"):
        assert run_taskproto("task", "create", name, cwd=first).code == 0
    pushed, adopted = tmp_path / "pushed.log", tmp_path / "adopted.log"
    r = run_taskproto("sync", cwd=first, env=git_recorder(tmp_path / "shim", pushed))
    assert r.code == 0 and "pushed a, b, c" in r.out, r.out + r.err
    b = clone(origin, tmp_path / "b")
    assert run_taskproto("init", "--remote", "origin", cwd=b).code == 0
    r = run_taskproto("sync", cwd=b, env=git_recorder(tmp_path / "shim", adopted))
    assert r.code == 0 and "new here a, b, c, fix-login" in r.out, r.out + r.err
    for log in (pushed, adopted):
        calls = log.read_text().splitlines()
        assert not [c for c in calls if c.startswith(("rev-list", "update-ref"))], calls
        assert len(calls) <= 8, calls
    assert git(first, "rev-parse", "refs/taskproto/remote/origin/tasks/a") == git(
        first, "rev-parse", "refs/taskproto/tasks/a"
    )

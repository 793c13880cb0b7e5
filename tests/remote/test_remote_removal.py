"""A task removed on one machine stays removed on the others: `task remove` publishes the removal
on the shared remote (refs/taskproto/removed/<task>), and a sync that finds it archives the task
instead of adopting it (docs/remote.md, "Removed tasks"). Real clones of a real bare remote."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from remote_servers import Server, clone, git, ok, race, tp

# real git servers on 127.0.0.1 and racing processes: heavy (docs/testing.md), run by CI
pytestmark = pytest.mark.heavy


@pytest.fixture(params=["file", pytest.param("daemon", marks=pytest.mark.slow)])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """A seeded server over file:// (and, with --slow, git daemon on 127.0.0.1), stopped after."""
    srv = Server(request.param, tmp_path)
    yield srv
    srv.stop()


# One racer: sync, say it is ready, wait for the go file, then remove the task or fire classify.
RACER = r"""
import json, sys, time
from pathlib import Path
from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.errors import TaskprotoError
task, session, gate = sys.argv[1], sys.argv[2], Path(sys.argv[3])
action = session  # each racer's session is named for what it does
engine = Engine(load_config(Path.cwd()))
engine.sync()
(gate / f"ready-{session}").touch()
while not (gate / "go").exists():
    time.sleep(0.001)
try:
    if action == "remove":
        engine.remove_task(task, session=session)
    else:
        engine.fire(task, trigger="classify", session=session)
    out = {"ok": True}
except TaskprotoError as exc:
    out = {"ok": False, "error": str(exc)}
print(json.dumps(out))
"""


def remote_refs(bare: Path) -> dict[str, str]:
    out = git(bare, "for-each-ref", "--format=%(refname) %(objectname)", "refs/taskproto/")
    return dict(line.split(" ") for line in out.splitlines() if line)


def two_machines(url: str, base: Path, *tasks: str) -> tuple[Path, Path]:
    """Machine A with `tasks` on the remote; machine B synced (it has them)."""
    a, b = clone(url, base / "a"), clone(url, base / "b")
    for task in tasks:
        ok(a, "task", "create", task)
    ok(a, "sync")
    assert json.loads(ok(b, "sync", "--json"))["adopted"] == list(tasks)
    return a, b


def test_a_task_removed_on_one_machine_is_not_adopted_by_a_new_clone(
    server: Server, tmp_path: Path
) -> None:
    url = server.make()
    a = clone(url, tmp_path / "a")
    ok(a, "task", "create", "t1")
    ok(a, "task", "create", "t2", "--after", "t1")
    ok(a, "sync")
    head = git(a, "rev-parse", "refs/taskproto/tasks/t1")
    out = ok(a, "task", "remove", "t1", session="alice")
    assert "not told" not in out
    assert server.bare is not None
    refs = remote_refs(server.bare)
    assert "refs/taskproto/tasks/t1" not in refs  # the remote's journal moved under the marker
    marker = refs["refs/taskproto/removed/t1"]
    assert git(server.bare, "rev-parse", f"{marker}^") == head  # its history is kept
    record = json.loads(git(server.bare, "show", f"{marker}:removed.json"))
    assert record["session"] == "alice" and record["journal"] == head and record["host"]
    # a clone made afterwards: its first sync does not bring the removed task back
    c = clone(url, tmp_path / "c")
    out = json.loads(ok(c, "sync", "--json"))
    assert out["adopted"] == ["t2"] and out["removed_elsewhere"] == ["t1"]
    assert not (c / ".taskproto/tasks/t1").exists()
    assert "create" in ok(c, "log", "t1")  # its journal is kept here, readable
    assert "remote-tasks-unknown" not in tp(c, "doctor").stdout
    # t2, which waits for it, waits here as it does on the machine that removed it
    waiting = [json.loads(ok(m, "ready", "--local", "--json")) for m in (a, c)]
    assert waiting[0] == waiting[1] and waiting[0]["ready"] == []
    assert ok(c, "sync") == "synced with origin: already up to date\n"  # left alone from now on


def test_a_machine_that_had_the_task_removes_it_too_when_it_holds_no_work(
    tmp_path: Path,
) -> None:
    url = Server("file", tmp_path).make()
    a, b = two_machines(url, tmp_path, "t1")
    ok(a, "fire", "t1", "classify")  # a change B has not seen: B's archive gets it too
    ok(a, "task", "remove", "t1")
    out = ok(b, "sync")
    assert out == "synced with origin: removed elsewhere (kept in its log) t1\n"
    assert not (b / ".taskproto/tasks/t1").exists()
    assert git(b, "for-each-ref", "refs/taskproto/tasks/t1") == ""
    assert "classify" in ok(b, "log", "t1")


def test_a_machine_whose_copy_holds_work_keeps_it_until_it_removes_it(tmp_path: Path) -> None:
    url = Server("file", tmp_path).make()
    a, b = two_machines(url, tmp_path, "t1")
    ok(b, "claim", "t1", session="bob")  # makes its worktree here
    ok(b, "release", "t1", session="bob")
    work = b / ".taskproto/tasks/t1/code/notes.txt"
    work.write_text("unsaved work\n")
    ok(a, "sync")
    ok(a, "task", "remove", "t1", session="alice")
    out = json.loads(ok(b, "sync", "--json"))
    assert out["removed_elsewhere"] == [] and list(out["kept_here"]) == ["t1"]
    assert "refusing to remove task 't1'" in out["kept_here"]["t1"]
    assert work.read_text() == "unsaved work\n"  # nothing deleted
    assert server_has_no_journal(url, "t1")  # and B's copy was not pushed back
    # a change of the kept copy is refused: it was removed on the remote
    proc = tp(b, "fire", "t1", "classify")
    assert proc.returncode == 1 and len(proc.stderr.strip().splitlines()) == 1
    assert "was removed on remote 'origin' by session alice on " in proc.stderr
    assert "then `taskproto task remove t1` (--force drops it)" in proc.stderr
    # the user saves the work and removes it here, by hand
    ok(b, "task", "remove", "t1", "--force")
    assert not (b / ".taskproto/tasks/t1").exists()
    assert server_has_no_journal(url, "t1")


def server_has_no_journal(url: str, task: str) -> bool:
    proc = subprocess.run(
        ["git", "ls-remote", url, f"refs/taskproto/tasks/{task}"],
        capture_output=True,
        text=True,
        check=True,
    )
    return proc.stdout.strip() == ""


def test_a_removal_made_offline_is_published_by_the_next_sync(tmp_path: Path) -> None:
    srv = Server("file", tmp_path)
    url = srv.make()
    a = clone(url, tmp_path / "a")
    ok(a, "task", "create", "t1")
    ok(a, "sync")
    git(a, "remote", "set-url", "origin", srv.unreachable)
    proc = tp(a, "task", "remove", "t1", "--json")
    assert proc.returncode == 0, proc.stderr
    pending = json.loads(proc.stdout)["remote_pending"]
    assert "was not told" in pending and "next `taskproto sync`" in pending
    assert not (a / ".taskproto/tasks/t1").exists()
    assert not server_has_no_journal(url, "t1")  # nothing lost meanwhile: the remote still has it
    git(a, "remote", "set-url", "origin", url)
    out = json.loads(ok(a, "sync", "--json"))
    assert out["removed_here"] == out["removal_published"] == ["t1"] and out["rejected"] == {}
    assert server_has_no_journal(url, "t1")
    assert not (a / ".taskproto" / "removals-pending" / "t1").exists()  # told: no longer pending
    c = clone(url, tmp_path / "c")
    out = json.loads(ok(c, "sync", "--json"))
    assert out["adopted"] == [] and out["removed_elsewhere"] == ["t1"]
    assert ok(a, "sync") == "synced with origin: already up to date\n"  # published once


def test_a_removal_racing_a_change_loses_or_wins_whole_and_the_loser_is_told(
    tmp_path: Path,
) -> None:
    url = Server("file", tmp_path).make()
    a, b = two_machines(url, tmp_path, "t1")
    # B's change first: A's removal, built on an older journal, is refused; nothing changed on A
    ok(b, "fire", "t1", "classify")
    proc = tp(a, "task", "remove", "t1")
    assert proc.returncode == 1 and len(proc.stderr.strip().splitlines()) == 1
    assert "run `taskproto sync` first" in proc.stderr
    assert (a / ".taskproto/tasks/t1/task.json").exists()
    ok(a, "sync")
    ok(a, "task", "remove", "t1")  # now it builds on B's change: the marker keeps it
    c = clone(url, tmp_path / "c")
    ok(c, "sync")
    assert "classify" in ok(c, "log", "t1")


def test_a_change_after_a_removal_it_has_not_seen_is_refused_until_sync(tmp_path: Path) -> None:
    url = Server("file", tmp_path).make()
    a, b = two_machines(url, tmp_path, "t2")
    ok(a, "task", "remove", "t2")
    before = (b / ".taskproto/tasks/t2/task.json").read_bytes()
    proc = tp(b, "fire", "t2", "classify")
    assert proc.returncode == 1 and "removed on remote 'origin'" in proc.stderr
    assert "run `taskproto sync`" in proc.stderr
    assert (b / ".taskproto/tasks/t2/task.json").read_bytes() == before
    assert json.loads(ok(b, "sync", "--json"))["removed_elsewhere"] == ["t2"]


@pytest.mark.slow
def test_a_removal_and_a_change_at_once_exactly_one_wins(tmp_path: Path) -> None:
    url = Server("file", tmp_path).make()
    a, b = two_machines(url, tmp_path, "t1")
    results = race(RACER, [a, b], ["remove", "fire"], tmp_path / "gate", "t1")
    won = [r["ok"] for r in results]
    assert won.count(True) == 1, results
    loser = results[won.index(False)]
    assert "taskproto sync" in str(loser["error"])
    removed, changed = won
    assert server_has_no_journal(url, "t1") == removed
    c = clone(url, tmp_path / "c")
    out = json.loads(ok(c, "sync", "--json"))
    if removed:  # B's change never reached the remote; B's copy goes at its sync
        assert out["removed_elsewhere"] == ["t1"]
        assert json.loads(ok(b, "sync", "--json"))["removed_elsewhere"] == ["t1"]
    else:  # A's task is still there, and its sync brings B's change
        assert "t1" in out["adopted"]
        assert json.loads(ok(a, "sync", "--json"))["fetched"] == ["t1"]
        assert (a / ".taskproto/tasks/t1/task.json").exists()
    assert changed != removed


def test_a_claim_made_before_syncing_a_removal_does_not_bring_the_task_back(
    tmp_path: Path,
) -> None:
    url = Server("file", tmp_path).make()
    a, b = two_machines(url, tmp_path, "t1")
    ok(a, "task", "remove", "t1")
    # the claim's push carries its journal commit (fast-forward only, no lease), which puts the
    # journal back under refs/taskproto/tasks/t1: a change over the removal, which still holds
    ok(b, "claim", "t1", session="bob")
    proc = tp(b, "fire", "t1", "classify", session="bob")
    assert proc.returncode == 1 and "since this machine last synced" in proc.stderr
    out = json.loads(ok(b, "sync", "--json"))
    assert "changed here after" in out["kept_here"]["t1"]  # its claim: kept, with its owner
    proc = tp(b, "fire", "t1", "classify", session="bob")
    assert proc.returncode == 1 and "its copy here is kept" in proc.stderr
    c = clone(url, tmp_path / "c")
    assert json.loads(ok(c, "sync", "--json"))["removed_elsewhere"] == ["t1"]


def test_a_new_task_may_take_a_removed_tasks_name(tmp_path: Path) -> None:
    url = Server("file", tmp_path).make()
    a = clone(url, tmp_path / "a")
    ok(a, "task", "create", "t1")
    ok(a, "sync")
    ok(a, "task", "remove", "t1")
    ok(a, "task", "create", "t1")  # another task, its own history
    assert json.loads(ok(a, "sync", "--json"))["pushed"] == ["t1"]
    ok(a, "fire", "t1", "classify")  # written through: the old marker is not this task's
    c = clone(url, tmp_path / "c")
    assert json.loads(ok(c, "sync", "--json"))["adopted"] == ["t1"]
    assert json.loads((c / ".taskproto/tasks/t1/task.json").read_text())["state"] == "CLASSIFIED"


def test_a_removal_an_older_taskproto_made_stays_this_machines_own(tmp_path: Path) -> None:
    """Only a removal this taskproto could not tell the remote is published by sync (it records
    it as pending); one made before removals were published (its journal archived here, no
    record) stays removed here only, as it was then: other machines keep the task."""
    srv = Server("file", tmp_path)
    url = srv.make()
    a = clone(url, tmp_path / "a")
    ok(a, "task", "create", "t1")
    ok(a, "sync")
    git(a, "remote", "set-url", "origin", srv.unreachable)
    assert tp(a, "task", "remove", "t1").returncode == 0
    record = a / ".taskproto" / "removals-pending" / "t1"
    assert record.is_file()
    record.unlink()  # as an older taskproto left its removal: the archive alone
    git(a, "remote", "set-url", "origin", url)
    out = json.loads(ok(a, "sync", "--json"))
    assert out["removed_here"] == ["t1"] and out["removal_published"] == [], out
    assert not server_has_no_journal(url, "t1")
    c = clone(url, tmp_path / "c")
    assert json.loads(ok(c, "sync", "--json"))["adopted"] == ["t1"]

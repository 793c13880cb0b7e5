"""A running board keeps its cards between requests (board/cards.py): after every kind of change,
made by another process and whether or not a watcher saw it, the kept cards are exactly the cards
built from nothing, and a task nothing touched is not read again."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from taskproto.board import snapshot
from taskproto.board.cards import Cards
from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.ops.controls import Viewer
from taskproto.state.models import AgentState
from tests.board.conftest import wait_for
from tests.board.scenario import build, commit_on_task, hook
from tests.conftest import run_taskproto

VIEWER = Viewer("board:someone", os.getpid())


def fresh(repo: Path, report: dict[str, Any] | None = None) -> dict[str, Any]:
    return snapshot.board(Engine(load_config(repo)), report, VIEWER)


class Kept:
    """A board's kept cards, asked as a running board asks (a new engine per request)."""

    def __init__(self, repo: Path, notices: bool = True) -> None:
        self.repo, self.cards = repo, Cards(notices=notices)

    def board(self, report: dict[str, Any] | None = None) -> dict[str, Any]:
        return snapshot.board(Engine(load_config(self.repo)), report, VIEWER, self.cards)

    def same_as_fresh(self, report: dict[str, Any] | None = None) -> dict[str, Any]:
        """The kept board, checked card by card against one built from nothing."""
        kept, built = self.board(report), fresh(self.repo, report)
        assert [t["name"] for t in kept["tasks"]] == [t["name"] for t in built["tasks"]]
        for a, b in zip(kept["tasks"], built["tasks"], strict=True):
            assert a == b, a["name"]
        assert json.loads(self.cards.encode(kept)) == json.loads(json.dumps(kept))
        return {t["name"]: t for t in kept["tasks"]}

    def reads(self) -> dict[str, int]:
        return {name: id(read) for name, read in self.cards.reads.items()}


def tp(repo: Path, *args: str, session: str = "") -> None:
    r = run_taskproto(*args, cwd=repo, env={"TASKPROTO_SESSION": session} if session else None)
    assert r.code == 0, r.err


@pytest.mark.parametrize("notices", [True, False], ids=["inotify", "stat-every-task"])
def test_every_change_shows_at_once_and_only_what_changed_is_read_again(
    engine: Engine, repo: Path, notices: bool
) -> None:
    sessions = build(engine)
    engine.create_task("after", after=["widget"])
    kept = Kept(repo, notices)
    cards = kept.same_as_fresh()
    assert cards["after"]["blocked_by"][0]["task"] == "widget"
    before = kept.reads()
    cards = kept.same_as_fresh()
    assert kept.reads() == before  # nothing changed: no task read again

    # another process moves a task: that task alone is read again
    engine.set_agent_status("parser", "qa", AgentState.WORKING, session=sessions["parser"])
    cards = kept.same_as_fresh()
    assert cards["parser"]["agents"][1]["status"] == "WORKING"
    after = kept.reads()
    assert {n for n in before if before[n] != after[n]} == {"parser"}

    # a commit on a task branch: the head, the approval that no longer stands
    commit_on_task(engine, "widget", "more.py", "x = 1\n", "more")
    cards = kept.same_as_fresh()
    assert cards["widget"]["head"] == engine.branch_head("widget")

    # a session starts working in a task's worktree (the client hook's activity file)
    hook(engine, "claude", "UserPromptSubmit", "s-new", engine.config.task_worktree("cache"))
    cards = kept.same_as_fresh()
    assert [s["session"] for s in cards["cache"]["sessions"]] == ["s-new"]

    # doctor's findings, a removed task, a new one, a hand edit (broken), packed refs
    report = {"findings": [{"task": "docs", "check": "x", "severity": "warning", "message": "m"}]}
    cards = kept.same_as_fresh(report)
    assert cards["docs"]["findings"][0]["check"] == "x"
    tp(repo, "task", "create", "newer")
    tp(repo, "task", "remove", "cache", "--force")
    cards = kept.same_as_fresh()
    assert "cache" not in cards and "newer" in cards
    subprocess.run(["git", "pack-refs", "--all"], cwd=repo, check=True)
    kept.same_as_fresh()
    task_json = Path(engine.config.task_file("newer"))
    task_json.write_text(task_json.read_text().replace('"INIT"', '"COMPLETE"'))
    cards = kept.same_as_fresh()
    assert "error" in cards["newer"]


def test_an_owner_that_dies_or_whose_lease_runs_out_shows_at_once(repo: Path) -> None:
    (repo / ".taskproto.toml").write_text("lease_minutes = 0.05\n")  # 3 s
    engine = Engine(load_config(repo))
    engine.create_task("held")
    engine.create_task("beat")
    # an owner whose process lives, then dies
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        engine.claim("held", "s-held", pid=sleeper.pid)
        engine.claim("beat", "s-beat", pid=os.getpid())
        kept = Kept(repo)
        cards = kept.same_as_fresh()
        assert cards["held"]["owner"]["gone"] is None
        sleeper.kill()
        sleeper.wait()
        cards = kept.same_as_fresh()
        assert "no longer exists" in cards["held"]["owner"]["gone"]
    finally:
        sleeper.kill()
    # a heartbeat renewed (heartbeat.json only), then the lease running out with time alone
    before = cards["beat"]["owner"]["heartbeat_at"]
    time.sleep(0.01)
    engine.heartbeat("beat", "s-beat")
    cards = kept.same_as_fresh()
    assert cards["beat"]["owner"]["heartbeat_at"] > before
    time.sleep(engine.config.lease_minutes * 60 + 0.5)
    cards = kept.same_as_fresh()
    assert "last heartbeat" in (cards["beat"]["owner"]["gone"] or "")


@pytest.mark.usefixtures("engine")
def test_a_running_board_answers_a_change_made_the_moment_before(
    board_for: Any, repo: Path, engine: Engine
) -> None:
    engine.create_task("a")
    board = board_for(repo, "--no-doctor")
    assert [t["state"] for t in board.get("/api/tasks").json()["tasks"]] == ["INIT"]
    for _ in range(3):  # no wait for the watcher: the request itself sees the change
        tp(repo, "claim", "a", session="s1")
        assert board.get("/api/tasks").json()["tasks"][0]["owner"]["session"] == "s1"
        tp(repo, "release", "a", session="s1")
        assert board.get("/api/tasks").json()["tasks"][0]["owner"] is None


def test_changes_the_kernels_notices_must_not_miss_show_at_once(engine: Engine, repo: Path) -> None:
    """The folders a kept board learns its changes from (board/notices.py) come and go: the
    journal refs' folder packed away and written again, an agent's status file edited by hand, a
    task removed and made again under its name, refs packed while a request reads."""
    engine.create_task("a", ["dev"])
    engine.create_task("b")
    subprocess.run(["git", "pack-refs", "--all"], cwd=repo, check=True)
    assert not (repo / ".git" / "refs" / "taskproto" / "tasks").exists()  # packed away
    kept = Kept(repo)
    kept.same_as_fresh()
    # a journal ref moved by git alone, its folder made again: task.json no longer vouched for
    journal = "refs/taskproto/tasks/b"
    good = subprocess.run(["git", "rev-parse", journal], cwd=repo, capture_output=True, text=True)
    subprocess.run(["git", "update-ref", journal, "refs/taskproto/tasks/a"], cwd=repo, check=True)
    assert "error" in kept.same_as_fresh()["b"]
    subprocess.run(["git", "update-ref", journal, good.stdout.strip()], cwd=repo, check=True)
    assert "error" not in kept.same_as_fresh()["b"]
    # the next save writes its journal ref loose, in the folder made again
    tp(repo, "claim", "a", session="s1")
    assert kept.same_as_fresh()["a"]["owner"]["session"] == "s1"
    tp(repo, "transition", "a", "CLASSIFIED", session="s1")
    assert kept.same_as_fresh()["a"]["state"] == "CLASSIFIED"
    # an agent's status.json broken by hand: the card says so, not the old status
    Path(engine.config.status_file("a", "dev")).write_text("{not json")
    assert kept.same_as_fresh()["a"]["agents"][0]["status"] == "corrupt"
    # removed, then made again under the same name (a new folder where the watched one was)
    tp(repo, "task", "remove", "b", "--force")
    assert "b" not in kept.same_as_fresh()
    tp(repo, "task", "create", "b", "--description", "the second b")
    assert kept.same_as_fresh()["b"]["description"] == "the second b"
    tp(repo, "transition", "b", "CLASSIFIED")
    assert kept.same_as_fresh()["b"]["state"] == "CLASSIFIED"
    # every ref packed again, then a commit moves the task branch (loose again)
    subprocess.run(["git", "pack-refs", "--all"], cwd=repo, check=True)
    kept.same_as_fresh()
    head = commit_on_task(engine, "b", "new.py", "y = 2\n", "new")
    assert kept.same_as_fresh()["b"]["head"] == head


def test_a_task_whose_create_finished_since_the_last_request_shows_at_once(
    engine: Engine, repo: Path, tmp_path: Path
) -> None:
    """A request made while a `task create` is between its journal's first commit and its
    task.json leaves the task out (still being created); the next one, once the create is done,
    shows it, though no notice came from its folder (not watched while it was being made)."""
    engine.create_task("first")
    gate, paused = tmp_path / "gate", tmp_path / "paused"
    hook = repo / ".git" / "hooks" / "reference-transaction"  # git's, so the ref goes through git
    hook.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = committed ] && grep -q " refs/taskproto/tasks/second$"; then\n'
        f"  touch '{paused}'; while [ ! -e '{gate}' ]; do sleep 0.02; done\n"
        "fi\n"
    )
    hook.chmod(0o755)
    kept = Kept(repo)
    assert list(kept.same_as_fresh()) == ["first"]
    create = subprocess.Popen(
        [sys.executable, "-m", "taskproto", "task", "create", "second"],
        cwd=repo,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for(paused.exists, what="the create paused after its journal's first commit")
        assert (engine.config.task_dir("second") / "creating.json").exists()
        assert not (engine.config.task_dir("second") / "task.json").exists()
        assert list(kept.same_as_fresh()) == ["first"]  # being created: not shown, not broken
    finally:
        gate.touch()
        assert create.wait(60) == 0, create.communicate()
    assert list(kept.same_as_fresh()) == ["first", "second"]


def test_tasks_created_one_after_another_while_a_board_keeps_asking_each_show_at_once(
    engine: Engine, repo: Path
) -> None:
    """As on a board a page asks on every change: requests one after another while tasks are
    created (the board's own create path); once a create returns, the next request shows it.
    Before the fix about 2 in 5 were missing."""
    kept, lock, stop = Kept(repo), threading.Lock(), threading.Event()

    def names() -> list[str]:
        with lock:  # one request at a time, as the board's cards_lock
            return [t["name"] for t in kept.board()["tasks"]]

    def ask() -> None:
        while not stop.is_set():
            names()

    asking = threading.Thread(target=ask)
    asking.start()
    try:
        missed = []
        for i in range(20):
            engine.create_task(f"t{i}")
            if f"t{i}" not in names():
                missed.append(f"t{i}")
    finally:
        stop.set()
        asking.join(60)
    assert missed == []
    assert names() == [t["name"] for t in fresh(repo)["tasks"]]


def test_a_session_shown_until_it_is_too_old_goes_with_time_alone(
    engine: Engine, repo: Path
) -> None:
    """Nothing on disk changes: a kept board that answers its last cards again still drops a
    session that ended long enough ago (snapshot.FORGET_ENDED_AFTER)."""
    engine.create_task("t")
    hook(engine, "claude", "SessionEnd", "s-ended", engine.config.task_worktree("t"))
    folder = engine.config.root / "activity"
    (path,) = [p for p in folder.iterdir() if p.name.endswith(".json")]
    record = json.loads(path.read_text())
    record["time"] = time.time() - snapshot.FORGET_ENDED_AFTER + 1.0  # forgotten in a second
    path.write_text(json.dumps(record))
    kept = Kept(repo)
    assert [s["session"] for s in kept.same_as_fresh()["t"]["sessions"]] == ["s-ended"]
    assert [s["session"] for s in kept.same_as_fresh()["t"]["sessions"]] == ["s-ended"]
    time.sleep(1.2)
    assert kept.same_as_fresh()["t"]["sessions"] == []

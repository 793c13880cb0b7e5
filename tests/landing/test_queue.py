"""The merge queue on one repository: add, list, remove, run; a clean task lands once, a conflict
and failing checks go back to the agent, a worker killed mid-landing is finished, not repeated."""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

import pytest

from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.ops import queue as queueing
from tests.conftest import git
from tests.landing.conftest import approved_task

CHECKS = '[land]\nchecks = ["test ! -e bad.txt || { echo found bad.txt; exit 1; }"]\n'


def merges_of(repo: Path, task: str) -> list[str]:
    return git(repo, "log", "--format=%H", f"--grep=^Task: {task}$", "main").split()


def test_add_list_remove(hooked: Engine, repo: Path, cli) -> None:
    approved = approved_task(hooked, "t", {"a.py": "a = 1\n"})
    r = cli("queue", "add", "t")
    assert r.code == 0, r.err
    assert r.out == f"t: queued {approved[:12]} for main\n"
    again = cli("queue", "add", "t")
    assert again.code == 1 and "queued already" in again.err
    listed = json.loads(cli("queue", "list", "--json").out)
    assert [(e["task"], e["approved"], e["status"]) for e in listed] == [("t", approved, "queued")]
    assert git(repo, "rev-parse", "refs/taskproto/queue/t^") == approved  # carries the work
    assert cli("queue", "remove", "t").code == 0
    assert cli("queue", "list").out == "the queue is empty\n"


def test_add_refuses_a_task_that_is_not_approved(hooked: Engine, cli) -> None:
    approved_task(hooked, "t", {"a.py": "a = 1\n"}, complete=False)
    r = cli("queue", "add", "t")
    assert r.code == 1 and len(r.err.strip().splitlines()) == 1
    assert "is in AWAITING_USER_APPROVAL" in r.err


def test_run_lands_the_clean_and_sends_back_a_conflict_and_failing_checks(
    hooked: Engine, repo: Path, cli
) -> None:
    (repo / ".taskproto.toml").write_text(CHECKS)
    hooked = Engine(load_config(repo))  # with the checks
    ok = approved_task(hooked, "ok", {"ok.py": "ok = 1\n", "shared.py": "x = 'ok'\n"})
    approved_task(hooked, "clash", {"shared.py": "x = 'clash'\n"})
    approved_task(hooked, "bad", {"bad.txt": "no\n"})
    for name in ("ok", "clash", "bad"):
        assert cli("queue", "add", name).code == 0
    r = cli("queue", "run", "--json")
    assert r.code == 0, r.err
    results = {o["task"]: o["result"] for o in json.loads(r.out)}
    assert results == {"ok": "landed", "clash": "conflict", "bad": "checks-failed"}
    assert len(merges_of(repo, "ok")) == 1 and git(repo, "rev-parse", "main^2") == ok
    assert merges_of(repo, "clash") == [] and merges_of(repo, "bad") == []
    assert not (repo / "bad.txt").exists()
    assert cli("queue", "list").out == "the queue is empty\n"
    clash, bad = hooked.load("clash"), hooked.load("bad")
    assert clash.state == bad.state == "IMPLEMENTATION"
    assert "conflicts in: shared.py" in cli("prompt", "clash").out
    assert "found bad.txt" in cli("prompt", "bad").out
    assert "land" in cli("log", "ok").out  # landed, cleaned up: its journal archived
    outbox = (hooked.config.root / "notify" / "outbox.jsonl").read_text()
    sent = [json.loads(line) for line in outbox.splitlines()]
    assert {i["task"] for i in sent if i["reason"] == "sent-back"} == {"clash", "bad"}


def test_run_says_what_to_do_for_a_task_it_sent_back(hooked: Engine, repo: Path, cli) -> None:
    approved_task(hooked, "ok", {"shared.py": "x = 'ok'\n"})
    approved_task(hooked, "clash", {"shared.py": "x = 'clash'\n"})
    for name in ("ok", "clash"):
        assert cli("queue", "add", name).code == 0
    r = cli("queue", "run")
    assert r.code == 0, r.err
    line = r.out.splitlines()[1]
    assert line.startswith("clash: conflict: sent back to IMPLEMENTATION: main ")
    assert line.endswith(
        "conflicts in shared.py; sent back (queue); next: its agent resolves it (`taskproto "
        "prompt clash` says what it was sent), then approve it again and `taskproto queue add "
        "clash`"
    )


def test_a_worker_killed_after_moving_the_base_is_finished_not_repeated(
    hooked: Engine, repo: Path, cli
) -> None:
    approved = approved_task(hooked, "t", {"a.py": "a = 1\n"})
    entry = queueing.add(hooked, "t", "user")
    queue = queueing.Queue(hooked)
    # the dead worker took the entry, recorded its intent, moved main, and was killed
    dead = subprocess.Popen(["true"])
    dead.wait()
    tip = git(repo, "rev-parse", "main")
    tree = git(repo, "merge-tree", "--write-tree", tip, approved)
    new = git(repo, "commit-tree", tree, "-p", tip, "-p", approved, "-m", "Merge t\n\nTask: t")
    data = {
        **entry.data,
        "taken": {"host": queueing.hostname(), "pid": dead.pid, "at": "", "expires_at": "9999"},
        "intent": {"base_before": tip, "base_after": new},
    }
    sha = queue.write(data, entry.sha)
    assert queue.swap("t", sha, entry.sha)
    git(repo, "merge", "--ff-only", "-q", new)
    r = cli("queue", "run", "--json")
    assert r.code == 0, r.err
    assert [(o["task"], o["result"]) for o in json.loads(r.out)] == [("t", "finished")]
    assert git(repo, "rev-parse", "main") == new  # not landed a second time
    assert "land" in cli("log", "t").out
    assert cli("queue", "list").out == "the queue is empty\n"


def test_a_live_worker_s_entry_is_not_taken(hooked: Engine, repo: Path, cli) -> None:
    approved_task(hooked, "t", {"a.py": "a = 1\n"})
    queueing.add(hooked, "t", "user")
    queue = queueing.Queue(hooked)
    assert queueing.take(hooked, queue) is not None  # this process: alive
    r = cli("queue", "run", "--once")
    assert r.code == 0 and r.out == "the queue has nothing to take\n"


def test_queue_is_refused_to_an_agent(hooked: Engine, cli, monkeypatch) -> None:
    approved_task(hooked, "t", {"a.py": "a = 1\n"})
    monkeypatch.setenv("CLAUDECODE", "1")
    r = cli("queue", "add", "t")
    assert r.code == 1 and "user" in r.err


def test_an_entry_whose_task_is_gone_is_dropped(hooked: Engine, repo: Path, cli) -> None:
    approved_task(hooked, "t", {"a.py": "a = 1\n"})
    queueing.add(hooked, "t", "user")
    main = git(repo, "rev-parse", "main")
    assert cli("task", "remove", "t", "--force").code == 0
    r = cli("queue", "run", "--json")
    assert r.code == 0, r.err
    assert [(o["task"], o["result"]) for o in json.loads(r.out)] == [("t", "gone")]
    assert git(repo, "rev-parse", "main") == main
    assert cli("queue", "list").out == "the queue is empty\n"


@pytest.mark.parametrize("half_removed", [False, True])
def test_a_worker_killed_after_recording_the_landing_is_finished(
    hooked: Engine, repo: Path, cli, half_removed: bool
) -> None:
    """Killed after `land` recorded and removed the task (or while it removed its folder: no
    task.json left), before it dropped the entry."""
    approved_task(hooked, "t", {"a.py": "a = 1\n"})
    entry = queueing.add(hooked, "t", "user")
    queue = queueing.Queue(hooked)
    tip = git(repo, "rev-parse", "main")
    assert cli("land", "t").code == 0  # what the killed worker did: main moved, t removed
    if half_removed:
        hooked.config.task_dir("t").mkdir()
    main = git(repo, "rev-parse", "main")
    dead = subprocess.Popen(["true"])
    dead.wait()
    data = {
        **entry.data,
        "taken": {"host": queueing.hostname(), "pid": dead.pid, "at": "", "expires_at": "9999"},
        "intent": {"base_before": tip, "base_after": main},
    }
    assert queue.swap("t", queue.write(data, entry.sha), entry.sha)
    r = cli("queue", "run", "--json")
    assert r.code == 0, r.err
    assert [(o["task"], o["result"]) for o in json.loads(r.out)] == [("t", "finished")]
    assert git(repo, "rev-parse", "main") == main
    assert cli("queue", "list").out == "the queue is empty\n"


def test_a_killed_worker_s_throwaway_worktree_is_swept(
    hooked: Engine, repo: Path, cli, tmp_path: Path
) -> None:
    """Even one still locked: killed while `git worktree add` made it."""
    approved_task(hooked, "t", {"a.py": "a = 1\n"})
    queueing.add(hooked, "t", "user")
    dead = subprocess.Popen(["true"])
    dead.wait()
    left = tmp_path / f"{queueing.SCRATCH}{dead.pid}-x" / "tree"
    git(repo, "worktree", "add", "--quiet", "--lock", "--detach", str(left), "main")
    unregistered = Path(tempfile.gettempdir()) / f"{queueing.SCRATCH}{dead.pid}-y"
    unregistered.mkdir()  # killed before `git worktree add` registered it
    r = cli("queue", "run")
    assert r.code == 0, r.err
    assert not left.parent.exists() and not unregistered.exists()
    assert queueing.SCRATCH not in git(repo, "worktree", "list")


def test_a_task_a_killed_worker_left_behind_its_journal_is_restored_and_landed(
    hooked: Engine, repo: Path, cli
) -> None:
    """Killed between a save's journal commit and its task.json: the next worker restores it
    (doctor's journal-ahead fix) and goes on."""
    approved_task(hooked, "t", {"a.py": "a = 1\n"})
    queueing.add(hooked, "t", "user")
    path = hooked.config.task_file("t")
    before = path.read_bytes()
    hooked.release("t", "s1")  # a save: the journal moves ahead...
    path.write_bytes(before)  # ...and task.json is the revision before, as a kill leaves it
    assert cli("task", "show", "t").code == 1  # untrusted
    r = cli("queue", "run", "--json")
    assert r.code == 0, r.err
    assert [(o["task"], o["result"]) for o in json.loads(r.out)] == [("t", "landed")]

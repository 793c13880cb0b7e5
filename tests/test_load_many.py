"""Every reader of all tasks reads them through one mechanism (`Core.load_many`, state/many.py):
a task still being created is left out, a task that cannot be read (corrupt task.json, a journal
missing or unreadable) is reported with one and the same line everywhere and hides no other task,
and the journals are read with a number of git processes that does not grow with the tasks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio

from taskproto.board.snapshot import board
from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.sessions import hostname
from tests.conftest import git, git_recorder, make_repo, run_taskproto
from tests.hooks.agents.conftest import payload
from tests.hooks.agents.test_session_start_quick import hook
from tests.mcpserver.conftest import connect, ok

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from bulk_tasks import build_tasks  # noqa: E402


def being_created(engine: Engine, name: str) -> None:
    """Task `name`'s folder as a live `task create` (this process) leaves it before task.json."""
    folder = engine.config.task_dir(name)
    folder.mkdir()
    intent = {"task": {"name": name}, "pid": os.getpid(), "host": hostname()}
    (folder / "creating.json").write_text(json.dumps(intent))


def broken_and_creating(engine: Engine) -> Path:
    """Tasks ok, corrupt (task.json not JSON), nojournal, badref (a journal ref of 40 bytes that
    are no object id: a disk error, a bad copy), and one being created; the repository."""
    repo = engine.config.repo
    for name in ("badref", "corrupt", "nojournal", "ok"):
        engine.create_task(name)
    engine.config.task_file("corrupt").write_text("{ not json")
    git(repo, "update-ref", "-d", "refs/taskproto/tasks/nojournal")
    (repo / ".git" / "refs" / "taskproto" / "tasks" / "badref").write_bytes(b"\xff" * 40)
    being_created(engine, "creating")
    return repo


def test_every_reader_of_all_tasks_leaves_out_reports_and_goes_on_alike(engine: Engine) -> None:
    repo = broken_and_creating(engine)

    listings = []
    for quick in ("1", "0"):  # the standard library's listing, and the engine's
        r = run_taskproto("task", "list", "--json", cwd=repo, env={"TASKPROTO_QUICK": quick})
        assert r.code == 0, r.err
        listings.append({row["name"]: row.get("error") for row in json.loads(r.out)})
    assert listings[0] == listings[1]
    assert sorted(listings[0]) == ["badref", "corrupt", "nojournal", "ok"]
    broken = {name: why for name, why in listings[0].items() if why is not None}
    assert sorted(broken) == ["badref", "corrupt", "nojournal"]
    assert "has no journal" in broken["nojournal"] and "run `taskproto doctor`" in broken["badref"]
    assert "not valid JSON" in broken["corrupt"]
    tasks, also = engine.load_many()
    assert (list(tasks), also) == (["ok"], broken)
    r = run_taskproto("ready", "--json", cwd=repo)
    assert r.code == 0, r.err
    queue = json.loads(r.out)
    assert queue["unreadable"] == broken and [t["name"] for t in queue["ready"]] == ["ok"]
    cards = {card["name"]: card for card in board(engine)["tasks"]}
    assert sorted(cards) == ["badref", "corrupt", "nojournal", "ok"]
    assert {n: cards[n]["error"] for n in broken} == broken
    data = payload("claude", "SessionStart", session_id="s-new", cwd=str(repo), source="startup")
    for quick in (True, False):
        code, out, err, _path = hook(repo, "claude", data, quick=quick)
        assert code == 0 and "failed" not in err, err
        assert "ok (INIT)" in out and "creating" not in out
        for name, why in broken.items():
            assert f"{name} (unreadable: {why})" in out.replace("\\n", "")  # doctor named once


def test_the_mcp_servers_status_reads_every_task_by_the_same_rule(engine: Engine) -> None:
    repo = broken_and_creating(engine)
    _, broken = engine.load_many()

    async def status() -> dict[str, Any]:
        async with connect(repo, "s1") as client:
            return await ok(client, "status")

    found = anyio.run(status)
    assert [t["name"] for t in found["tasks"]] == ["ok"]
    assert found["problems"] == [f"taskproto: {why}" for why in broken.values()]


def test_a_task_being_created_keeps_session_start_on_the_standard_library(
    engine: Engine,
) -> None:
    """The offer's quick read leaves it out by the engine's rule, instead of handing every
    session's start to the engine while a create runs."""
    repo = engine.config.repo
    engine.create_task("ok")
    from taskproto.hooks.flags import state_flags

    state_flags(engine.config.layout, "task-protocol")  # cached, as any full command leaves it
    being_created(engine, "creating")
    data = payload("claude", "SessionStart", session_id="s-new", cwd=str(repo), source="startup")
    code, out, err, path = hook(repo, "claude", data)
    assert (code, path) == (0, "quick"), err
    assert "ok (INIT)" in out and "creating" not in out
    r = run_taskproto("task", "list", cwd=repo)
    assert r.code == 0 and r.out.startswith("ok ") and "creating" not in r.out, r.out + r.err


LOAD_MANY = (
    "import json, sys\n"
    "from taskproto.config import load_config\n"
    "from taskproto.engine import Engine\n"
    "tasks, broken = Engine(load_config()).load_many()\n"
    "print(json.dumps([len(tasks), broken]))\n"
)


def test_load_many_reads_packed_journals_with_one_git_process(tmp_path: Path) -> None:
    counts = {}
    for n in (4, 40):
        repo = make_repo(tmp_path / f"r{n}")
        build_tasks(load_config(repo), [f"task{i:03d}" for i in range(n)], worktrees=False)
        git(repo, "pack-refs", "--all")
        git(repo, "repack", "-a", "-d", "-q")  # the journals' commits packed, as gc leaves them
        log = tmp_path / f"git{n}.log"
        proc = subprocess.run(
            [sys.executable, "-c", LOAD_MANY],
            cwd=repo,
            env={**os.environ, **git_recorder(tmp_path / f"shim{n}", log)},
            capture_output=True,
            text=True,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout) == [n, {}]
        counts[n] = len(log.read_text().splitlines()) if log.exists() else 0
    assert counts[4] == counts[40] <= 1, counts

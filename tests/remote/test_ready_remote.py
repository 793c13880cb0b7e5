"""The ready queue with a shared remote: real bare repositories over file:// and git daemon on
127.0.0.1, and machines racing as real subprocesses. The queue is the remote's: N machines claiming
without names get distinct tasks, each exactly once."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import remote_servers
from remote_servers import Server, clone, ok, race, remote_claim, tp

from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.state.models import AgentState

# real git servers on 127.0.0.1 and racing processes: heavy (docs/testing.md), run by CI
pytestmark = pytest.mark.heavy

# One machine: say it is ready, wait for the go file, claim without a name. Prints one JSON line.
RACER = r"""
import json, sys, time
from pathlib import Path
from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.errors import TaskprotoError
session, gate = sys.argv[-2], Path(sys.argv[-1])
engine = Engine(load_config(Path.cwd()))
(gate / f"ready-{session}").touch()
while not (gate / "go").exists():
    time.sleep(0.001)
try:
    result = engine.claim_next(session)
    out = {"ok": True, "task": result.task.name, "outcome": result.outcome}
except TaskprotoError as exc:
    out = {"ok": False, "error": str(exc)}
print(json.dumps(out))
"""

server = remote_servers.server  # the fixture: seeded servers over file:// and git daemon


def remote_task(bare: Path, task: str) -> dict[str, object]:
    proc = subprocess.run(
        ["git", "cat-file", "blob", f"refs/taskproto/tasks/{task}:task.json"],
        cwd=bare,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    "machines", [5, pytest.param(8, marks=pytest.mark.slow)], ids=lambda n: f"{n}-machines"
)
def test_machines_claiming_without_names_get_distinct_ready_tasks_each_once(
    server: Server, tmp_path: Path, machines: int
) -> None:
    url = server.make()
    maker = clone(url, tmp_path / "maker")
    ok(maker, "task", "create", "t-a", "--priority", "1")
    ok(maker, "task", "create", "t-b", "--priority", "0")
    ok(maker, "task", "create", "t-c", "--after", "t-a", "--priority", "0")  # blocked
    ok(maker, "task", "create", "t-d", "--priority", "4")
    ok(maker, "sync")
    clones = [clone(url, tmp_path / f"m{i}") for i in range(machines)]  # none has synced yet
    sessions = [f"s{i}" for i in range(machines)]
    results = race(RACER, clones, sessions, tmp_path / "gate")
    won = {str(r["task"]): sessions[i] for i, r in enumerate(results) if r["ok"]}
    assert sorted(won) == ["t-a", "t-b", "t-d"], results  # each ready task exactly once
    assert sum(1 for r in results if r["ok"]) == 3
    for r in results:
        if not r["ok"]:
            assert str(r["error"]).startswith("no task is ready to claim here and on remote"), r
    assert server.bare is not None
    for task, session in won.items():
        assert remote_claim(server.bare, task)["session"] == session  # type: ignore[index]
        owner = remote_task(server.bare, task)["owner"]
        assert isinstance(owner, dict) and owner["session"] == session
    assert remote_claim(server.bare, "t-c") is None
    # what every machine now sees: nothing ready (t-c waits for t-a, held by its winner)
    out = json.loads(ok(maker, "ready", "--all", "--json"))
    assert out["ready"] == []
    why = {r["name"]: r["not_ready"] for r in out["not_ready"]}
    assert why["t-c"] == "waits for t-a (in INIT)"
    assert why["t-b"] in (f"owned by {won['t-b']}", f"claimed on origin by {won['t-b']}")


def walk_to_complete(engine: Engine, name: str, session: str) -> None:
    for state in ("CLASSIFIED", "REQUIREMENTS", "SYNTHESIS"):
        engine.fire(name, target=state, session=session)
    engine.approve(name, "plan", "user")
    engine.fire(name, target="IMPLEMENTATION", session=session)
    engine.set_agent_status(name, "dev", AgentState.COMPLETE, session=session)
    for state in ("VALIDATION", "REVIEW", "AWAITING_USER_APPROVAL"):
        engine.fire(name, target=state, session=session)
    engine.approve(name, "commit", "user")
    engine.fire(name, target="COMPLETE", session=session)


def test_a_dependency_finished_on_another_machine_unblocks_the_queue_here(
    server: Server, tmp_path: Path
) -> None:
    url = server.make()
    a, b = clone(url, tmp_path / "a"), clone(url, tmp_path / "b")
    ok(a, "task", "create", "t1", "--agents", "dev")
    ok(a, "task", "create", "t2", "--after", "t1")
    ok(a, "sync")
    queue = json.loads(ok(b, "ready", "--json"))  # syncs: the remote's queue
    assert [r["name"] for r in queue["ready"]] == ["t1"]
    refused = tp(b, "claim", "t2", session="bob")
    assert refused.returncode == 1
    assert refused.stderr.startswith("taskproto: task 't2' waits for t1 (in INIT); ")
    assert "taskproto sync" in refused.stderr
    assert server.bare is not None and remote_claim(server.bare, "t2") is None
    ok(a, "claim", "t1", session="alice")
    engine_a = Engine(load_config(a))
    walk_to_complete(engine_a, "t1", "alice")  # each step pushed to the remote
    assert remote_task(server.bare, "t1")["state"] == "COMPLETE"
    # approved is not landed: t2 waits until t1's work is on the base
    assert [r["name"] for r in json.loads(ok(b, "ready", "--json"))["ready"]] == []
    engine_a.land("t1", session="alice")  # pushes main, then the journal in CLEANUP
    assert remote_task(server.bare, "t1")["state"] == "CLEANUP"
    # b has not synced since: its unnamed claim syncs first and takes t2
    claimed = json.loads(ok(b, "claim", "--json", session="bob"))
    assert (claimed["task"], claimed["outcome"]) == ("t2", "claimed")
    assert remote_claim(server.bare, "t2")["session"] == "bob"  # type: ignore[index]
    assert (b / ".taskproto/tasks/t2/code/README.md").is_file()
    # --local reads the queue as this machine last saw it, without the network
    c = clone(url, tmp_path / "c")
    assert json.loads(ok(c, "ready", "--local", "--json"))["ready"] == []

"""Dependencies, priorities and the ready queue on a real repository: through the CLI in-process,
the engine, and racing subprocesses (the remote's queue is in tests/remote/test_ready_remote.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from taskproto.engine import Actor, Engine
from taskproto.engine.deps import find_path
from taskproto.errors import TaskprotoError, UserOnly
from taskproto.machine.registry import get_workflow
from taskproto.state import journal
from taskproto.state.models import Task
from tests.conftest import git

# A small workflow with each kind of state: W resumable, R a checkpoint, DONE final (not terminal),
# GONE terminal.
MINI = """
[workflows.mini]
initial = "A"
states = [
  {name = "A"},
  {name = "W", resumable = true},
  {name = "R", checkpoint = true},
  {name = "DONE", final = true},
  {name = "GONE", terminal = true},
]
transitions = [
  {trigger = "work", source = "A", dest = "W"},
  {trigger = "ask", source = "W", dest = "R"},
  {trigger = "finish", source = "R", dest = "DONE"},
  {trigger = "drop", source = "DONE", dest = "GONE"},
]
"""


@pytest.fixture
def mini(repo: Path, engine: Engine) -> Engine:
    (repo / ".taskproto.toml").write_text(MINI)
    from taskproto.config import load_config

    return Engine(load_config(repo))


def ready_names(cli) -> list[str]:
    r = cli("ready", "--json")
    assert r.code == 0, r.err
    return [row["name"] for row in json.loads(r.out)["ready"]]


def snapshot(engine: Engine, name: str) -> tuple[bytes, str | None]:
    return engine.config.task_file(name).read_bytes(), journal.head(engine.git, name)


@pytest.mark.parametrize(
    ("workflow", "final", "startable"),
    [
        (
            "task-protocol",
            ["CLEANUP"],  # COMPLETE is approved, not landed
            ["INIT", "CLASSIFIED", "REQUIREMENTS", "IMPLEMENTATION", "VALIDATION", "REVIEW"],
        ),
        ("plan-task", ["VERIFIED"], ["CONTEXTUALIZE", "STRATEGIZE", "DESIGN", "GENERATE_SLOTS"]),
        ("tight-loop", ["FULL_AUTO"], ["PLAN", "EXECUTE", "REVIEW"]),
        ("phone-a-team", ["SYNTHESIS"], ["DO", "REVIEW", "DECIDE"]),
    ],
)
def test_each_builtin_declares_its_final_and_resumable_states(
    workflow: str, final: list[str], startable: list[str]
) -> None:
    wf = get_workflow(workflow)
    assert wf.final_states() == final
    assert [s for s in wf.state_names() if wf.can_start(s)] == startable
    # checkpoints wait for the user: never taken from the queue
    assert not any(wf.can_start(s.name) for s in wf.states if s.checkpoint)


def test_a_task_json_from_before_dependencies_reads_with_the_defaults(engine: Engine) -> None:
    engine.create_task("t1")
    data = json.loads(engine.config.task_file("t1").read_text())
    del data["depends_on"], data["priority"]
    old = Task.model_validate(data)
    assert (old.depends_on, old.priority) == ([], 2)
    # and the journal holds the new fields: they are part of the record
    stored = journal.task_json_at(engine.repo, journal.ref_for("t1"))
    assert stored is not None and stored["depends_on"] == [] and stored["priority"] == 2


def test_ready_lists_by_priority_then_age(cli, engine: Engine) -> None:
    for name, priority in [("low", "4"), ("mid1", "2"), ("urgent", "0"), ("mid2", "2")]:
        assert cli("task", "create", name, "--priority", priority).code == 0
    assert ready_names(cli) == ["urgent", "mid1", "mid2", "low"]
    out = cli("ready").out
    assert out.splitlines()[0].split()[:3] == ["urgent", "p0", "INIT"]
    r = cli("task", "create", "bad", "--priority", "5")
    assert r.code == 2 and not engine.config.task_dir("bad").exists()


def test_a_task_is_blocked_until_each_dependency_reaches_a_final_state(cli, mini: Engine) -> None:
    run = cli
    for args in (["a"], ["b"], ["c", "--after", "a,b", "--priority", "0"]):
        assert run("task", "create", *args, "--workflow", "mini").code == 0
    assert ready_names(cli) == ["a", "b"]
    everything = json.loads(run("ready", "--all", "--json").out)
    (c,) = everything["not_ready"]
    assert c["not_ready"] == "waits for a (in A), b (in A)"
    assert c["waits_for"] == [
        {"task": "a", "state": "A", "why": "in A"},
        {"task": "b", "state": "A", "why": "in A"},
    ]
    mini.fire("a", "work")
    assert ready_names(cli) == ["a", "b"]  # W is resumable: an unowned task there is ready
    mini.fire("a", "ask")
    assert ready_names(cli) == ["b"]  # R waits for the user
    mini.fire("a", "finish")  # DONE: final, though not terminal
    for step in ("work", "ask", "finish"):
        mini.fire("b", step)
    assert ready_names(cli) == ["c"]
    mini.fire("a", "drop")  # terminal counts as done as well
    assert ready_names(cli) == ["c"]


def test_owned_and_paused_tasks_are_not_ready(cli, engine: Engine) -> None:
    engine.create_task("mine")
    engine.create_task("asked")
    engine.claim("mine", "s1", pid=os.getpid())  # a live owner
    engine.claim("asked", "s2", pid=os.getpid())
    engine.release("asked", "s2")
    from taskproto.ops.interrupts import record

    record(engine, "asked", "why did you pick that library?", "s2")
    assert engine.load("asked").paused_by() is not None
    rows = json.loads(cli("ready", "--all", "--json").out)
    why = {r["name"]: r["not_ready"] for r in rows["not_ready"]}
    assert rows["ready"] == []
    assert why["mine"] == "owned by s1"
    assert why["asked"].startswith("paused")
    # an owner that is provably gone does not hold the task
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    engine.create_task("orphan")
    engine.claim("orphan", "s3", pid=dead.pid)
    assert ready_names(cli) == ["orphan"]


def test_claiming_a_blocked_task_is_refused_naming_its_blockers(cli, engine: Engine) -> None:
    run = cli
    engine.create_task("a")
    engine.create_task("b", after=["a"])
    before = snapshot(engine, "b")
    r = run("--session", "s1", "claim", "b")
    assert r.code == 1 and r.out == ""
    assert r.err.count("\n") == 1
    assert r.err.startswith("taskproto: task 'b' waits for a (in INIT); ")
    assert "--force" in r.err
    assert snapshot(engine, "b") == before
    # through the engine too, and an agent may not force it
    agent = Engine(engine.config, Actor(agent=True, why="inside Claude Code"))
    with pytest.raises(UserOnly):
        agent.claim("b", "s1", force=True)
    assert snapshot(engine, "b") == before
    r = run("--session", "s1", "claim", "b", "--force", "--json")
    assert r.code == 0 and json.loads(r.out)["outcome"] == "claimed"
    entry = engine.load("b").transition_log[-1]
    assert entry.kind == "claim" and entry.forced
    assert entry.note == "claimed with --force while waiting for a (in INIT)"
    # what the journal holds says so as well
    logged = journal.task_json_at(engine.repo, journal.ref_for("b"))
    assert logged is not None and logged["transition_log"][-1]["forced"] is True
    # the owner renewing its own claim is not refused
    assert run("--session", "s1", "claim", "b").code == 0


def test_the_cli_inside_an_agent_session_cannot_force_a_blocked_claim(cli, engine: Engine) -> None:
    engine.create_task("a")
    engine.create_task("b", after=["a"])
    before = snapshot(engine, "b")
    r = cli("claim", "b", "--force", env={"CLAUDECODE": "1", "TASKPROTO_SESSION": "agent"})
    assert r.code == 1 and "--force" in r.err and "user" in r.err
    assert snapshot(engine, "b") == before


def test_an_unnamed_claim_takes_the_most_urgent_ready_task(cli, engine: Engine) -> None:
    run = cli
    engine.create_task("first", priority=3)
    engine.create_task("blocked", after=["first"], priority=0)
    engine.create_task("urgent", priority=1)
    engine.create_task("later", priority=1)
    taken = [json.loads(run("--session", f"s{i}", "claim", "--json").out)["task"] for i in range(3)]
    assert taken == ["urgent", "later", "first"]
    # the session that owns a task gets it back (renewed), not a second one
    again = json.loads(run("--session", "s0", "claim", "--json").out)
    assert (again["task"], again["outcome"]) == ("urgent", "renewed")
    r = run("--session", "s9", "claim")
    assert r.code == 1
    assert r.err == (
        "taskproto: no task is ready to claim; 1 wait(s) for other tasks (see `taskproto ready`)\n"
    )


def test_an_unnamed_claim_among_packed_journals_starts_few_git_processes(
    engine: Engine, tmp_path: Path
) -> None:
    """After `git gc` (or a fetch) the journal heads are packed: the heartbeat renewal after an
    unnamed claim read each task's head with a `git cat-file` of its own (1,000 tasks: 17 s)."""
    from tests.conftest import git_recorder, run_taskproto

    repo = engine.config.repo
    for i in range(6):
        engine.create_task(f"t{i}")
    git(repo, "repack", "-a", "-d", "-q")
    git(repo, "prune")
    log = tmp_path / "git.log"
    env = {**git_recorder(tmp_path / "shim", log), "TASKPROTO_SESSION": "s1"}
    r = run_taskproto("claim", cwd=repo, env=env)
    assert r.code == 0 and "task t0 (INIT): claimed" in r.out, r.out + r.err
    calls = log.read_text().splitlines()
    assert len([c for c in calls if c.startswith("cat-file commit")]) <= 1, calls  # the claimed
    assert len(calls) <= 6, calls


def test_unknown_tasks_and_cycles_are_refused_and_nothing_changes(cli, engine: Engine) -> None:
    run = cli
    engine.create_task("a")
    engine.create_task("b", after=["a"])
    engine.create_task("c", after=["b"])
    before = {n: snapshot(engine, n) for n in "abc"}
    r = run("dep", "add", "a", "--on", "c")
    assert (r.code, r.out) == (1, "")
    assert r.err == (
        "taskproto: refused: that dependency would close the cycle a -> c -> b -> a; "
        "nothing changed\n"
    )
    r = run("dep", "add", "a", "--on", "a")
    assert r.code == 1 and "cycle a -> a" in r.err
    r = run("dep", "add", "a", "--on", "nope")
    assert r.code == 1 and r.err.startswith("taskproto: no task named 'nope' to depend on")
    r = run("dep", "add", "a", "--on", "../x")
    assert r.code == 1 and r.err.count("\n") == 1
    r = run("task", "create", "d", "--after", "a,ghost")
    assert r.code == 1 and "'ghost'" in r.err
    assert not engine.config.task_dir("d").exists()
    assert git(engine.config.repo, "branch", "--list", "d") == ""
    assert journal.head(engine.git, "d") is None
    assert {n: snapshot(engine, n) for n in "abc"} == before
    r = run("dep", "add", "a")
    assert r.code == 2  # --on is required: a usage error


def test_dep_add_and_remove_are_journaled_and_removal_is_the_users(cli, engine: Engine) -> None:
    run = cli
    engine.create_task("a")
    engine.create_task("b")
    r = run("dep", "add", "b", "--on", "a", "--json")
    assert r.code == 0 and json.loads(r.out) == {"task": "b", "depends_on": ["a"]}
    stored = journal.task_json_at(engine.repo, journal.ref_for("b"))
    assert stored is not None and stored["depends_on"] == ["a"]
    assert stored["transition_log"][-1]["note"] == "waits for a"
    assert run("dep", "add", "b", "--on", "a").code == 0  # already so: nothing new written
    assert engine.load("b").revision == 2
    before = snapshot(engine, "b")
    r = run("dep", "remove", "b", "--on", "a", env={"CLAUDECODE": "1"})
    assert r.code == 1 and "user" in r.err and snapshot(engine, "b") == before
    r = run("dep", "remove", "b", "--on", "c")
    assert r.code == 1 and "does not depend on c" in r.err
    assert run("dep", "remove", "b", "--on", "a").code == 0
    assert engine.load("b").depends_on == []
    assert journal.task_json_at(engine.repo, journal.ref_for("b"))["depends_on"] == []


def test_list_and_show_say_what_each_task_waits_for_and_a_broken_task_stops_nothing(
    cli, engine: Engine
) -> None:
    run = cli
    engine.create_task("a")
    engine.create_task("b", after=["a"], priority=1)
    engine.create_task("zz")
    engine.config.task_file("zz").write_text("{ not json")
    out = run("task", "list").out
    line_b = next(ln for ln in out.splitlines() if ln.startswith("b "))
    assert "p1" in line_b and line_b.endswith("waits for a (in INIT)")
    assert "BROKEN" in next(ln for ln in out.splitlines() if ln.startswith("zz"))
    rows = {r["name"]: r for r in json.loads(run("task", "list", "--json").out)}
    assert rows["b"]["waits_for"] == [{"task": "a", "state": "INIT", "why": "in INIT"}]
    assert rows["b"]["depends_on"] == ["a"] and rows["b"]["priority"] == 1
    assert "error" in rows["zz"]
    show = run("task", "show", "b").out
    assert "  priority   1\n" in show and "  waits for  a (in INIT)\n" in show
    data = json.loads(run("task", "show", "b", "--json").out)
    assert data["waits_for"][0]["task"] == "a"
    ready = json.loads(run("ready", "--json").out)
    assert [r["name"] for r in ready["ready"]] == ["a"] and "zz" in ready["unreadable"]
    # a dependency that cannot be read blocks, and says why
    engine.create_task("c")
    engine.add_dependency("c", ["a"])
    engine.config.task_file("a").write_text("{ not json")
    row = next(
        r for r in json.loads(run("ready", "--all", "--json").out)["not_ready"] if r["name"] == "c"
    )
    assert row["waits_for"][0]["why"].startswith("unreadable")


def test_a_removed_dependency_counts_as_done_only_when_it_ended_final(cli, mini: Engine) -> None:
    for name in ("done", "dropped"):
        mini.create_task(name, workflow="mini")
    mini.create_task("after-done", workflow="mini", after=["done"])
    mini.create_task("after-dropped", workflow="mini", after=["dropped"])
    for step in ("work", "ask", "finish", "drop"):
        mini.fire("done", step)
    mini.remove_task("done")
    mini.remove_task("dropped")  # removed while still in A: never finished
    rows = json.loads(cli("ready", "--all", "--json").out)
    assert [r["name"] for r in rows["ready"]] == ["after-done"]
    (blocked,) = rows["not_ready"]
    assert blocked["waits_for"] == [
        {"task": "dropped", "state": None, "why": "not on this machine"}
    ]
    # a new task may wait for one removed in a final state (met at once, as an import counts it:
    # ops/importing.py), not for one removed unfinished: the refusal says so, not "run sync"
    assert cli("task", "create", "later", "--after", "done").code == 0
    assert "later" in [r["name"] for r in json.loads(cli("ready", "--json").out)["ready"]]
    r = cli("task", "create", "never", "--after", "dropped")
    assert r.code == 1 and r.err.count("\n") == 1
    assert r.err == (
        "taskproto: task 'dropped' was removed: it is no task here any more, its journal is kept "
        "(`taskproto log dropped` shows its history); it ended unfinished, so a task waiting for "
        "it would wait forever: leave it out\n"
    )


def test_find_path_is_pure_and_follows_edges() -> None:
    graph = {"a": ["b"], "b": ["c", "d"], "d": ["a"]}
    assert find_path(graph, "b", "a") == ["b", "d", "a"]
    assert find_path(graph, "c", "a") is None
    assert find_path({}, "x", "x") == ["x"]


RACER = r"""
import sys, time
from pathlib import Path
from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.errors import TaskprotoError
task, on, gate = sys.argv[1], sys.argv[2], Path(sys.argv[3])
engine = Engine(load_config(Path.cwd()))
(gate / f"ready-{task}").touch()
while not (gate / "go").exists():
    time.sleep(0.001)
try:
    engine.add_dependency(task, [on])
    print("ok")
except TaskprotoError as exc:
    print(f"refused: {exc}")
"""


@pytest.mark.parametrize("round_", range(3))
def test_two_racing_adds_never_close_a_cycle_between_them(
    engine: Engine, repo: Path, tmp_path: Path, round_: int
) -> None:
    engine.create_task("a")
    engine.create_task("b")
    gate = tmp_path / "gate"
    gate.mkdir()
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", RACER, task, on, str(gate)],
            cwd=repo,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for task, on in (("a", "b"), ("b", "a"))
    ]
    while not all((gate / f"ready-{t}").exists() for t in "ab"):
        assert all(p.poll() is None for p in procs), [p.communicate() for p in procs]
    (gate / "go").touch()
    outs = [p.communicate(timeout=120)[0].strip() for p in procs]
    assert sorted(o.split(":")[0] for o in outs) == ["ok", "refused"], outs
    assert [engine.load(n).depends_on for n in "ab"].count([]) == 1


def test_a_task_that_waits_does_not_start_claimed_or_not(cli, engine: Engine, repo: Path) -> None:
    """Another door: moving the task without claiming it (an unowned task may be moved by
    anyone). From its first state it is refused while it waits; the user may force it, logged."""
    run = cli
    engine.create_task("a")
    engine.create_task("b", after=["a"])
    before = snapshot(engine, "b")
    r = run("--session", "s1", "transition", "b", "CLASSIFIED")
    assert (r.code, r.out) == (1, "")
    assert r.err.startswith(
        "taskproto: task 'b' waits for a (in INIT); start it when they are done"
    )
    r = run("transition", "b", "CLASSIFIED", "--force", env={"CLAUDECODE": "1"})
    assert r.code == 1 and "user" in r.err
    agent = Engine(engine.config, Actor(agent=True, why="through the MCP server"))
    with pytest.raises(TaskprotoError, match="waits for a"):
        agent.fire("b", target="CLASSIFIED", session="s1")
    assert snapshot(engine, "b") == before
    r = run("--session", "s1", "transition", "b", "CLASSIFIED", "--force")
    assert r.code == 0, r.err
    entry = engine.load("b").transition_log[-1]
    assert (entry.to_state, entry.forced) == ("CLASSIFIED", True)


def test_a_hand_edit_that_drops_a_dependency_is_not_honoured(cli, engine: Engine) -> None:
    """Another door: editing task.json to forget what it waits for. The journal vouches for
    task.json, so the edited copy is refused (doctor restores it), never claimed as ready."""
    run = cli
    engine.create_task("a")
    engine.create_task("b", after=["a"])
    path = engine.config.task_file("b")
    data = json.loads(path.read_text())
    data["depends_on"] = []
    path.write_text(json.dumps(data))
    assert "b" not in ready_names(cli)
    r = run("--session", "s1", "claim", "b")
    assert r.code == 1 and r.err.count("\n") == 1
    assert engine.load("a").owner is None
    r = run("--session", "s1", "claim", "--json")
    assert r.code == 0 and json.loads(r.out)["task"] == "a"

"""`taskproto plan-task to-tasks`: a VERIFIED plan's SLOTs become tasks with the plan's order and
dependencies, on a real repository through the CLI."""

from __future__ import annotations

import copy
import json

import pytest
from wf_data import CONTEXT, DESIGN, PLAN, STRATEGY

from taskproto.errors import TaskprotoError
from taskproto.machine.builtin.plan_artifacts import ExecutionPlanArtifact
from taskproto.ops.plan_slots import layout
from taskproto.state import journal
from tests.conftest import git


def slot(sid: str, depends_on: list[str] | None = None, subs: list[dict] | None = None) -> dict:
    out: dict = {
        "slot_id": sid,
        "title": f"do {sid}",
        "spec": "spec",
        "location": "main.py",
        "operation": "MODIFY",
        "taskflow": {"steps": ["edit"]},
    }
    if depends_on is not None:
        out["depends_on"] = depends_on
    if subs is not None:
        out["delegation"] = {"delegated_to": "helper", "sub_slots": subs}
    return out


def plan_of(*slots: dict) -> dict:
    return {"estimated_complexity": "LOW", "slots": list(slots)}


def verified(cli, write_json, name: str, plan: dict, priority: str = "2") -> None:
    r = cli("task", "create", name, "--workflow", "plan-task", "--priority", priority)
    assert r.code == 0, r.err
    for artifact in (CONTEXT, STRATEGY, DESIGN, plan):
        assert (
            cli("submit", name, "--artifact", str(write_json(f"{name}.json", artifact))).code == 0
        )
        if artifact is CONTEXT:
            assert cli("answer", name, "1", "yes").code == 0
            assert cli("answer", name, "2", "DEBUG").code == 0
        assert cli("approve", name).code == 0, name
    assert json.loads(cli("task", "show", name, "--json").out)["state"] == "VERIFIED"


def test_a_plan_in_order_becomes_a_chain_and_runs_in_that_order(cli, engine, write_json):
    verified(cli, write_json, "p", plan_of(slot("S1"), slot("S2"), slot("S3")), priority="1")
    r = cli("plan-task", "to-tasks", "p", "--json")
    assert r.code == 0, r.err
    rows = json.loads(r.out)["tasks"]
    assert [(t["name"], t["depends_on"], t["priority"]) for t in rows] == [
        ("p-S1", [], 1),
        ("p-S2", ["p-S1"], 1),
        ("p-S3", ["p-S2"], 1),
    ]
    t = engine.load("p-S2")
    assert t.workflow == "task-protocol" and t.description == "do S2: spec"
    assert t.context["plan"] == "p" and t.context["slot"]["slot_id"] == "S2"
    assert engine.load("p").context["slot_tasks"] == {"S1": "p-S1", "S2": "p-S2", "S3": "p-S3"}
    stored = journal.task_json_at(engine.repo, journal.ref_for("p-S3"))
    assert stored is not None and stored["depends_on"] == ["p-S2"]
    assert [r["name"] for r in json.loads(cli("ready", "--json").out)["ready"]] == ["p-S1"]
    # and a second time is refused, changing nothing
    before = engine.config.task_file("p").read_bytes()
    r = cli("plan-task", "to-tasks", "p")
    assert r.code == 1 and "already became tasks (p-S1, p-S2, p-S3)" in r.err
    assert engine.config.task_file("p").read_bytes() == before


def test_declared_dependencies_and_delegation_give_the_order(cli, engine, write_json):
    # the seed's plan: S1 delegated to a sub-SLOT S1.1, which comes first
    verified(cli, write_json, "p", PLAN)
    assert cli("plan-task", "to-tasks", "p").code == 0
    assert engine.load("p-S1").depends_on == ["p-S1.1"]
    assert engine.load("p-S1.1").context["part_of_slot"] == "S1"
    verified(
        cli,
        write_json,
        "q",
        plan_of(slot("A"), slot("B"), slot("C", depends_on=["A", "B"]), slot("D", ["A"])),
    )
    out = cli("plan-task", "to-tasks", "q").out
    assert out.splitlines() == [
        "plan q became 4 task(s):",
        "  q-A",
        "  q-B",
        "  q-C  after q-A, q-B",
        "  q-D  after q-A",
    ]
    assert [r["name"] for r in json.loads(cli("ready", "--json").out)["ready"]] == [
        "p-S1.1",
        "q-A",
        "q-B",
    ]


def test_only_a_verified_plan_task_becomes_tasks(cli, engine, write_json):
    assert cli("task", "create", "p", "--workflow", "plan-task").code == 0
    r = cli("plan-task", "to-tasks", "p")
    assert (r.code, r.err) == (
        1,
        "taskproto: task 'p' is in CONTEXTUALIZE; its plan becomes tasks once it is VERIFIED\n",
    )
    assert cli("task", "create", "t").code == 0
    r = cli("plan-task", "to-tasks", "t")
    assert r.code == 1 and "not a plan-task task" in r.err
    assert sorted(engine.task_names()) == ["p", "t"]


def test_a_clash_with_an_existing_task_makes_none_of_them(cli, engine, write_json):
    verified(cli, write_json, "p", plan_of(slot("S1"), slot("S2")))
    assert cli("task", "create", "p-S2").code == 0
    r = cli("plan-task", "to-tasks", "p")
    assert r.code == 1 and "p-S2 already exist" in r.err
    assert sorted(engine.task_names()) == ["p", "p-S2"]
    assert "slot_tasks" not in engine.load("p").context


def test_a_failure_half_way_removes_the_tasks_already_made(cli, engine, write_json):
    verified(cli, write_json, "p", plan_of(slot("S1"), slot("S2")))
    # S2 cannot be made: a file (not a task folder, so not listed as a task) holds its name
    engine.config.task_dir("p-S2").write_text("in the way\n")
    r = cli("plan-task", "to-tasks", "p")
    assert r.code == 1 and "p-S2" in r.err, r.err
    assert "p-S1" not in engine.task_names()
    assert git(engine.config.repo, "branch", "--list", "p-S1") == ""
    assert "slot_tasks" not in engine.load("p").context


@pytest.mark.parametrize(
    ("slots", "message"),
    [
        ([slot("A", ["nope"])], "depends on 'nope', which is no SLOT"),
        ([slot("A", ["B"]), slot("B", ["A"])], "form a cycle among A, B"),
        ([slot("A"), slot("A")], "two SLOTs with slot_id 'A'"),
        ([slot("a b"), slot("a/b")], "both become task 'p-a-b'"),
    ],
)
def test_plan_layout_refusals(slots: list[dict], message: str) -> None:
    plan = ExecutionPlanArtifact.model_validate(plan_of(*copy.deepcopy(slots)))
    with pytest.raises(TaskprotoError, match=message):
        layout("p", plan.slots)

"""tight-loop against real repositories, through the CLI: turns, handoffs, subtasks, the summary."""

from __future__ import annotations

import json

import pytest
from wf_data import journal_agrees

from taskproto.state import journal


def snapshot(engine, name="l"):
    return (engine.config.task_file(name).read_bytes(), journal.head(engine.git, name))


@pytest.fixture
def loop(cli):
    assert cli("task", "create", "l", "--workflow", "tight-loop").code == 0
    return "l"


def handoff(cli, to, decision="YES", *extra):
    return cli("handoff", "l", "--to", to, "--decision", decision, *extra)


def test_full_loop_two_iterations_and_summary(cli, engine, loop, write_json):
    assert (
        cli("turn", "l").out
        == "l: PLAN holds the turn (iteration 1); its gate: Ready to execute?\n"
    )
    assert cli("subtask", "add", "l", "write tests").out == "l: subtask T1 'write tests' added\n"
    assert handoff(cli, "EXECUTE").code == 0
    assert cli("subtask", "add", "l", "fix lint").code == 0
    assert cli("subtask", "done", "l", "T1").out == "l: subtask T1 done\n"
    assert (
        cli("subtask", "fail", "l", "t2", "--reason", "ruff crashed").out
        == "l: subtask T2 failed\n"
    )
    results = write_json("r.json", {"completed": ["T1"], "failed": ["T2"]})
    assert handoff(cli, "REVIEW", "YES", "--results", str(results)).code == 0
    turn = json.loads(cli("turn", "l", "--json").out)
    assert turn["phase"] == "REVIEW" and turn["gate"] == "Continue the loop?"
    assert turn["last_handoff"]["results"] == {"completed": ["T1"], "failed": ["T2"]}
    assert set(turn["last_handoff"]) == {"from", "to", "decision", "results", "iteration", "time"}
    assert cli("subtask", "add", "l", "pin ruff").out == "l: discovered task D1 'pin ruff' added\n"
    r = handoff(cli, "PLAN")
    assert r.out == "l: REVIEW -> PLAN (iteration 2); PLAN holds the turn\n"
    assert engine.load("l").counters.iteration == 2
    assert cli("subtask", "add", "l", "Pin  Ruff").code == 0  # planning a discovered task links it
    assert engine.load("l").context["discovered"][0]["planned_as"] == "T3"
    handoff(cli, "EXECUTE")
    cli("subtask", "done", "l", "T3")
    handoff(cli, "REVIEW")
    r = handoff(cli, "FULL_AUTO", "NO")
    assert r.code == 0
    assert r.out == (
        "l: REVIEW -> FULL_AUTO (iteration 2); FULL_AUTO holds the turn\n"
        "session summary:\n"
        "  iterations          2\n"
        "  subtasks completed  2\n"
        "  subtasks failed     1\n"
        "  tasks discovered    1: pin ruff\n"
    )
    task = engine.load("l")
    assert task.context["summary"]["iterations"] == 2
    assert [h["to"] for h in task.context["handoffs"]] == [
        "EXECUTE",
        "REVIEW",
        "PLAN",
        "EXECUTE",
        "REVIEW",
        "FULL_AUTO",
    ]
    assert journal_agrees(engine, "l")
    data = json.loads(cli("turn", "l", "--json").out)
    assert data["phase"] == "FULL_AUTO" and data["summary"]["subtasks_failed"] == 1


@pytest.mark.parametrize(
    "state_path, to, decision, message",
    [
        (
            [],
            "REVIEW",
            "YES",
            "PLAN -> REVIEW is not a transition of tight-loop; from PLAN you can go to: EXECUTE",
        ),
        ([], "PLAN", "YES", "PLAN -> PLAN is not a transition"),
        ([], "FULL_AUTO", "NO", "PLAN -> FULL_AUTO is not a transition"),
        (
            ["EXECUTE"],
            "PLAN",
            "YES",
            "EXECUTE -> PLAN is not a transition of tight-loop; from EXECUTE you can go to: REVIEW",
        ),
        (["EXECUTE"], "FULL_AUTO", "NO", "EXECUTE -> FULL_AUTO is not a transition"),
        ([], "EXECUTE", "NO", "the user answered NO to 'Ready to execute?': PLAN keeps the turn"),
        (["EXECUTE"], "REVIEW", "NO", "the user answered NO to 'Ready for review?'"),
        (
            ["EXECUTE", "REVIEW"],
            "PLAN",
            "NO",
            "the decision NO breaks the loop: hand off --to FULL_AUTO",
        ),
        (
            ["EXECUTE", "REVIEW"],
            "FULL_AUTO",
            "YES",
            "the decision YES continues the loop: hand off --to PLAN",
        ),
        (["EXECUTE", "REVIEW"], "DONE", "YES", "DONE is not a state of workflow tight-loop"),
    ],
)
def test_illegal_handoffs_are_refused_and_change_nothing(
    cli, engine, loop, state_path, to, decision, message
):
    for phase in state_path:
        assert handoff(cli, phase).code == 0
    before = snapshot(engine)
    r = handoff(cli, to, decision)
    assert r.code == 1 and message in r.err, r.err
    assert snapshot(engine) == before


def test_a_phase_without_the_turn_is_refused(cli, engine, loop):
    r = cli("turn", "l", "--phase", "EXECUTE")
    assert r.code == 1
    assert r.err == (
        "taskproto: task 'l': turn for EXECUTE refused in PLAN: EXECUTE does not hold the turn; "
        "PLAN does: wait for its handoff\n"
    )
    assert cli("turn", "l", "--phase", "plan").code == 0
    before = snapshot(engine)
    r = handoff(cli, "EXECUTE", "YES", "--from", "REVIEW")
    assert r.code == 1 and "REVIEW does not hold the turn; PLAN does" in r.err
    assert snapshot(engine) == before
    assert handoff(cli, "EXECUTE", "YES", "--from", "PLAN").code == 0
    assert cli("turn", "l", "--phase", "PLAN").code == 1
    assert cli("turn", "l", "--phase", "NOPE").code == 1


def test_handoff_never_carries_questions(cli, engine, loop, write_json):
    before = snapshot(engine)
    for key in ("questions", "ask_user", "pending_questions"):
        r = handoff(
            cli,
            "EXECUTE",
            "YES",
            "--results",
            str(write_json("q.json", {key: ["Which DB?"], "done": 1})),
        )
        assert r.code == 1 and "carries only the decision and the results" in r.err
    assert snapshot(engine) == before
    assert (
        handoff(
            cli, "EXECUTE", "YES", "--results", str(write_json("t.txt", "plain text results"))
        ).code
        == 0
    )
    record = engine.load("l").context["handoffs"][-1]
    assert record == {
        **record,
        "decision": "YES",
        "results": "plain text results",
        "from": "PLAN",
        "to": "EXECUTE",
    }
    assert set(record) == {"from", "to", "decision", "results", "iteration", "time"}


def test_subtask_refusals(cli, engine, loop):
    cli("subtask", "add", "l", "write tests")
    before = snapshot(engine)
    for args, message in [
        (
            ("add", "l", "  Write   TESTS "),
            "subtask T1 'write tests' is already pending; not added",
        ),
        (("add", "l", "   "), "a subtask needs a title"),
        (("done", "l", "T1"), "subtasks are marked done or failed in EXECUTE"),
    ]:
        r = cli("subtask", *args)
        assert r.code == 1 and message in r.err, r.err
    assert snapshot(engine) == before
    handoff(cli, "EXECUTE")
    cli("subtask", "done", "l", "T1")
    before = snapshot(engine)
    for args, message in [
        (("done", "l", "T1"), "subtask T1 is already done"),
        (("fail", "l", "T9"), "has no subtask 'T9' (subtasks: T1)"),
    ]:
        r = cli("subtask", *args)
        assert r.code == 1 and message in r.err, r.err
    assert snapshot(engine) == before


def test_discovered_tasks_are_deduplicated_by_title(cli, engine, loop):
    cli("subtask", "add", "l", "write tests")
    handoff(cli, "EXECUTE")
    handoff(cli, "REVIEW")
    assert cli("subtask", "add", "l", "Refactor config").code == 0
    before = snapshot(engine)
    for title, existing in (
        ("refactor   CONFIG", "Refactor config (D1)"),
        ("WRITE TESTS", "write tests (T1)"),
    ):
        r = cli("subtask", "add", "l", title)
        assert r.code == 1
        assert (
            f"a task titled '{existing.split(' (')[0]}' already exists ({existing.split('(')[1]}"
            in r.err
        )
    assert snapshot(engine) == before
    listing = json.loads(cli("subtask", "list", "l", "--json").out)
    assert [d["title"] for d in listing["discovered"]] == ["Refactor config"]


def test_nothing_moves_after_full_auto(cli, engine, loop):
    handoff(cli, "EXECUTE")
    handoff(cli, "REVIEW")
    handoff(cli, "FULL_AUTO", "NO")
    for args in (
        ("handoff", "l", "--to", "PLAN", "--decision", "YES"),
        ("subtask", "add", "l", "more"),
    ):
        r = cli(*args)
        assert r.code == 1
    assert engine.load("l").state == "FULL_AUTO"


def test_tight_loop_commands_refuse_other_workflows(cli):
    cli("task", "create", "tp1")
    r = cli("turn", "tp1")
    assert r.code == 1 and "is a task-protocol task, not tight-loop" in r.err

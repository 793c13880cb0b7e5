"""tight-loop's handoff prompts, the HELP/NO/EDIT answers, next-task selection and FULL_AUTO's
options, through the CLI on a real repository."""

from __future__ import annotations

import json

import pytest
from wf_data import journal_agrees

from taskproto.state import journal


def snapshot(engine, name="l"):
    return (engine.config.task_file(name).read_bytes(), journal.head(engine.git, name))


@pytest.fixture
def loop(cli):
    r = cli("task", "create", "l", "--workflow", "tight-loop", "-d", "Make the CLI start faster")
    assert r.code == 0, r.err
    return "l"


def handoff(cli, to, decision="YES", *extra):
    r = cli("handoff", "l", "--to", to, "--decision", decision, "--json", *extra)
    assert r.code == 0, r.err
    return json.loads(r.out)


def ok(cli, *args):
    r = cli(*args)
    assert r.code == 0, r.err
    return r.out


def test_a_whole_session_prompt_by_prompt(cli, engine, loop, write_json):
    plan1 = ok(cli, "prompt", "l")
    assert plan1.startswith("# l: PLAN, iteration 1\n\nThe loop starts.")
    assert "## The task for this iteration\nMake the CLI start faster\n" in plan1
    assert '"Ready to execute? [YES/NO]"' in plan1
    ok(cli, "subtask", "add", "l", "profile the import time")
    ok(cli, "subtask", "add", "l", "lazy-import click")
    # A question the user asked during PLAN: it must not cross the handoff.
    ok(cli, "interrupt", "record", "l", "Which Python versions matter for this?")
    execute = handoff(cli, "EXECUTE")["prompt"]
    assert execute == ok(cli, "prompt", "l")
    assert "[PHASE COMPLETE]\nPLAN handed off to EXECUTE (iteration 1); the user answered YES." in (
        execute
    )
    assert "Subtasks created: 2." in execute
    assert "- T1 [pending] profile the import time\n- T2 [pending] lazy-import click\n" in execute
    assert '"Execute {ID} {TITLE}? [YES/NO/HELP]"' in execute
    assert "Which Python versions" not in execute
    ok(cli, "subtask", "done", "l", "T1")
    ok(cli, "subtask", "skip", "l", "T2", "--reason", "click is already lazy")
    results = write_json("r.json", {"timings": "120 ms -> 45 ms"})
    review = handoff(cli, "REVIEW", "YES", "--results", str(results))["prompt"]
    assert "Results from EXECUTE:\n- timings: 120 ms -> 45 ms\n" in review
    assert "Completed: T1 profile the import time\n" in review
    assert "Skipped: T2 lazy-import click\n" in review
    assert "Which Python versions" not in review
    ok(cli, "subtask", "add", "l", "cache the entry points")
    ok(cli, "subtask", "add", "l", "drop pkg_resources")
    plan2 = handoff(cli, "PLAN")["prompt"]
    assert plan2.startswith("# l: PLAN, iteration 2\n\n[PHASE COMPLETE - LOOP DECISION]\n")
    assert "D1: cache the entry points (the oldest discovered task waiting" in plan2
    assert "Still waiting after this one: D2 drop pkg_resources" in plan2
    handoff(cli, "EXECUTE")
    handoff(cli, "REVIEW")
    plan3 = handoff(cli, "PLAN")["prompt"]
    assert "D2: drop pkg_resources" in plan3  # not iteration 2's task again
    handoff(cli, "EXECUTE")
    handoff(cli, "REVIEW")
    plan4 = handoff(cli, "PLAN")["prompt"]
    assert "No discovered task is waiting. Ask the user what to plan next." in plan4
    handoff(cli, "EXECUTE")
    handoff(cli, "REVIEW")
    final = handoff(cli, "FULL_AUTO", "NO")["prompt"]
    assert "[PHASE COMPLETE - LOOP BREAK]" in final and "the user answered NO" in final
    assert "- iterations: 4\n" in final
    assert "- subtasks completed: 1, failed: 0, skipped: 1, pending: 0\n" in final
    assert "- New session? `taskproto loop new l`" in final
    assert "- View results? `taskproto loop view l`" in final
    assert "- Edit tasks? `taskproto subtask edit l ID --title TEXT`" in final
    focuses = [h for h in engine.load("l").context["discovered"]]
    assert [(d["id"], d["selected_in"]) for d in focuses] == [("D1", 2), ("D2", 3)]
    assert journal_agrees(engine, "l")


def test_a_repository_overrides_a_handoff_template(cli, engine, loop):
    folder = engine.config.root / "templates" / "tight-loop"
    folder.mkdir(parents=True)
    (folder / "EXECUTE.md.j2").write_text(
        "EXECUTE now: {{ subtasks | length }} subtask(s), decision {{ handoff.decision }}\n"
    )
    ok(cli, "subtask", "add", "l", "one")
    assert handoff(cli, "EXECUTE")["prompt"] == "EXECUTE now: 1 subtask(s), decision YES\n"
    assert "[PHASE COMPLETE]" in handoff(cli, "REVIEW")["prompt"]  # the package's REVIEW


@pytest.mark.parametrize("reach", ["context.turn", "interruptions", "context_store", "feedback"])
def test_a_template_cannot_reach_beyond_the_decision_and_results(cli, engine, loop, reach):
    folder = engine.config.root / "templates" / "tight-loop"
    folder.mkdir(parents=True)
    (folder / "EXECUTE.md.j2").write_text("{{ " + reach + " }}\n")
    ok(cli, "interrupt", "record", "l", "Which database?")
    before = snapshot(engine)
    r = cli("handoff", "l", "--to", "EXECUTE", "--decision", "YES")
    assert r.code == 1 and "EXECUTE.md.j2 failed to render (UndefinedError" in r.err, r.err
    assert snapshot(engine) == before  # the handoff did not happen


def test_help_is_read_only_and_only_answers_executes_question(cli, engine, loop):
    ok(cli, "subtask", "add", "l", "profile the import time")
    r = cli("subtask", "help", "l", "T1")
    assert r.code == 1 and "HELP answers EXECUTE's" in r.err
    handoff(cli, "EXECUTE", "YES", "--results", "/dev/null")
    before = snapshot(engine)
    text = ok(cli, "subtask", "help", "l", "t1")
    assert text.startswith("# Help: T1 profile the import time\n")
    assert "It serves: Make the CLI start faster" in text
    assert "- NO: skip it (`taskproto subtask skip l T1`)" in text
    assert snapshot(engine) == before
    ok(cli, "subtask", "done", "l", "T1")
    r = cli("subtask", "help", "l", "T1")
    assert r.code == 1 and "subtask T1 is already done" in r.err
    r = cli("subtask", "help", "l", "T7")
    assert r.code == 1 and "has no subtask 'T7' (subtasks: T1)" in r.err


def test_skip_is_the_no_answer_in_execute(cli, engine, loop):
    ok(cli, "subtask", "add", "l", "a")
    before = snapshot(engine)
    r = cli("subtask", "skip", "l", "T1")
    assert r.code == 1 and "subtasks are skipped in EXECUTE" in r.err
    assert snapshot(engine) == before
    handoff(cli, "EXECUTE")
    assert ok(cli, "subtask", "skip", "l", "T1", "--reason", "later") == "l: subtask T1 skipped\n"
    r = cli("subtask", "skip", "l", "T1")
    assert r.code == 1 and "already skipped" in r.err
    assert engine.load("l").transition_log[-1].note == "T1 skipped: later"


def test_edit_and_drop_discovered_tasks(cli, engine, loop):
    handoff(cli, "EXECUTE")
    before = snapshot(engine)
    r = cli("subtask", "edit", "l", "D1", "--title", "x")
    assert r.code == 1 and "discovered tasks are edited in REVIEW" in r.err
    assert snapshot(engine) == before
    handoff(cli, "REVIEW")
    for title in ("cache entry points", "drop pkg_resources", "tmp"):
        ok(cli, "subtask", "add", "l", title)
    out = ok(cli, "subtask", "edit", "l", "D1", "--title", "cache the  entry points")
    assert out == "l: discovered task D1 is now 'cache the entry points'\n"
    before = snapshot(engine)
    r = cli("subtask", "edit", "l", "D3", "--title", "DROP pkg_resources")
    assert r.code == 1 and "a task titled 'drop pkg_resources' already exists (D2)" in r.err
    assert snapshot(engine) == before
    assert ok(cli, "subtask", "drop", "l", "D1") == "l: discovered task D1 dropped\n"
    r = cli("subtask", "drop", "l", "D1")
    assert r.code == 1 and "discovered task D1 was dropped" in r.err
    plan = handoff(cli, "PLAN")["prompt"]
    assert "D2: drop pkg_resources" in plan  # a dropped task is never chosen
    handoff(cli, "EXECUTE")
    handoff(cli, "REVIEW")
    r = cli("subtask", "edit", "l", "D2", "--title", "y")
    assert r.code == 1 and "discovered task D2 is already planned (iteration 2)" in r.err
    summary = handoff(cli, "FULL_AUTO", "NO")["summary"]
    assert summary["discovered"] == ["drop pkg_resources", "tmp"]
    assert summary["waiting"] == ["tmp"]
    # FULL_AUTO's "Edit tasks?": the waiting ones can still be edited there.
    ok(cli, "subtask", "edit", "l", "D3", "--title", "remove the tmp folder")
    assert journal_agrees(engine, "l")


def test_full_auto_view_and_new_session(cli, engine, loop):
    ok(cli, "subtask", "add", "l", "profile")
    handoff(cli, "EXECUTE")
    r = cli("loop", "new", "l")
    assert r.code == 1 and "a new session starts from FULL_AUTO" in r.err
    ok(cli, "subtask", "fail", "l", "T1", "--reason", "no profiler")
    handoff(cli, "REVIEW")
    ok(cli, "subtask", "add", "l", "install a profiler")
    ok(cli, "subtask", "add", "l", "cache entry points")
    handoff(cli, "FULL_AUTO", "NO")
    view = json.loads(ok(cli, "loop", "view", "l", "--json"))
    [it] = view["iterations"]
    assert it["focus"] == {"id": None, "title": "Make the CLI start faster"}
    assert [(s["id"], s["status"], s["note"]) for s in it["subtasks"]] == [
        ("T1", "failed", "no profiler")
    ]
    assert [d["title"] for d in it["discovered"]] == ["install a profiler", "cache entry points"]
    assert it["decisions"] == [
        "PLAN -> EXECUTE: YES",
        "EXECUTE -> REVIEW: YES",
        "REVIEW -> FULL_AUTO: NO",
    ]
    text = ok(cli, "loop", "view", "l")
    assert "  T1   failed   profile (no profiler)\n" in text
    out = ok(cli, "loop", "new", "l")
    assert out == (
        "created task l-2 (tight-loop, state PLAN) from l\n"
        "  carried over: install a profiler; cache entry points\n"
    )
    new = engine.load("l-2")
    assert (new.state, new.context["parent"], new.description) == (
        "PLAN",
        "l",
        "Make the CLI start faster",
    )
    assert new.context["focus"] == {"id": "D1", "title": "install a profiler", "iteration": 1}
    assert "D1: install a profiler" in ok(cli, "prompt", "l-2")
    assert journal.head(engine.git, "l-2") is not None
    assert json.loads(ok(cli, "loop", "new", "l", "--json"))["task"] == "l-3"
    r = cli("loop", "new", "l", "--name", "l-2")
    assert r.code == 1 and "already exists" in r.err

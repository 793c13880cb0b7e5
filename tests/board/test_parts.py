"""The board's parts on their own: the diff parser on real git, the diagram, the watcher's
classification, the review comments' lifecycle in task.json."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from taskproto.board import diagram
from taskproto.board.watch import Hub, classify
from taskproto.engine import Engine
from taskproto.engine.diff import task_diff
from taskproto.errors import TaskprotoError
from taskproto.machine.registry import get_workflow
from taskproto.ops import review as actions
from taskproto.ops.interrupts import record
from taskproto.state import review
from tests.board.scenario import move_to
from tests.conftest import git


def test_diff_of_the_task_branch(engine: Engine) -> None:
    engine.create_task("t", [])
    wt = engine.config.task_worktree("t")
    (wt / "old name.txt").write_text("".join(f"line {i}\n" for i in range(1, 30)))
    (wt / "gone.txt").write_text("bye\n")
    (wt / "blob.bin").write_bytes(b"\x00\x01\x02")
    git(wt, "add", "-A")
    git(wt, "commit", "-q", "-m", "one")
    base_after_one = engine.branch_head("t")
    assert base_after_one is not None
    engine_task = engine.load("t")
    git(wt, "mv", "old name.txt", "new name.txt")
    text = (wt / "new name.txt").read_text().replace("line 15\n", "line fifteen\n")
    (wt / "new name.txt").write_text(text)
    git(wt, "rm", "-q", "gone.txt")
    (wt / "README.md").write_text("# test repo\n-- a line that starts with dashes\n")
    git(wt, "commit", "-q", "-am", "two")
    diff = task_diff(engine, engine_task)
    assert diff is not None and diff.head == engine.branch_head("t")
    files = {f.path: f for f in diff.files}
    assert set(files) == {"README.md", "blob.bin", "new name.txt"}  # gone.txt: added, then removed
    assert files["blob.bin"].binary
    renamed = files["new name.txt"]
    assert renamed.status in ("A", "R")
    readme = files["README.md"]
    assert (readme.added, readme.removed) == (1, 0)
    added = [line for h in readme.hunks for line in h.lines if line.kind == "+"]
    assert [(line.new, line.text) for line in added] == [(2, "-- a line that starts with dashes")]
    # against the first commit as base: a rename with one changed line, numbered
    engine_task.base = base_after_one
    diff = task_diff(engine, engine_task)
    assert diff is not None
    renamed = next(f for f in diff.files if f.path == "new name.txt")
    assert (renamed.status, renamed.old_path, renamed.added, renamed.removed) == (
        "R",
        "old name.txt",
        1,
        1,
    )
    changed = [line for h in renamed.hunks for line in h.lines if line.kind != " "]
    assert [(line.kind, line.old, line.new, line.text) for line in changed] == [
        ("-", 15, None, "line 15"),
        ("+", None, 15, "line fifteen"),
    ]
    assert next(f for f in diff.files if f.path == "gone.txt").status == "D"


@pytest.mark.parametrize("name", ["task-protocol", "plan-task", "tight-loop", "phone-a-team"])
def test_diagram_of_each_builtin_is_valid_svg_with_the_current_state(
    engine: Engine, name: str
) -> None:
    wf = get_workflow(name, engine.config)
    current = wf.state_names()[1]
    svg = diagram.render(wf, current, {wf.initial}, wf.triggers_from(wf.initial)[0].trigger)
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    states = [g for g in root.iter(f"{ns}g") if "state" in g.get("class", "").split()]
    assert [g.get("data-state") for g in states] == wf.state_names()
    assert [g.get("data-state") for g in states if "current" in g.get("class", "")] == [current]
    edges = {g.get("data-trigger") for g in root.iter(f"{ns}g") if "edge" in g.get("class", "")}
    assert edges == {t.trigger for t in wf.transitions}
    assert f"class {current} current" in diagram.mermaid(wf, current)


def test_diagram_escapes_names(engine: Engine) -> None:
    wf = get_workflow("task-protocol", engine.config).model_copy(deep=True)
    wf.states[0].description = '<script>alert("x")</script>'
    svg = diagram.render(wf, "INIT")
    assert "<script>" not in svg
    ET.fromstring(svg)


def test_watch_classifies_what_changed(engine: Engine) -> None:
    engine.create_task("t", ["dev"])
    layout = engine.config.layout
    common = layout.dirs.common_dir if layout.dirs else ""
    paths = {
        layout.task_file("t"): ({"t"}, False, False),
        layout.status_file("t", "dev"): ({"t"}, False, False),
        layout.task_file("t") + ".lock": (set(), False, False),
        f"{layout.root}/activity/s1.json": (set(), True, False),
        f"{common}/refs/taskproto/tasks/t": ({"t"}, False, False),
        f"{common}/refs/heads/t-dev": ({"t"}, False, False),
        f"{common}/refs/heads/main": (set(), False, False),
        f"{common}/packed-refs": (set(), False, True),
        f"{common}/index": (set(), False, False),
        f"{layout.tasks}/new": (set(), False, True),
        f"{layout.root}/doctor-known.json": (set(), False, False),  # doctor's cache
        f"{layout.root}/.tmp-doctor-known.json.12.ab": (set(), False, False),
    }
    for path, (tasks, act, everything) in paths.items():
        change, _ = classify(engine.config, [path])
        assert (change.tasks, change.activity, change.everything) == (tasks, act, everything), path
    hub = Hub()
    for _ in range(300):
        change, _ = classify(engine.config, [layout.task_file("t")])
        hub.publish(change)
    assert hub.since(hub.version - 1).tasks == {"t"}
    assert hub.since(0).everything  # fell behind the history: refresh everything


def test_review_comments_lifecycle(engine: Engine) -> None:
    engine.create_task("t", [])
    engine.claim("t", "agent-1")
    move_to(engine, "t", "SYNTHESIS", "agent-1")
    # in SYNTHESIS (a checkpoint with no revision trigger) the feedback is recorded in place
    assert actions.choices(engine, engine.load("t")).revisions == [actions.IN_PLACE]
    actions.add_comment(engine, "t", "board:u", "plan", "PLAN.md", 4, "split step 2")
    before = engine.load("t")
    with pytest.raises(TaskprotoError, match="not a revision"):
        actions.request_revision(engine, "t", "board:u", "x", trigger="request_changes")
    assert engine.load("t").revision == before.revision  # a refusal writes nothing
    task = actions.request_revision(engine, "t", "board:u", "Please split it.")
    assert task.state == "SYNTHESIS"
    assert task.transition_log[-1].kind == "note"
    pending = review.pending(task)
    assert pending is not None and pending["comments"][0]["text"] == "split step 2"
    assert "plan PLAN.md line 4: split step 2" in review.context_text(task)
    # the agent's interruption context carries it too
    rec = record(engine, "t", "what did the user say?", "agent-1")
    from taskproto.ops.interrupts import context_message

    assert "split step 2" in context_message(rec)
    # the next transition ends it
    engine.approve("t", "plan", "user")
    engine.fire("t", target="IMPLEMENTATION", session="agent-1")
    assert review.pending(engine.load("t")) is None
    engine.fire("t", target="VALIDATION", session="agent-1")  # no agents: allowed
    engine.fire("t", target="REVIEW", session="agent-1")
    with pytest.raises(TaskprotoError, match="a revision needs a message or at least one comment"):
        actions.request_revision(engine, "t", "board:u")
    assert actions.revision_triggers(engine.workflow(engine.load("t")), "REVIEW") == [
        "reject_to_implementation",
        "reject_to_synthesis",
    ]


def test_comment_refusals_write_nothing(engine: Engine) -> None:
    engine.create_task("t", [])
    path = Path(engine.config.task_file("t"))
    before = path.read_bytes()
    for target, file, line, text in (
        ("diff", "a.py", 0, "x"),
        ("diff", "", 1, "x"),
        ("diff", "a.py", 1, ""),
        ("diff", "a.py", 1, "x" * (review.MAX_TEXT + 1)),
        ("elsewhere", "a.py", 1, "x"),
    ):
        with pytest.raises(TaskprotoError):
            actions.add_comment(engine, "t", "board:u", target, file, line, text)
    with pytest.raises(TaskprotoError, match="no draft comment 7"):
        actions.delete_comment(engine, "t", "board:u", 7)
    with pytest.raises(TaskprotoError, match="no open interruption"):
        actions.resume(engine, "t", "board:u")
    assert path.read_bytes() == before


def test_an_agent_actor_is_refused_every_review_action(engine: Engine) -> None:
    from taskproto.engine import Actor
    from taskproto.errors import UserOnly

    engine.create_task("t", [])
    agent = Engine(engine.config, Actor(agent=True, why="CLAUDECODE is set (Claude Code)"))
    path = engine.config.task_file("t")
    before = path.read_bytes()
    for call in (
        lambda: actions.approve(agent, "t", "board:u", "plan"),
        lambda: actions.add_comment(agent, "t", "board:u", "diff", "a.py", 1, "x"),
        lambda: actions.delete_comment(agent, "t", "board:u", 1),
        lambda: actions.request_revision(agent, "t", "board:u", "x"),
        lambda: actions.resume(agent, "t", "board:u"),
    ):
        with pytest.raises(UserOnly):
            call()
    assert path.read_bytes() == before

"""The board's API and event stream against a real `taskproto board` process on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taskproto.engine import Engine
from taskproto.hooks.agents.runner import run_agent_hook
from taskproto.state import journal
from taskproto.state.models import AgentState
from tests.board.conftest import Events, wait_for
from tests.board.scenario import PAYLOADS, build, commit_on_task
from tests.conftest import run_taskproto


@pytest.fixture
def scene(engine: Engine) -> dict[str, str]:
    return build(engine)


@pytest.fixture
def board(board_for: Any, repo: Path, scene: dict[str, str]) -> Any:
    return board_for(repo, "--no-doctor")


def journal_messages(engine: Engine, name: str) -> list[str]:
    return [c.message for c in engine.repo.history(journal.ref_for(name), limit=50)]


def test_list_shows_every_task_with_state_owner_agents_and_activity(board: Any) -> None:
    reply = board.get("/api/tasks")
    assert reply.status == 200
    cards = {t["name"]: t for t in reply.json()["tasks"]}
    assert set(cards) == {"widget", "parser", "docs", "cache"}
    widget, parser, docs = cards["widget"], cards["parser"], cards["docs"]
    assert widget["state"] == "AWAITING_USER_APPROVAL"
    assert widget["waiting_for"] == "commit approval"
    assert widget["owner"]["session"] == "s-widget-1"
    # the agent ended its turn (Stop) while its task waits for the user: waiting, not idle
    assert [(s["status"], s["event"], s["agent"]) for s in widget["sessions"]] == [
        ("waiting", "Stop", "dev")
    ]
    assert [(s["status"], s["event"]) for s in parser["sessions"]] == [("working", "PreToolUse")]
    assert {a["name"]: a["status"] for a in parser["agents"]} == {"dev": "WORKING", "qa": "PENDING"}
    assert docs["waiting_for"] == "plan approval"
    assert docs["interruption"]["type"] == "QUESTION"
    assert docs["sessions"][0]["status"] == "waiting"  # Claude's Notification
    assert cards["cache"]["waiting_for"] == "review"
    assert reply.json()["columns"]["plan-task"][0] == "CONTEXTUALIZE"


def test_task_detail_has_the_log_and_the_diff_summary(board: Any, engine: Engine) -> None:
    data = board.get("/api/tasks/widget").json()
    assert [e["trigger"] for e in data["log"]][-1] == "request_approval"
    diff = data["diff"]
    assert diff["head"] == engine.branch_head("widget")
    assert {f["path"]: (f["added"], f["removed"], f["status"]) for f in diff["files"]} == {
        "README.md": (2, 0, "M"),
        "widget.py": (3, 0, "A"),
    }
    lines = board.get("/api/tasks/widget/diff").json()["diff"]["files"]
    widget_py = next(f for f in lines if f["path"] == "widget.py")
    assert widget_py["hunks"][0]["lines"][0] == {
        "kind": "+",
        "old": None,
        "new": 1,
        "text": "def widget(size: int = 3) -> str:",
    }
    assert board.get("/api/tasks/nosuch").status == 404
    assert board.get("/api/tasks/..%2Fx").status in (400, 404)


def test_approve_the_plan_is_journaled_as_the_user_from_the_board(
    board: Any, engine: Engine
) -> None:
    reply = board.post("/api/tasks/docs/approve", {"kind": "plan"})
    assert reply.status == 200, reply.body
    by = reply.json()["by"]
    assert by.startswith("board:")
    task = engine.load("docs")
    assert task.checkpoint.plan_approval is not None and task.checkpoint.plan_approval.by == by
    assert task.transition_log[-1].trigger == "approve_plan"
    assert task.transition_log[-1].session == by
    assert journal_messages(engine, "docs")[0].startswith("approve: plan")


def test_approve_the_commit_needs_the_exact_head_shown(board: Any, engine: Engine) -> None:
    before = engine.config.task_file("widget").read_bytes()
    old = engine.branch_head("widget")
    assert old is not None
    commit_on_task(engine, "widget", "late.txt", "late\n", "a late change")
    refused = board.post("/api/tasks/widget/approve", {"kind": "commit", "sha": old})
    assert refused.status == 409
    assert "not the reviewed" in refused.json()["error"]
    assert engine.config.task_file("widget").read_bytes() == before  # nothing written
    head = engine.branch_head("widget")
    ok = board.post("/api/tasks/widget/approve", {"kind": "commit", "sha": head})
    assert ok.status == 200, ok.body
    approval = engine.load("widget").checkpoint.commit_approval
    assert approval is not None and approval.sha == head and approval.by == ok.json()["by"]
    # the agent can now complete: the guard reads the approval the board recorded
    done = run_taskproto(
        "--session", "s-widget-1", "transition", "widget", "COMPLETE", cwd=engine.config.repo
    )
    assert done.code == 0, done.err


def test_bad_requests_are_refused_in_one_line_and_write_nothing(board: Any, engine: Engine) -> None:
    before = engine.config.task_file("parser").read_bytes()
    cases = [
        ("/api/tasks/parser/approve", {"kind": "plan"}, 409),  # a plan approval is not here
        ("/api/tasks/parser/approve", {"kind": "everything"}, 409),
        ("/api/tasks/parser/approve", {}, 400),
        ("/api/tasks/parser/resume", {}, 409),  # no open interruption
        ("/api/tasks/parser/revise", {"message": "x"}, 409),  # nothing to send back from here
        (
            "/api/tasks/parser/comments",
            {"target": "diff", "file": "a", "line": 1, "text": " "},
            409,
        ),
        ("/api/tasks/parser/comments", {"target": "elsewhere", "file": "a", "text": "x"}, 409),
        (
            "/api/tasks/parser/comments",
            {"target": "diff", "file": "a", "line": "1", "text": "x"},
            400,
        ),
    ]
    for path, body, status in cases:
        reply = board.post(path, body)
        assert reply.status == status, (path, body, reply.body)
        assert reply.json()["error"] and "\n" not in reply.json()["error"]
    raw = board.request("POST", "/api/tasks/parser/approve", headers={"Content-Type": "x"})
    assert raw.status == 400
    assert engine.config.task_file("parser").read_bytes() == before


def test_revision_with_line_comments_reaches_the_agent(
    board: Any, engine: Engine, scene: dict[str, str]
) -> None:
    head = engine.branch_head("widget")
    for line, text in ((1, "name it make_widget"), (3, "guard against size < 0")):
        reply = board.post(
            "/api/tasks/widget/comments",
            {"target": "diff", "file": "widget.py", "line": line, "text": text, "head": head},
        )
        assert reply.status == 201, reply.body
    draft = board.post(
        "/api/tasks/widget/comments",
        {"target": "diff", "file": "README.md", "line": 3, "text": "drop this"},
    ).json()["comment"]
    assert board.request("DELETE", f"/api/tasks/widget/comments/{draft['id']}").status == 200
    drafts = engine.load("widget").context["review"]["drafts"]
    assert [(d["file"], d["line"]) for d in drafts] == [("widget.py", 1), ("widget.py", 3)]

    reply = board.post("/api/tasks/widget/revise", {"message": "Two small things."})
    assert reply.status == 200, reply.body
    task = engine.load("widget")
    assert task.state == "IMPLEMENTATION"
    last = task.transition_log[-1]
    assert (last.trigger, last.session, last.forced) == (
        "request_changes",
        reply.json()["by"],
        True,
    )
    batch = task.context["review"]["sent"][-1]
    assert [c["text"] for c in batch["comments"]] == [
        "name it make_widget",
        "guard against size < 0",
    ]
    assert task.context["review"]["drafts"] == []
    assert journal_messages(engine, "widget")[0].startswith("revision: request_changes")

    # The agent's next prompt and its next session start both carry the comments, file and line.
    wt = engine.config.agent_worktree("widget", "dev")
    for event, extra in (("UserPromptSubmit", {"prompt": "what now?"}), ("SessionStart", {})):
        data = json.loads((PAYLOADS / "claude" / f"{event}.json").read_text())
        data.update({"session_id": scene["widget"], "cwd": str(wt), **extra})
        code, out, err = run_agent_hook("claude", event, json.dumps(data).encode(), {})
        assert code == 0, err
        assert "widget.py:1: name it make_widget" in out, out
        assert "widget.py:3: guard against size < 0" in out
        assert "Two small things." in out
    # once the agent moves on, the revision is no longer pending
    engine.set_agent_status("widget", "dev", AgentState.COMPLETE, session=scene["widget"])
    engine.fire("widget", target="VALIDATION", session=scene["widget"])
    data = json.loads((PAYLOADS / "claude" / "SessionStart.json").read_text())
    data.update({"session_id": scene["widget"], "cwd": str(wt)})
    _, out, _ = run_agent_hook("claude", "SessionStart", json.dumps(data).encode(), {})
    assert "make_widget" not in out


def test_resume_after_an_interruption(board: Any, engine: Engine) -> None:
    assert board.get("/api/tasks/docs").json()["actions"]["resume"] is True
    reply = board.post("/api/tasks/docs/resume")
    assert reply.status == 200, reply.body
    task = engine.load("docs")
    assert task.state == "SYNTHESIS"  # a resumption never moves the state
    assert (task.interruptions[-1].type, task.interruptions[-1].session) == (
        "RESUMPTION",
        reply.json()["by"],
    )
    assert board.get("/api/tasks/docs").json()["interruption"] is None
    assert board.post("/api/tasks/docs/resume").status == 409


def test_plan_task_review_approve_and_revise(board: Any, engine: Engine) -> None:
    card = board.get("/api/tasks/cache").json()
    assert card["actions"]["approve_plan"] is True
    assert card["actions"]["revisions"] == ["request_revision"]
    plan = card["plan"][0]
    assert plan["file"] == "plan.md"
    line = next(i for i, t in enumerate(plan["lines"], 1) if "cache it per revision" in t)
    comment = board.post(
        "/api/tasks/cache/comments",
        {"target": "plan", "file": "plan.md", "line": line, "text": "also the cache keys"},
    )
    assert comment.status == 201
    assert board.post("/api/tasks/cache/revise", {}).status == 200
    task = engine.load("cache")
    assert task.state == "CONTEXTUALIZE"
    feedback = task.context["feedback_notes"][-1]["text"]
    assert f"plan plan.md line {line}: also the cache keys" in feedback
    prompt = run_taskproto("prompt", "cache", cwd=engine.config.repo)
    assert "also the cache keys" in prompt.out, prompt.out + prompt.err


def test_event_stream_reports_changes_made_elsewhere(board: Any, engine: Engine) -> None:
    events = Events(board)
    try:
        assert events.resp.status == 200
        assert events.resp.getheader("content-type", "").startswith("text/event-stream")
        wait_for(lambda: events.of("hello"), what="hello")
        result = run_taskproto(
            "--session",
            "s-parser-2",
            "agent",
            "set",
            "parser",
            "qa",
            "--status",
            "working",
            cwd=engine.config.repo,
        )
        assert result.code == 0, result.err
        wait_for(
            lambda: any("parser" in e["tasks"] for e in events.of("change")),
            what="a change event for parser",
        )
        cards = {t["name"]: t for t in board.get("/api/tasks").json()["tasks"]}
        assert {a["name"]: a["status"] for a in cards["parser"]["agents"]}["qa"] == "WORKING"
        # a client hook's activity arrives as an activity change
        wt = engine.config.agent_worktree("parser", "qa")
        data = {
            "session_id": "s-qa",
            "cwd": str(wt),
            "hook_event_name": "Notification",
            "message": "Claude needs your permission to use Bash",
        }
        run_agent_hook("claude", "Notification", json.dumps(data).encode(), {})
        wait_for(lambda: any(e["activity"] for e in events.of("change")), what="activity")
        # a new task (another process) appears
        created = run_taskproto("task", "create", "late", cwd=engine.config.repo)
        assert created.code == 0, created.err
        wait_for(
            lambda: (
                any("late" in t["name"] for t in board.get("/api/tasks").json()["tasks"])
                and any(e["all"] or "late" in e["tasks"] for e in events.of("change"))
            ),
            what="the new task",
        )
    finally:
        events.close()


def test_doctor_findings_are_on_the_cards(board_for: Any, repo: Path, engine: Engine) -> None:
    engine.create_task("lost", [])
    engine.config.task_worktree("lost").rename(engine.config.root / "elsewhere")
    board = board_for(repo)  # doctor on
    reply = wait_for(
        lambda: (r := board.get("/api/tasks").json())["doctor"]["finished"] and r,
        what="the first doctor run",
    )
    card = next(t for t in reply["tasks"] if t["name"] == "lost")
    assert card["findings"], reply["doctor"]
    assert any(f["severity"] in ("error", "warning") for f in card["findings"])


def test_a_board_started_before_any_task_sees_tasks_come_and_go(
    board_for: Any, repo: Path, engine: Engine
) -> None:
    assert not engine.config.root.exists()
    board = board_for(repo, "--no-doctor")
    events = Events(board)
    try:
        wait_for(lambda: events.of("hello"), what="hello")
        assert run_taskproto("task", "create", "first", cwd=repo).code == 0
        wait_for(
            lambda: (
                [t["name"] for t in board.get("/api/tasks").json()["tasks"]] == ["first"]
                and events.of("change")
            ),
            what="the first task",
        )
        assert run_taskproto("task", "create", "second", cwd=repo).code == 0
        removed = run_taskproto("task", "remove", "first", cwd=repo)
        assert removed.code == 0, removed.err
        wait_for(
            lambda: [t["name"] for t in board.get("/api/tasks").json()["tasks"]] == ["second"],
            what="the removal",
        )
        seen = len(events.of("change"))
        assert run_taskproto("transition", "second", "CLASSIFIED", cwd=repo).code == 0
        wait_for(
            lambda: any("second" in e["tasks"] for e in events.of("change")[seen:]),
            what="a change after the removal (the watcher survived it)",
        )
    finally:
        events.close()


def test_a_task_that_waits_shows_what_it_waits_for(board_for: Any, repo: Path) -> None:
    from taskproto.config import load_config

    engine = Engine(load_config(repo))
    engine.create_task("first", [])
    engine.create_task("second", [])
    engine.create_task("last", [], after=["first", "second"])
    engine.claim("second", "s-2")
    board = board_for(repo, "--no-doctor")
    cards = {t["name"]: t for t in board.get("/api/tasks").json()["tasks"]}
    assert cards["last"]["blocked_by"] == [
        {"task": "first", "state": "INIT", "why": "in INIT"},
        {"task": "second", "state": "INIT", "why": "in INIT"},
    ]
    assert cards["first"]["blocked_by"] == []
    page = board.get("/").body.decode()
    assert "waits for first (in INIT), second (in INIT)" in page
    detail = board.get("/tasks/last").body.decode()
    assert "waits for first (in INIT), second (in INIT)" in detail

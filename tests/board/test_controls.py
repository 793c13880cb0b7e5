"""The board as the control surface, against a real `taskproto board` process on 127.0.0.1: create,
claim and release, complete, land, remove; each refused as the CLI refuses it, each journaled as
the user's from the board; a blocked task shown as blocked; no action offered that no longer
applies."""

from __future__ import annotations

import getpass
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from taskproto.engine import Engine
from taskproto.sessions import hostname
from taskproto.state import journal
from taskproto.state.models import AgentState
from tests.board.conftest import stop_board
from tests.board.scenario import build, commit_on_task
from tests.conftest import git, run_taskproto

USER = "board:" + getpass.getuser()  # the session the board acts as (board/state.py)


@pytest.fixture
def scene(engine: Engine) -> dict[str, str]:
    return build(engine)


@pytest.fixture
def board(board_for: Any, repo: Path, scene: dict[str, str]) -> Any:
    return board_for(repo, "--no-doctor")


def test_an_approved_commit_is_no_longer_offered_for_approval(board: Any, engine: Engine) -> None:
    head = engine.branch_head("widget")
    assert board.get("/api/tasks/widget").json()["actions"]["approve_commit"] is True
    assert f'data-sha="{head}"' in board.get("/tasks/widget").body.decode()
    assert board.post("/api/tasks/widget/approve", {"kind": "commit", "sha": head}).status == 200
    assert board.get("/api/tasks/widget").json()["actions"]["approve_commit"] is False
    page = board.get("/tasks/widget").body.decode()
    assert 'data-kind="commit"' not in page


def refusal(*args: str, cwd: Path) -> str:
    """What the CLI says when it refuses `args` (its one line, without the `taskproto: ` prefix)."""
    result = run_taskproto(*args, cwd=cwd)
    assert result.code == 1, (args, result.out, result.err)
    line = result.err.strip()
    assert "\n" not in line and line.startswith("taskproto: "), line
    return line.removeprefix("taskproto: ")


def cards(board: Any) -> dict[str, Any]:
    return {t["name"]: t for t in board.get("/api/tasks").json()["tasks"]}


def card_html(board: Any, name: str) -> str:
    """The HTML of task `name`'s card on the board's page."""
    page = board.get("/").body.decode()
    found = re.search(rf'<article class="card[^"]*" data-task="{name}".*?</article>', page, re.S)
    assert found is not None, page
    return found.group(0)


def journal_messages(engine: Engine, name: str) -> list[str]:
    return [c.message for c in engine.repo.history(journal.ref_for(name), limit=50)]


def test_create_is_the_cli_create_journaled_as_the_user(board: Any, engine: Engine) -> None:
    reply = board.post(
        "/api/tasks",
        {
            "name": "feature",
            "description": "Ship the feature",
            "workflow": "task-protocol",
            "agents": ["dev", "qa"],
            "after": ["widget"],
            "priority": 1,
        },
    )
    assert reply.status == 201, reply.body
    by = reply.json()["by"]
    assert by.startswith("board:") and reply.json()["task"]["name"] == "feature"
    task = engine.load("feature")
    assert (task.description, task.required_agents, task.depends_on, task.priority) == (
        "Ship the feature",
        ["dev", "qa"],
        ["widget"],
        1,
    )
    assert (task.transition_log[0].trigger, task.transition_log[0].session) == ("create", by)
    assert engine.config.agent_worktree("feature", "qa").is_dir()
    assert journal_messages(engine, "feature")[-1].startswith("create")
    # names as the CLI takes them: "a,b"
    assert board.post("/api/tasks", {"name": "other", "agents": "x, y"}).status == 201
    assert engine.load("other").required_agents == ["x", "y"]


@pytest.mark.parametrize(
    ("body", "cli", "status"),
    [
        ({"name": "widget"}, ("task", "create", "widget"), 409),
        ({"name": "Bad Name"}, ("task", "create", "Bad Name"), 400),
        ({"name": "n", "workflow": "nosuch"}, ("task", "create", "n", "--workflow", "nosuch"), 409),
        ({"name": "n", "after": ["ghost"]}, ("task", "create", "n", "--after", "ghost"), 409),
        ({"name": "n", "agents": "a,a"}, ("task", "create", "n", "--agents", "a,a"), 409),
        (
            {"name": "n", "workflow": "phone-a-team"},
            ("task", "create", "n", "--workflow", "phone-a-team"),
            409,
        ),
    ],
)
def test_create_is_refused_as_the_cli_refuses_it(
    board: Any, engine: Engine, body: dict[str, Any], cli: tuple[str, ...], status: int
) -> None:
    before = engine.task_names()
    reply = board.post("/api/tasks", body)
    assert reply.status == status, reply.body
    said = reply.json()["error"]
    if body.get("workflow") == "phone-a-team":  # the CLI asks in a terminal; the board cannot
        assert said == "a phone-a-team task needs a task description and none was given: write one"
        assert "needs a task description" in refusal(*cli, cwd=engine.config.repo)
    else:
        assert said == refusal(*cli, cwd=engine.config.repo)
    assert engine.task_names() == before  # nothing made


def test_bad_control_requests_are_400(board: Any) -> None:
    for path, body in (
        ("/api/tasks", {"name": "n", "priority": "high"}),
        ("/api/tasks", {"name": "n", "agents": 3}),
        ("/api/tasks/parser/claim", {"force": "yes"}),
        ("/api/tasks/widget/land", {"strategy": "rebase"}),
    ):
        reply = board.post(path, body)
        assert reply.status == 400, (path, reply.body)
        assert "\n" not in reply.json()["error"]
    assert board.post("/api/tasks/nosuch/claim").status == 404


def test_claim_and_release_as_the_user_with_the_boards_pid(board: Any, engine: Engine) -> None:
    engine.create_task("mine", [])
    assert cards(board)["mine"]["controls"]["claim"] is True
    assert 'class="free"' in card_html(board, "mine")
    reply = board.post("/api/tasks/mine/claim")
    assert reply.status == 200, reply.body
    by = reply.json()["by"]
    assert (reply.json()["outcome"], reply.json()["pid"]) == ("claimed", board.proc.pid)
    owner = engine.load("mine").owner
    assert owner is not None
    assert (owner.session, owner.pid, owner.host) == (by, board.proc.pid, hostname())
    last = engine.load("mine").transition_log[-1]
    assert (last.trigger, last.session, last.forced) == ("claim", by, False)
    assert journal_messages(engine, "mine")[0].startswith(f"claim: {by}\n")
    card = cards(board)["mine"]
    assert card["owner"]["mine"] is True
    assert (card["controls"]["claim"], card["controls"]["release"]) == (False, True)
    assert ">you<" in card_html(board, "mine")
    # the CLI sees the user's board session as a live owner
    assert "is owned by session " + by in refusal(
        "--session", "s-agent", "claim", "mine", cwd=engine.config.repo
    )

    reply = board.post("/api/tasks/mine/release")
    assert reply.status == 200, reply.body
    task = engine.load("mine")
    assert task.owner is None
    assert (task.transition_log[-1].trigger, task.transition_log[-1].session) == ("release", by)
    assert cards(board)["mine"]["controls"]["release"] is False
    assert board.post("/api/tasks/mine/release").json()["error"] == refusal(
        "--session", by, "release", "mine", cwd=engine.config.repo
    )


def test_a_live_owner_is_displaced_only_when_forced(board: Any, engine: Engine) -> None:
    before = engine.config.task_file("parser").read_bytes()
    assert board.get("/api/tasks/parser").json()["owner"]["session"] == "s-parser-2"
    for action in ("claim", "release"):
        refused = board.post(f"/api/tasks/parser/{action}")
        assert refused.status == 409 and refused.json()["forcible"] is True
        assert refused.json()["error"] == refusal(
            "--session", USER, action, "parser", cwd=engine.config.repo
        )
    assert engine.config.task_file("parser").read_bytes() == before  # nothing written

    forced = board.post("/api/tasks/parser/claim", {"force": True})
    assert forced.status == 200, forced.body
    assert (forced.json()["outcome"], forced.json()["previous_owner"]) == ("forced", "s-parser-2")
    last = engine.load("parser").transition_log[-1]
    assert (last.trigger, last.session, last.forced) == ("takeover", USER, True)
    assert last.note == "from s-parser-2: forced with --force while the owner was live"


def test_a_blocked_task_shows_blocked_with_why(board: Any, engine: Engine) -> None:
    engine.create_task("first", [])
    engine.create_task("last", [], after=["first"])
    card = cards(board)["last"]
    assert card["blocked"] == "waits for first (in INIT)"
    html = card_html(board, "last")
    assert "blocked: waits for first (in INIT)" in html and 'class="free"' not in html
    assert cards(board)["first"]["blocked"] is None
    refused = board.post("/api/tasks/last/claim")
    assert refused.status == 409 and refused.json()["forcible"] is True
    assert refused.json()["error"] == refusal(
        "--session", USER, "claim", "last", cwd=engine.config.repo
    )
    forced = board.post("/api/tasks/last/claim", {"force": True})
    assert forced.status == 200, forced.body
    last = engine.load("last").transition_log[-1]
    assert last.forced and last.note == "claimed with --force while waiting for first (in INIT)"

    # escalated: `taskproto escalate`, until the task moves on
    escalated = run_taskproto(
        "escalate",
        "first",
        "--reason",
        "external-dependency",
        "--detail",
        "the staging database is down",
        cwd=engine.config.repo,
    )
    assert escalated.code == 0, escalated.err
    assert cards(board)["first"]["blocked"] == (
        "escalated (external-dependency): the staging database is down"
    )
    assert "blocked: escalated" in card_html(board, "first")
    engine.fire("first", "classify")
    assert cards(board)["first"]["blocked"] is None


def test_an_agent_out_of_retries_shows_blocked(board: Any, engine: Engine) -> None:
    engine.create_task("t", ["a"])
    for trigger in ("classify", "gather_requirements"):
        engine.fire("t", trigger)
    for _ in range(engine.config.max_retries):
        engine.set_agent_status("t", "a", AgentState.ERROR, "boom")
        requeued = run_taskproto("recover", "t", cwd=engine.config.repo)
        assert requeued.code == 0, requeued.out + requeued.err
    engine.set_agent_status("t", "a", AgentState.ERROR, "boom again")
    assert cards(board)["t"]["blocked"] == "escalated: agent a failed after 3 retries: boom again"


def test_complete_then_land_the_approved_commit(board: Any, engine: Engine) -> None:
    repo = engine.config.repo
    controls = board.get("/api/tasks/widget").json()["controls"]
    assert (controls["complete"], controls["land"]) == (False, False)  # nothing approved yet
    head = engine.branch_head("widget")
    assert board.post("/api/tasks/widget/approve", {"kind": "commit", "sha": head}).status == 200
    assert board.get("/api/tasks/widget").json()["controls"]["complete"] is True

    # the agent owns it: completing is refused as `taskproto transition widget COMPLETE` is
    refused = board.post("/api/tasks/widget/complete")
    assert refused.status == 409 and refused.json()["forcible"] is True
    assert refused.json()["error"] == refusal(
        "--session", USER, "transition", "widget", "COMPLETE", cwd=repo
    )
    done = board.post("/api/tasks/widget/complete", {"force": True})
    assert done.status == 200, done.body
    assert (done.json()["from"], done.json()["to"]) == ("AWAITING_USER_APPROVAL", "COMPLETE")
    last = engine.load("widget").transition_log[-1]
    assert (last.trigger, last.session, last.forced) == ("complete", USER, True)
    controls = board.get("/api/tasks/widget").json()["controls"]
    assert (controls["complete"], controls["land"]) == (False, True)

    landed = board.post("/api/tasks/widget/land")
    assert landed.status == 200, landed.body
    assert (landed.json()["approved"], landed.json()["removed"]) == (head, True)
    assert git(repo, "log", "-1", "--format=%s", "main") == (
        "Merge task widget into main: Add the widget to the settings page"
    )
    assert git(repo, "rev-parse", "main^2") == head
    assert board.get("/api/tasks/widget").status == 404
    archived = journal.latest_archive(engine.repo, "widget")
    assert archived is not None
    data = journal.task_json_at(engine.repo, archived)
    assert data is not None and data["state"] == "CLEANUP"
    by_trigger = {e["trigger"]: e for e in data["transition_log"]}
    assert by_trigger["land"]["session"] == USER
    assert by_trigger["approve_commit"]["session"] == USER


def test_complete_and_land_are_refused_as_the_cli_refuses_them(board: Any, engine: Engine) -> None:
    repo = engine.config.repo
    head = engine.branch_head("widget")
    assert board.post("/api/tasks/widget/approve", {"kind": "commit", "sha": head}).status == 200
    commit_on_task(engine, "widget", "late.txt", "late\n", "a late change")
    assert board.get("/api/tasks/widget").json()["controls"]["complete"] is False
    before = engine.config.task_file("widget").read_bytes()
    stale = board.post("/api/tasks/widget/complete", {"force": True})
    assert stale.status == 409 and not stale.json().get("forcible")
    assert stale.json()["error"] == refusal(
        "--session", USER, "transition", "widget", "COMPLETE", "--force", cwd=repo
    )
    early = board.post("/api/tasks/parser/land")
    assert early.status == 409
    assert early.json()["error"] == refusal("--session", USER, "land", "parser", cwd=repo)
    assert engine.config.task_file("widget").read_bytes() == before


def test_remove_never_loses_work_unless_forced(board: Any, engine: Engine) -> None:
    repo = engine.config.repo
    engine.create_task("scratch", [])
    commit_on_task(engine, "scratch", "idea.txt", "an idea\n", "an idea")
    refused = board.post("/api/tasks/scratch/remove")
    assert refused.status == 409 and refused.json()["forcible"] is True
    assert refused.json()["error"] == refusal(
        "--session", USER, "task", "remove", "scratch", cwd=repo
    )
    assert engine.config.task_worktree("scratch").is_dir()
    owned = board.post("/api/tasks/parser/remove")
    assert owned.status == 409 and owned.json()["forcible"] is True
    assert owned.json()["error"] == refusal("--session", USER, "task", "remove", "parser", cwd=repo)

    removed = board.post("/api/tasks/scratch/remove", {"force": True})
    assert removed.status == 200, removed.body
    assert (removed.json()["branches"], removed.json()["discarded_commits"]) == (["scratch"], 1)
    assert not engine.config.task_dir("scratch").exists()
    assert journal.latest_archive(engine.repo, "scratch") is not None  # archived, not deleted
    engine.create_task("empty", [])
    assert board.post("/api/tasks/empty/remove").status == 200  # nothing to lose: no force


def test_a_claim_from_the_board_holds_while_it_runs_and_ends_with_it(
    board_for: Any, repo: Path, engine: Engine
) -> None:
    (repo / ".taskproto.toml").write_text("lease_minutes = 0.05\n")  # 3 s; renewed every second
    engine.create_task("t", [])
    board = board_for(repo, "--no-doctor")
    assert board.post("/api/tasks/t/claim").status == 200
    time.sleep(4.5)  # past the lease: only the board's renewals keep the claim
    assert "is owned by session " + USER in refusal("--session", "s-2", "claim", "t", cwd=repo)
    stop_board(board)
    taken = run_taskproto("--session", "s-2", "claim", "t", "--json", cwd=repo)
    assert taken.code == 0, taken.err
    data = json.loads(taken.out)
    assert (data["outcome"], data["previous_owner"]) == ("takeover", USER)
    assert data["reason"] == f"its process {board.proc.pid} on {hostname()} no longer exists"


def test_next_is_the_clis_next(board: Any, engine: Engine) -> None:
    """*Next* fires the one step ahead as `taskproto next` does, and is refused with its words."""
    repo = engine.config.repo
    assert board.get("/api/tasks/widget").json()["controls"]["next"] is True
    before = engine.config.task_file("widget").read_bytes()
    waits = board.post("/api/tasks/widget/next", {"force": True})
    assert waits.status == 409 and not waits.json().get("forcible")
    assert waits.json()["error"] == refusal(
        "--session", USER, "next", "widget", "--force", cwd=repo
    )
    assert "waits for commit_approved" in waits.json()["error"]
    assert engine.config.task_file("widget").read_bytes() == before
    head = engine.branch_head("widget")
    assert board.post("/api/tasks/widget/approve", {"kind": "commit", "sha": head}).status == 200
    owned = board.post("/api/tasks/widget/next")  # an agent owns it: forcible, as the CLI's
    assert owned.status == 409 and owned.json()["forcible"] is True
    moved = board.post("/api/tasks/widget/next", {"force": True})
    assert moved.status == 200, moved.body
    walked = moved.json()
    assert walked["steps"] == [
        {"from": "AWAITING_USER_APPROVAL", "trigger": "complete", "to": "COMPLETE"}
    ]
    assert walked["reached"] is True and walked["by"] == USER
    last = engine.load("widget").transition_log[-1]
    assert (last.trigger, last.session, last.forced) == ("complete", USER, True)
    # in COMPLETE the step ahead is the landing, the user's own button
    stop = board.post("/api/tasks/widget/next", {"force": True})
    assert stop.status == 409 and "`taskproto land widget`" in stop.json()["error"]


def test_an_approval_where_there_is_none_is_refused_with_the_cli_s_line(
    board: Any, engine: Engine
) -> None:
    repo = engine.config.repo
    before = engine.config.task_file("parser").read_bytes()
    plan = board.post("/api/tasks/parser/approve", {"kind": "plan"})  # in IMPLEMENTATION
    assert plan.status == 409
    assert plan.json()["error"] == refusal("approve", "parser", "--plan", cwd=repo)
    head = engine.branch_head("docs") or ""
    commit = board.post("/api/tasks/docs/approve", {"kind": "commit", "sha": head})  # SYNTHESIS
    assert commit.status == 409
    assert commit.json()["error"] == refusal("approve", "docs", "--commit", head, cwd=repo)
    assert engine.config.task_file("parser").read_bytes() == before

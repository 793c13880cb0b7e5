"""The board as the control surface, against a real `taskproto board` process on 127.0.0.1: create,
claim and release, complete, land, remove; each refused as the CLI refuses it, each journaled as
the user's from the board; a blocked task shown as blocked; no action offered that no longer
applies."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from taskproto.engine import Engine
from taskproto.state import journal
from tests.board.scenario import build
from tests.conftest import run_taskproto


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

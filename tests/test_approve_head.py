"""`taskproto approve T --head SHA`: a plan's or a review's approval names the task branch's head
the user looked at, as `--commit SHA` does; a branch that moved since is refused, nothing written.
The inbox's commands carry it."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from taskproto.engine import Engine
from taskproto.ops import plan_task
from tests.conftest import commit_file, git
from tests.hooks.agents.conftest import move_to


@pytest.fixture(autouse=True)
def _no_detached_delivery(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TASKPROTO_NOTIFY_DETACH", "0")


def _inbox(cli: Any) -> list[dict[str, Any]]:
    result = cli("inbox", "--json")
    assert result.code == 0, result.err
    items: list[dict[str, Any]] = json.loads(result.out)["items"]
    return items


def test_a_review_approved_from_the_inbox_is_refused_once_the_head_moved(
    engine: Engine, repo: Path, cli: Any
) -> None:
    engine.create_task("p", workflow="plan-task")
    context = {"context_summary": "cache it", "affected_files": ["a.py"]}
    plan_task.submit(engine, "p", {**context, "questions_for_developer": []})
    head = git(repo, "rev-parse", "p")
    (item,) = _inbox(cli)
    command = shlex.split(item["command"])
    assert command == ["taskproto", "approve", "p", "--head", head[:12]]

    before = engine.config.task_file("p").read_bytes()
    moved = commit_file(engine.config.task_worktree("p"), "late.py")
    refused = cli(*command[1:])
    assert refused.code == 1 and len(refused.err.strip().splitlines()) == 1
    assert f"the task branch p is at {moved[:12]}, not the reviewed {head[:12]}" in refused.err
    assert engine.config.task_file("p").read_bytes() == before
    assert engine.load("p").state == "REVIEW_CONTEXT"

    (item,) = _inbox(cli)  # the inbox names the new head, and that goes through
    done = cli(*shlex.split(item["command"])[1:])
    assert done.code == 0, done.err
    assert done.out.startswith("p: REVIEW_CONTEXT -> STRATEGIZE")


def test_a_plan_approval_with_head_and_the_usage_errors(
    engine: Engine, repo: Path, cli: Any
) -> None:
    engine.create_task("t", ["dev"])
    move_to(engine, "t", "SYNTHESIS")
    head = git(repo, "rev-parse", "t")
    (item,) = _inbox(cli)
    assert item["command"] == f"taskproto approve t --plan --head {head[:12]}"
    short = cli("approve", "t", "--plan", "--head", head[:5])
    assert short.code == 1 and "not the reviewed" in short.err
    both = cli("approve", "t", "--commit", head, "--head", head)
    assert both.code == 2 and "--commit SHA names the head it approves" in both.err
    assert engine.load("t").checkpoint.plan_approval is None
    assert cli("approve", "t", "--plan", "--head", head[:7]).code == 0
    assert engine.load("t").checkpoint.plan_approval is not None

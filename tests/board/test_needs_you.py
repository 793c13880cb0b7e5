"""The board's "Needs you" and `taskproto inbox` are one reading (engine/attention.py): on the
same repository they list the same tasks for the same reasons, and a doctor finding alone puts a
task on neither (docs/notifications.md, docs/board.md)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from taskproto.config import load_config
from taskproto.doctor import run as doctor
from taskproto.engine import Engine
from taskproto.state import journal
from tests.board.conftest import wait_for
from tests.conftest import git, run_taskproto
from tests.test_inbox import at_approval

NEED = re.compile(r'class="need" href="/tasks/[^"]+" data-task="([^"]+)" data-reason="([^"]+)"')


@pytest.fixture(autouse=True)
def _no_detached_delivery(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TASKPROTO_NOTIFY_DETACH", "0")


def test_the_board_and_the_inbox_list_the_same_needs(
    board_for: Any, repo: Path, engine: Engine
) -> None:
    at_approval(engine, "widget")  # a commit waits for the user's approval
    engine.create_task("lost", [])  # doctor finds its worktree moved away: no decision of yours
    shutil.move(engine.config.task_worktree("lost"), engine.config.root / "elsewhere")
    engine.create_task("rebuilt", [])  # lost with its journal: doctor rebuilds it for your review
    engine.config.task_file("rebuilt").unlink()
    git(repo, "-c", "core.hooksPath=/dev/null", "update-ref", "-d", journal.ref_for("rebuilt"))
    doctor(load_config(repo), ("rebuilt",), fix=True)
    assert engine.load("rebuilt").needs_review

    inbox = run_taskproto("inbox", "--json", cwd=repo)
    assert inbox.code == 0, inbox.err
    expected = [(i["task"], i["reason"]) for i in json.loads(inbox.out)["items"]]
    assert expected == [("rebuilt", "needs-review"), ("widget", "commit-approval")]
    commands = {i["task"]: i["command"] for i in json.loads(inbox.out)["items"]}
    assert commands["rebuilt"] == "taskproto ack rebuilt"

    board = board_for(repo)  # doctor on: its findings on "lost" are on its card, not in "Needs you"
    reply = wait_for(
        lambda: (r := board.get("/api/tasks").json())["doctor"]["finished"] and r,
        what="the first doctor run",
    )
    cards = {t["name"]: t for t in reply["tasks"]}
    assert cards["lost"]["findings"] and cards["lost"]["needs_you"] == []
    shown = [(t, i["reason"]) for t, c in sorted(cards.items()) for i in c["needs_you"]]
    assert shown == expected
    page = board.get("/").body.decode()
    assert sorted(NEED.findall(page)) == expected
    assert "<code>taskproto ack rebuilt</code>" in page

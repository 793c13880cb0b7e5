"""A board that cannot read the repository's tasks at all (no git on PATH for the server process, or
a folder that is no git repository any more) keeps serving: the board says why in one line, a
task's page and API answer that line, and nothing crashes (docs/board.md)."""

from __future__ import annotations

import html
import shutil
from pathlib import Path
from typing import Any

import pytest

from taskproto.board.state import cannot_read
from taskproto.errors import CorruptState, GitError, RepositoryGone, TaskprotoError
from taskproto.git.files import GIT_MISSING
from tests.board.conftest import wait_for
from tests.conftest import git, run_taskproto
from tests.test_no_git_doors import path_without_git


def _tasks(repo: Path) -> None:
    for args in (("init",), ("task", "create", "t1"), ("task", "create", "t2")):
        done = run_taskproto(*args, cwd=repo)
        assert done.code == 0, done.err
    git(repo, "gc", "-q")  # packed journals: reading them needs `git cat-file`


def problem_line(page: str) -> str | None:
    start = page.find('<p class="finding error" id="problem">')
    if start < 0:
        return None
    return html.unescape(page[start : page.index("</p>", start)].split(">", 1)[1])


def test_without_git_the_board_serves_and_says_so_in_one_line(
    board_for: Any, repo: Path, tmp_path: Path
) -> None:
    _tasks(repo)
    board = board_for(repo, env={"PATH": path_without_git(tmp_path / "bin")})
    reply = board.get("/api/tasks")
    assert reply.status == 200, reply.body
    assert reply.json()["problem"] == GIT_MISSING and reply.json()["tasks"] == []
    page = board.get("/")
    assert page.status == 200, page.body
    assert problem_line(page.body.decode()) == f"The board cannot read the tasks: {GIT_MISSING}"
    one = board.get("/api/tasks/t1")
    assert (one.status, one.json()) == (409, {"error": GIT_MISSING})
    shown = board.get("/tasks/t1")
    assert (shown.status, shown.body.decode()) == (409, f"taskproto board: {GIT_MISSING}\n")
    doctor = wait_for(lambda: (d := board.get("/api/doctor").json())["finished"] and d)
    assert doctor["error"] == GIT_MISSING
    assert "Traceback" not in "".join(board.output)


def test_a_folder_that_is_no_git_repository_any_more_is_said_and_read_again_once_back(
    board_for: Any, repo: Path, tmp_path: Path
) -> None:
    _tasks(repo)
    board = board_for(repo, "--no-doctor")
    assert [t["name"] for t in board.get("/api/tasks").json()["tasks"]] == ["t1", "t2"]
    shutil.move(repo / ".git", tmp_path / "git-away")
    try:
        data = board.get("/api/tasks").json()
        assert data["tasks"] == [] and data["problem"].startswith(
            f"{repo} is no git repository any more (its git folder {repo / '.git'} is gone)"
        )
        page = board.get("/")
        assert page.status == 200 and "no git repository any more" in page.body.decode()
    finally:
        shutil.move(tmp_path / "git-away", repo / ".git")
    data = board.get("/api/tasks").json()
    assert data["problem"] is None and [t["name"] for t in data["tasks"]] == ["t1", "t2"]
    assert "Traceback" not in "".join(board.output)


def test_a_corrupt_task_json_is_one_broken_card_and_the_other_tasks_are_shown(
    board_for: Any, repo: Path
) -> None:
    _tasks(repo)
    (repo / ".taskproto" / "tasks" / "t2" / "task.json").write_text("{not json")
    board = board_for(repo, "--no-doctor")
    reply = board.get("/api/tasks")
    assert reply.status == 200, reply.body
    data = reply.json()
    assert data["problem"] is None
    cards = {t["name"]: t for t in data["tasks"]}
    assert cards["t1"]["state"] == "INIT" and "error" not in cards["t1"]
    assert "t2" in cards["t2"]["error"] and "task.json" in cards["t2"]["error"]
    page = board.get("/").body.decode()
    assert problem_line(page) is None
    assert 'data-task="t1"' in page and "t2" in page and html.escape(cards["t2"]["error"]) in page
    assert (repo / ".taskproto" / "tasks" / "t2" / "task.json").read_text() == "{not json"


GONE = RepositoryGone("/r", "/r/.git")
NO_REPOSITORY = GitError(["git", "-C", "/r"], 128, "", "fatal: not a git repository: /r")


@pytest.mark.parametrize(
    ("exc", "line"),
    [
        (FileNotFoundError(2, "No such file or directory", "git"), GIT_MISSING),
        (GONE, str(GONE)),
        (NO_REPOSITORY, str(NO_REPOSITORY)),
        (TaskprotoError("no workflow named 'x'"), None),
        (CorruptState("/r/t/task.json", "not JSON", None), None),
        (GitError(["git", "cat-file", "--batch"], 128, "", "fatal: bad object"), None),
        (ValueError("a bug"), None),
    ],
)
def test_only_no_git_or_no_repository_empties_the_board(
    exc: BaseException, line: str | None
) -> None:
    """Any other error is not the board's `problem` (an empty board hiding every task): each
    route answers it as it is, a 409 with its line (api.guarded, pages._page)."""
    assert cannot_read(exc) == line

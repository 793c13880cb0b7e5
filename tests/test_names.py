from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import git

BAD_NAMES = [
    "",
    "..",
    "a/b",
    "-x",
    "HEAD",
    "has space",
    "tab\tname",
    "new\nline",
    "bell\x07",
    "x" * 300,
    "a.lock",
    "a@{1}",
    "@",
    "a..b",
    "trailing.",
    "back\\slash",
    "star*",
    "what?",
    "colon:x",
    "tilde~1",
    "caret^",
    "/abs",
    "../escape",
    ".hidden",
    "bracket[x]",
]


@pytest.mark.parametrize("name", BAD_NAMES, ids=[repr(n)[:20] for n in BAD_NAMES])
def test_bad_task_name_refused_with_nothing_written(cli, repo: Path, name: str) -> None:
    refs_before = git(repo, "for-each-ref")
    result = cli("task", "create", "--", name)
    assert result.code == 1
    assert "invalid task name" in result.err
    assert len(result.err.strip().splitlines()) == 1
    assert git(repo, "for-each-ref") == refs_before
    assert not (repo / ".taskproto").exists()
    assert git(repo, "worktree", "list").count("\n") == 0


@pytest.mark.parametrize("agent", ["", "a/b", "..", "-x", "x" * 100, "sp ace"])
def test_bad_agent_name_refused(cli, repo: Path, agent: str) -> None:
    result = cli("task", "create", "good", "--agents", f"ok,{agent}" if agent else "ok,,")
    if agent == "":
        # empty entries in the list are ignored; the task is created with agent ok
        assert result.code == 0
        return
    assert result.code == 1
    assert "invalid agent name" in result.err
    assert not (repo / ".taskproto" / "tasks" / "good").exists()


def test_good_names_accepted(cli, repo: Path) -> None:
    result = cli("task", "create", "fix-login_2.0", "--agents", "dev,qa-1")
    assert result.code == 0, result.err
    assert git(repo, "rev-parse", "--verify", "fix-login_2.0-qa-1")

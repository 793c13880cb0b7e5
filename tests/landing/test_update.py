"""`taskproto update`: the base's new commits into a task branch; a conflict goes back to the agent
as a revision with nothing lost; a head that moves revokes the approval."""

from __future__ import annotations

import json
from pathlib import Path

from taskproto.engine import Engine
from tests.conftest import commit_file, git
from tests.landing.conftest import approved_task, move_base


def test_update_merges_the_base_and_revokes_the_approval(hooked: Engine, repo: Path, cli) -> None:
    approved = approved_task(hooked, "t", {"a.py": "a = 1\n"})
    tip = move_base(repo, "b.py", "b = 1\n")
    r = cli("update", "t")
    assert r.code == 0, r.err
    head = git(repo, "rev-parse", "refs/heads/t")
    assert git(repo, "rev-parse", "refs/heads/t^1") == approved
    assert git(repo, "rev-parse", "refs/heads/t^2") == tip
    assert r.out.splitlines() == [
        f"t: brought in main ({tip[:12]}, merge): {approved[:12]} -> {head[:12]}",
        "t: the commit approval is revoked; AWAITING_USER_APPROVAL: review and "
        "`taskproto approve t --commit` again",
    ]
    task = hooked.load("t")
    assert task.state == "AWAITING_USER_APPROVAL" and task.checkpoint.commit_approval is None
    assert task.checkpoint.revoked[-1].sha == approved
    assert (hooked.config.task_worktree("t") / "b.py").read_text() == "b = 1\n"
    again = cli("update", "t", "--json")
    assert json.loads(again.out)["result"] == "up-to-date"


def test_update_rebase_replays_the_task_on_the_base(hooked: Engine, repo: Path, cli) -> None:
    approved_task(hooked, "t", {"a.py": "a = 1\n"})
    tip = move_base(repo, "b.py", "b = 1\n")
    r = cli("update", "t", "--rebase", "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["mode"] == "rebase" and data["approval"] == "revoked"
    assert git(repo, "rev-parse", "refs/heads/t~1") == tip


def test_a_conflict_goes_back_to_the_agent_with_nothing_lost(
    hooked: Engine, repo: Path, cli
) -> None:
    approved = approved_task(hooked, "t", {"a.py": "a = 1\n"})
    move_base(repo, "a.py", "a = 2\n")
    tree = hooked.config.task_worktree("t")
    r = cli("update", "t")
    assert r.code == 1
    assert len(r.err.strip().splitlines()) == 1
    assert "conflicts in a.py" in r.err and "back in IMPLEMENTATION" in r.err
    # nothing lost: the branch, the files and the index are as they were
    assert git(repo, "rev-parse", "refs/heads/t") == approved
    assert git(tree, "status", "--porcelain") == ""
    assert (tree / "a.py").read_text() == "a = 1\n"
    task = hooked.load("t")
    assert task.state == "IMPLEMENTATION" and task.checkpoint.commit_approval is None
    assert task.context["update"]["files"] == ["a.py"]
    assert task.transition_log[-1].trigger == "update_conflict"
    # the agent's next prompt carries the conflict: the files and the hunks
    p = cli("prompt", "t")
    assert p.code == 0, p.err
    assert "the base branch conflicts with it" in p.out and "a.py" in p.out
    assert "+a = 2" in p.out or "a = 2" in p.out
    assert "<<<<<<<" in p.out


def test_update_refuses_uncommitted_changes(hooked: Engine, repo: Path, cli) -> None:
    approved_task(hooked, "t", {"a.py": "a = 1\n"})
    move_base(repo, "b.py", "b = 1\n")
    tree = hooked.config.task_worktree("t")
    (tree / "a.py").write_text("edited\n")
    before = hooked.config.task_file("t").read_bytes()
    r = cli("update", "t")
    assert r.code == 1 and len(r.err.strip().splitlines()) == 1
    assert "uncommitted changes in a.py" in r.err
    assert hooked.config.task_file("t").read_bytes() == before
    assert (tree / "a.py").read_text() == "edited\n"


def test_update_with_agents_brings_the_base_into_their_branches(
    engine: Engine, repo: Path, cli
) -> None:
    engine.create_task("t", ["dev"], description="t")
    agent_tree = engine.config.agent_worktree("t", "dev")
    commit_file(agent_tree, "d.py", "d = 1\n")
    tip = move_base(repo, "b.py", "b = 1\n")
    r = cli("update", "t", "--agents", "--json")
    assert r.code == 0, r.err
    assert json.loads(r.out)["agents"] == {"dev": "updated"}
    assert git(repo, "merge-base", "--is-ancestor", tip, "refs/heads/t-dev") == ""


def test_an_agent_session_is_refused(hooked: Engine, repo: Path, cli, monkeypatch) -> None:
    approved_task(hooked, "t", {"a.py": "a = 1\n"})
    monkeypatch.setenv("CLAUDECODE", "1")
    r = cli("update", "t")
    assert r.code == 1 and "user" in r.err

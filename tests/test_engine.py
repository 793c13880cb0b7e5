from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from taskproto.engine import Engine
from taskproto.errors import (
    CorruptState,
    OwnershipError,
    TaskprotoError,
    TransitionRejected,
    WorkAtRisk,
)
from taskproto.state import journal, store
from taskproto.state.models import AgentState, utcnow
from tests.conftest import commit_file, git


def walk_to(engine: Engine, name: str, states: list[str], session: str | None = None) -> None:
    for s in states:
        engine.fire(name, target=s, session=session)


def to_implementation(engine: Engine, name: str) -> None:
    walk_to(engine, name, ["CLASSIFIED", "REQUIREMENTS", "SYNTHESIS"])
    engine.approve(name, "plan", "user")
    engine.fire(name, target="IMPLEMENTATION")


def test_create_makes_branches_worktrees_status_and_journal(engine: Engine, repo: Path) -> None:
    task = engine.create_task("t1", ["dev", "qa"])
    assert task.state == "INIT" and task.revision == 1
    assert (repo / ".taskproto/tasks/t1/code/README.md").exists()
    for a in ("dev", "qa"):
        assert git(repo, "rev-parse", "--abbrev-ref", "HEAD") == "main"
        wt = repo / f".taskproto/tasks/t1/agents/{a}/code"
        assert git(wt, "rev-parse", "--abbrev-ref", "HEAD") == f"t1-{a}"
        assert (
            json.loads((repo / f".taskproto/tasks/t1/agents/{a}/status.json").read_text())["status"]
            == "PENDING"
        )
    assert (
        git(repo, "ls-tree", "--name-only", "refs/taskproto/tasks/t1")
        == "status-dev.json\nstatus-qa.json\ntask.json"
    )
    assert "/.taskproto/" in (repo / ".git/info/exclude").read_text()
    assert git(repo, "status", "--porcelain") == ""


def test_refused_transition_leaves_task_json_byte_identical(engine: Engine) -> None:
    engine.create_task("t1", ["dev"])
    walk_to(engine, "t1", ["CLASSIFIED", "REQUIREMENTS", "SYNTHESIS"])
    path = engine.config.task_file("t1")
    before = path.read_bytes()
    journal_before = journal.head(engine.git, "t1")
    with pytest.raises(TransitionRejected) as info:
        engine.fire("t1", target="IMPLEMENTATION")
    assert info.value.guard == "plan_approved"
    assert path.read_bytes() == before
    assert journal.head(engine.git, "t1") == journal_before
    with pytest.raises(TransitionRejected):
        engine.fire("t1", target="COMPLETE")
    assert path.read_bytes() == before


def test_validation_needs_every_agent_complete(engine: Engine) -> None:
    engine.create_task("t1", ["dev", "qa"])
    to_implementation(engine, "t1")
    engine.set_agent_status("t1", "dev", AgentState.COMPLETE)
    with pytest.raises(TransitionRejected) as info:
        engine.fire("t1", target="VALIDATION")
    assert "qa is PENDING" in str(info.value)
    engine.set_agent_status("t1", "qa", AgentState.COMPLETE)
    assert engine.fire("t1", target="VALIDATION").state == "VALIDATION"


def test_complete_needs_approval_of_current_head_and_goes_stale(engine: Engine) -> None:
    engine.create_task("t1", ["dev"])
    to_implementation(engine, "t1")
    engine.set_agent_status("t1", "dev", AgentState.COMPLETE)
    walk_to(engine, "t1", ["VALIDATION", "REVIEW", "AWAITING_USER_APPROVAL"])
    engine.approve("t1", "commit", "user")
    approved = engine.branch_head("t1")
    new_head = commit_file(engine.config.task_worktree("t1"), "late.txt")
    with pytest.raises(TransitionRejected) as info:
        engine.fire("t1", target="COMPLETE")
    assert info.value.guard == "commit_approved"
    assert approved[:12] in info.value.reason and new_head[:12] in info.value.reason
    engine.approve("t1", "commit", "user")
    assert engine.fire("t1", target="COMPLETE").state == "COMPLETE"


def test_approval_in_the_wrong_state_is_refused(engine: Engine) -> None:
    engine.create_task("t1")
    with pytest.raises(TaskprotoError, match="plan approval is recorded in SYNTHESIS"):
        engine.approve("t1", "plan", "user")


def test_claim_refuses_live_owner_and_says_who(engine: Engine) -> None:
    engine.create_task("t1")
    engine.claim("t1", "s1", pid=os.getpid())
    with pytest.raises(OwnershipError) as info:
        engine.claim("t1", "s2")
    assert "owned by session s1" in str(info.value) and "since" in str(info.value)
    assert engine.claim("t1", "s1").outcome == "renewed"


def test_claim_takes_over_from_dead_pid_and_logs_it(engine: Engine) -> None:
    engine.create_task("t1")
    proc = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    dead = int(proc.stdout)
    engine.claim("t1", "s1", pid=dead)
    result = engine.claim("t1", "s2")
    assert result.outcome == "takeover" and f"process {dead}" in (result.reason or "")
    entry = engine.load("t1").transition_log[-1]
    assert entry.kind == "takeover" and entry.session == "s2" and "s1" in (entry.note or "")


def test_claim_takes_over_after_lease_expiry(engine: Engine) -> None:
    engine.create_task("t1")
    engine.claim("t1", "s1")  # no pid: only the heartbeat can prove it gone

    def age(task):  # type: ignore[no-untyped-def]
        new = task.model_copy(deep=True)
        new.owner.heartbeat_at = utcnow() - timedelta(minutes=31)
        return new, None

    engine.mutate("t1", age)
    assert engine.claim("t1", "s2").outcome == "takeover"


def test_force_displaces_live_owner_and_is_logged(engine: Engine) -> None:
    engine.create_task("t1")
    engine.claim("t1", "s1", pid=os.getpid())
    assert engine.claim("t1", "s2", force=True).outcome == "forced"
    entry = engine.load("t1").transition_log[-1]
    assert entry.forced and entry.kind == "takeover"


def test_only_owner_moves_an_owned_task(engine: Engine) -> None:
    engine.create_task("t1")
    engine.claim("t1", "s1", pid=os.getpid())
    with pytest.raises(OwnershipError):
        engine.fire("t1", target="CLASSIFIED", session="s2")
    with pytest.raises(OwnershipError):
        engine.fire("t1", target="CLASSIFIED")
    assert engine.fire("t1", target="CLASSIFIED", session="s1").state == "CLASSIFIED"
    moved = engine.fire("t1", target="REQUIREMENTS", session="s2", force=True)
    assert moved.transition_log[-1].forced


def test_release_by_non_owner_refused(engine: Engine) -> None:
    engine.create_task("t1")
    engine.claim("t1", "s1", pid=os.getpid())
    with pytest.raises(OwnershipError):
        engine.release("t1", "s2")
    assert engine.release("t1", "s1").owner is None


def test_claim_next_skips_owned_and_terminal(engine: Engine) -> None:
    for n in ("a", "b", "c"):
        engine.create_task(n)
    engine.claim("a", "s1", pid=os.getpid())
    assert engine.claim_next("s2").task.name == "b"
    assert engine.claim_next("s3").task.name == "c"
    with pytest.raises(TaskprotoError, match="no task is ready"):
        engine.claim_next("s4")


def test_corrupt_task_json_is_quarantined_not_replaced(engine: Engine) -> None:
    engine.create_task("t1")
    path = engine.config.task_file("t1")
    path.write_text('{"schema_version": 1, "name": "t1", "state": ')
    with pytest.raises(CorruptState) as info:
        engine.fire("t1", target="CLASSIFIED")
    assert "not valid JSON" in str(info.value) and "doctor" in str(info.value)
    assert not path.exists()
    moved = list(path.parent.glob("task.json.corrupt-*"))
    assert len(moved) == 1 and moved[0].read_text().endswith('"state": ')


def test_schema_invalid_task_json_is_quarantined(engine: Engine) -> None:
    engine.create_task("t1")
    path = engine.config.task_file("t1")
    data = json.loads(path.read_text())
    data["revision"] = "many"
    path.write_text(json.dumps(data))
    with pytest.raises(CorruptState, match="revision"):
        engine.claim("t1", "s1")
    assert list(path.parent.glob("task.json.corrupt-*"))


def test_newer_schema_is_refused_and_left_alone(engine: Engine) -> None:
    engine.create_task("t1")
    path = engine.config.task_file("t1")
    data = json.loads(path.read_text())
    data["schema_version"] = 99
    path.write_text(json.dumps(data))
    before = path.read_bytes()
    with pytest.raises(TaskprotoError, match="schema_version 99"):
        engine.claim("t1", "s1")
    assert path.read_bytes() == before


def test_create_rolled_back_when_third_worktree_fails(engine: Engine, repo: Path) -> None:
    # A branch "t1-b/wip" makes the branch "t1-b" impossible (a ref cannot be a file and a folder).
    git(repo, "branch", "t1-b/wip")
    refs_before = git(repo, "for-each-ref")
    with pytest.raises(TaskprotoError, match="everything made was undone"):
        engine.create_task("t1", ["a", "b"])
    assert git(repo, "for-each-ref") == refs_before
    assert git(repo, "worktree", "list", "--porcelain").count("worktree ") == 1
    assert not engine.config.task_dir("t1").exists()


def test_create_whose_first_worktree_fails_leaves_no_journal(engine: Engine, repo: Path) -> None:
    """The journal's first commit is written while git makes the task's worktree and named by
    its ref only once all is made: a first `git worktree add` that fails leaves no ref, no task
    folder, and objects nothing names (git's garbage, `git fsck` clean)."""
    git(repo, "branch", "t1/wip")  # the branch "t1" cannot be made: git refuses
    refs_before = git(repo, "for-each-ref")
    with pytest.raises(TaskprotoError, match="everything made was undone"):
        engine.create_task("t1", ["a"])
    assert git(repo, "for-each-ref") == refs_before
    assert not engine.config.task_dir("t1").exists()
    git(repo, "fsck", "--no-dangling", "--no-progress")


def test_create_journals_the_files_it_writes(engine: Engine, repo: Path) -> None:
    """The first journal commit (written during `git worktree add`) holds task.json and each
    agent's status exactly as they are on disk, and is the journal's only commit."""
    engine.create_task("t1", ["a", "b"])
    ref = "refs/taskproto/tasks/t1"
    assert git(repo, "rev-list", "--count", ref) == "1"
    files = {
        "task.json": engine.config.task_file("t1"),
        "status-a.json": engine.config.status_file("t1", "a"),
        "status-b.json": engine.config.status_file("t1", "b"),
    }
    for entry, path in files.items():
        assert git(repo, "show", f"{ref}:{entry}") == path.read_text().strip()
    assert git(repo, "ls-tree", "--name-only", ref).split() == sorted(files)


def test_create_refuses_existing_task(engine: Engine) -> None:
    engine.create_task("t1")
    with pytest.raises(TaskprotoError, match="already"):
        engine.create_task("t1")


def test_remove_refuses_uncommitted_changes_and_unmerged_commits(
    engine: Engine, repo: Path
) -> None:
    engine.create_task("t1", ["dev"])
    wt = engine.config.agent_worktree("t1", "dev")
    (wt / "draft.txt").write_text("work in progress\n")
    with pytest.raises(WorkAtRisk, match="uncommitted"):
        engine.remove_task("t1")
    assert (wt / "draft.txt").exists()
    git(wt, "add", "draft.txt")
    git(wt, "commit", "-qm", "draft")
    with pytest.raises(WorkAtRisk, match="1 commit"):
        engine.remove_task("t1")
    assert git(repo, "rev-parse", "--verify", "t1-dev")
    git(repo, "merge", "-q", "t1-dev")
    plan = engine.remove_task("t1")
    assert plan.branches == ["t1", "t1-dev"]
    assert not engine.config.task_dir("t1").exists()
    assert git(repo, "for-each-ref", "refs/heads").count("\n") == 0  # only main left
    assert journal.latest_archive(engine.repo, "t1")


def test_remove_force_discards(engine: Engine, repo: Path) -> None:
    engine.create_task("t1", ["dev"])
    commit_file(engine.config.agent_worktree("t1", "dev"), "x.txt")
    engine.remove_task("t1", force=True)
    assert not engine.config.task_dir("t1").exists()


def test_journal_has_a_commit_per_change_and_matches_task_json(engine: Engine) -> None:
    engine.create_task("t1", ["dev"])
    engine.claim("t1", "s1")
    walk_to(engine, "t1", ["CLASSIFIED", "REQUIREMENTS"], session="s1")
    engine.heartbeat("t1", "s1")  # liveness only: not journaled
    history = journal.history(engine.repo, journal.ref_for("t1"))
    assert [c.message.splitlines()[0] for c in history] == [
        "gather_requirements: CLASSIFIED -> REQUIREMENTS",
        "classify: INIT -> CLASSIFIED",
        "claim: s1",
        "create: INIT",
    ]
    newest = store.parse(
        type(engine.load("t1")), Path("j"), history[0].files.get("task.json") or b"", False
    )
    assert newest.significant() == engine.load("t1").significant()


def test_agent_status_update(engine: Engine) -> None:
    engine.create_task("t1", ["dev"])
    status = engine.set_agent_status("t1", "dev", AgentState.ERROR, "build broke")
    assert status.error_message == "build broke"
    with pytest.raises(TaskprotoError, match="not an agent"):
        engine.set_agent_status("t1", "nobody", AgentState.WORKING)

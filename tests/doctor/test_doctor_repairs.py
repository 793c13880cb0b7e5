"""What the fixes leave behind: reconstructed tasks, recovered commits, refusals that keep work."""

from __future__ import annotations

import shutil

from doctor_helpers import Env, commit_file, ids

from taskproto.state import journal
from taskproto.state.models import AgentState


def test_lost_task_json_without_journal_is_reconstructed_for_review(env: Env) -> None:
    env.engine.fire("t", "classify")
    env.task_file().unlink()
    env.git("update-ref", "-d", journal.ref_for("t"))
    report = env.doctor(fix=True)
    assert report.healthy
    task = env.engine.load("t")
    # never invent a later state: the initial state, flagged, with the reason in the log
    assert task.state == "INIT" and task.needs_review
    assert task.required_agents == ["a", "b"]
    first = task.transition_log[0]
    assert (
        first.kind == "repair"
        and first.from_state is None
        and "state is unknown" in (first.note or "")
    )
    assert ids(env.doctor()) == {"needs-review"}  # info only: exit 0


def test_corrupt_task_json_is_kept_aside_and_rebuilt_from_the_journal(env: Env) -> None:
    env.engine.fire("t", "classify")
    env.task_file().write_text("garbage")
    env.doctor(fix=True)
    assert env.engine.load("t").state == "CLASSIFIED"
    kept = [p for p in env.task_file().parent.iterdir() if p.name.startswith("task.json.corrupt-")]
    assert [p.read_text() for p in kept] == ["garbage"]


def test_deleted_task_branch_comes_back_at_its_last_commit(env: Env) -> None:
    sha = commit_file(env.worktree(), "work.txt", "task work\n")
    env.git("update-ref", "-d", "refs/heads/t")
    env.doctor(fix=True)
    assert env.git("rev-parse", "refs/heads/t") == sha


def test_wrong_branch_with_uncommitted_changes_is_escalated_not_switched(env: Env) -> None:
    wt = env.worktree("a")
    env.git("switch", "--quiet", "-c", "scratch", cwd=wt)
    (wt / "draft.txt").write_text("unsaved\n")
    report = env.doctor(fix=True)
    assert "worktree-wrong-branch" in ids(report)
    failed = [x for x in report.fixes if x.finding.check == "worktree-wrong-branch"]
    assert failed[0].status == "failed" and "uncommitted" in str(failed[0].error)
    assert (wt / "draft.txt").read_text() == "unsaved\n"
    assert env.git("branch", "--show-current", cwd=wt) == "scratch"
    assert any("Recovery Attempts**: doctor --fix" in text for text in report.escalations.values())


def test_orphan_branch_with_unique_commits_is_kept(env: Env) -> None:
    env.engine.create_task("gone")
    env.engine.remove_task("gone")
    env.git("branch", "gone", "main")
    sha = commit_file(env.repo, "only-here.txt", "unique\n")
    env.git("branch", "-f", "gone", sha)
    env.git("reset", "--quiet", "--hard", "HEAD~1")
    report = env.doctor(fix=True)
    assert "orphan-branch" in ids(report)
    assert env.git("rev-parse", "refs/heads/gone") == sha
    assert "1 commit(s) found on no other branch" in str(report.fixes[-1].error)


def test_agent_retry_needs_the_flag(env: Env) -> None:
    env.engine.set_agent_status("t", "a", AgentState.ERROR, "boom")
    report = env.doctor(fix=True)
    assert "agent-error-retryable" in ids(report)
    assert [x.status for x in report.fixes] == ["skipped"]
    env.doctor(fix=True, retry_agents=True)
    status = env.engine.agent_status("t", "a")
    assert status is not None and status.status == AgentState.PENDING and status.retry_count == 1


def test_dry_run_changes_nothing(env: Env) -> None:
    env.task_file().write_text("{")
    shutil.rmtree(env.worktree("b"))
    before = env.git("worktree", "list", "--porcelain")
    report = env.doctor(dry_run=True)
    assert {x.status for x in report.fixes} == {"planned"}
    assert env.task_file().read_text() == "{"
    assert env.git("worktree", "list", "--porcelain") == before
    assert not report.healthy


def test_no_fix_ever_loses_a_commit_or_an_uncommitted_change(env: Env) -> None:
    """Make both, break everything around them, run --fix, check they are still there."""
    wt_a, wt_b = env.worktree("a"), env.worktree("b")
    sha = commit_file(wt_a, "agent-work.txt", "committed work\n")
    (wt_b / "wip.txt").write_text("uncommitted work\n")
    (env.worktree() / "notes.txt").write_text("untracked notes\n")
    # break everything around them
    env.task_file().write_text("{torn")
    env.git("update-ref", "-d", "refs/heads/t-a")  # the only ref holding the commit
    shutil.rmtree(env.admin_dir(wt_b))  # b's folder is no longer a registered worktree
    env.git(
        "switch", "--quiet", "--detach", cwd=env.worktree()
    )  # task worktree on the wrong "branch"
    env.config.status_file("t", "a").write_text("nope")
    env.engine.create_task("gone")
    env.engine.remove_task("gone")
    env.git("branch", "gone", sha)  # an orphan branch whose commit is unique once t-a is gone
    report = env.doctor(fix=True, retry_agents=True)
    # the commit: on a branch again
    assert env.git("branch", "--contains", sha)
    assert env.git("cat-file", "-t", sha) == "commit"
    assert env.git("rev-parse", "refs/heads/t-a") == sha
    # the uncommitted change: still on disk (moved aside with its folder, never deleted)
    kept = [p for p in (wt_b.parent).iterdir() if p.name.startswith("code.unregistered-")]
    assert len(kept) == 1 and (kept[0] / "wip.txt").read_text() == "uncommitted work\n"
    assert (env.worktree() / "notes.txt").read_text() == "untracked notes\n"
    # the orphan was not deleted while it held the only ref to the commit
    assert env.git("rev-parse", "refs/heads/gone") == sha
    assert "lock-invalid-json" not in ids(report)


def test_stale_journal_ref_lock_from_a_killed_git_is_removed_and_nothing_was_saved_without_it(
    env: Env,
) -> None:
    import os
    import time

    import pytest

    from taskproto.errors import TaskprotoError

    lock = env.engine.git.common_dir() / "refs" / "taskproto" / "tasks" / "t.lock"
    lock.write_text("")  # what `git update-ref` leaves when it is killed mid-update
    before = env.task_file().read_bytes()
    with pytest.raises(TaskprotoError, match="journal of t could not be written.*t.lock"):
        env.engine.fire("t", "classify")  # the journal is the authority: no journal, no change
    assert env.task_file().read_bytes() == before
    old = time.time() - 120
    os.utime(lock, (old, old))
    assert ids(env.doctor()) == {"journal-ref-locked"}
    report = env.doctor(fix=True)
    assert report.healthy, report
    assert not lock.exists()
    env.engine.fire("t", "classify")
    newest = journal.task_json_at(env.engine.repo, journal.ref_for("t"))
    assert newest is not None and newest["state"] == "CLASSIFIED"
    assert ids(env.doctor()) == set()


def test_a_fresh_ref_lock_is_left_alone(env: Env) -> None:
    lock = env.engine.git.common_dir() / "refs" / "taskproto" / "tasks" / "t.lock"
    lock.write_text("")  # a git process may be holding it right now
    assert "journal-ref-locked" not in ids(env.doctor())
    env.doctor(fix=True)
    assert lock.exists()
    lock.unlink()


def test_an_agent_status_the_journal_does_not_hold_is_set_aside_and_the_journals_restored(
    env: Env,
) -> None:
    from taskproto.state import store
    from taskproto.state.models import AgentStatus, utcnow

    # a status file written behind taskproto's back (or a save killed before its status file,
    # which leaves the journal's newer one to restore)
    path = env.engine.config.status_file("t", "a")
    store.save_status(path, AgentStatus(agent="a", status=AgentState.COMPLETE, updated_at=utcnow()))
    found = env.doctor()
    assert "agent-status-not-journaled" in ids(found)
    assert any("agent a" in f.message for f in found.findings)
    assert env.doctor(fix=True).healthy
    assert store.load_status(path).status == AgentState.PENDING
    kept = [p for p in path.parent.iterdir() if ".agent-status-not-journaled-" in p.name]
    assert len(kept) == 1 and b'"COMPLETE"' in kept[0].read_bytes()  # kept, never deleted
    assert ids(env.doctor()) == set()

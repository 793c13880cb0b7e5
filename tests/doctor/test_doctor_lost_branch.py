"""A deleted agent or task branch whose commits existed: restored at its last commit, or refused
with the commits named; never re-created at another commit while the work dangles."""

from __future__ import annotations

from pathlib import Path

from doctor_helpers import Env, commit_file, ids


def _drop(env: Env, agent: str) -> None:
    """What a person does by hand: remove the agent's worktree, then delete its branch."""
    env.git("worktree", "remove", "--force", str(env.worktree(agent)))
    env.git("branch", "-D", f"t-{agent}")


def test_a_branch_deleted_under_its_worktree_comes_back_at_its_last_commit(env: Env) -> None:
    sha = commit_file(env.worktree("a"), "work.txt", "agent work\n")
    env.git("update-ref", "-d", "refs/heads/t-a")
    assert "agent-branch-missing" in ids(env.doctor())
    report = env.doctor(fix=True)
    assert report.healthy
    assert env.git("rev-parse", "t-a") == sha


def test_a_deleted_branch_with_its_work_dangling_is_not_recreated_elsewhere(env: Env) -> None:
    sha = commit_file(env.worktree("a"), "work.txt", "agent work\n")
    _drop(env, "a")
    report = env.doctor(fix=True)
    assert not report.healthy
    failed = [x for x in report.fixes if x.finding.check == "agent-branch-missing"]
    assert failed and failed[0].status == "failed"
    assert sha[:12] in str(failed[0].error) and "git branch t-a" in str(failed[0].error)
    assert env.git("branch", "--list", "t-a") == ""  # not re-created at the base
    # the person restores it as told; doctor then finishes the job
    env.git("branch", "t-a", sha)
    assert env.doctor(fix=True).healthy
    assert (env.worktree("a") / "work.txt").read_text() == "agent work\n"


def test_a_deleted_branch_is_restored_from_the_shared_remote(env: Env, tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    env.git("init", "--quiet", "--bare", str(remote))
    env.git("remote", "add", "origin", str(remote))
    sha = commit_file(env.worktree("b"), "work.txt", "agent b work\n")
    env.git("push", "--quiet", "origin", "t-b")
    env.git("fetch", "--quiet", "origin")
    _drop(env, "b")
    report = env.doctor(fix=True)
    assert report.healthy, [(x.finding.check, x.error) for x in report.fixes if x.error]
    assert env.git("rev-parse", "t-b") == sha
    fixes = [x.action for x in report.fixes if x.finding.check == "agent-branch-missing"]
    assert "refs/remotes/origin/t-b" in fixes[0]


def test_a_branch_whose_last_commit_is_gone_names_the_lost_commit(env: Env) -> None:
    _drop(env, "b")
    lost = "1234567890abcdef1234567890abcdef12345678"
    ref = env.engine.config.common_dir / "refs" / "remotes" / "origin" / "t-b"
    ref.parent.mkdir(parents=True)
    ref.write_text(lost + "\n")  # the remote's copy names a commit this clone never got
    report = env.doctor(fix=True)
    failed = [x for x in report.fixes if x.finding.check == "agent-branch-missing"]
    assert failed and "1234567890ab" in str(failed[0].error) and "lost" in str(failed[0].error)
    assert env.git("branch", "--list", "t-b") == ""


def test_a_fresh_agent_branch_with_no_work_is_recreated_at_the_base(env: Env) -> None:
    _drop(env, "b")
    report = env.doctor(fix=True)
    assert report.healthy
    assert env.git("rev-parse", "t-b") == env.engine.load("t").base

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


def test_a_deleted_branch_with_its_work_dangling_is_not_recreated_elsewhere(
    env: Env, cli: object
) -> None:
    sha = commit_file(env.worktree("a"), "work.txt", "agent work\n")
    _drop(env, "a")
    report = env.doctor(fix=True)
    assert not report.healthy
    failed = [x for x in report.fixes if x.finding.check == "agent-branch-missing"]
    assert failed and failed[0].status == "failed"
    assert sha[:12] in str(failed[0].error)
    assert "taskproto recover t --option N" in str(failed[0].error)
    assert env.git("branch", "--list", "t-a") == ""  # not re-created at the base
    # the person restores it as told; doctor then finishes the job
    r = cli("recover", "t", "--option", "1")  # type: ignore[operator]
    assert r.code == 0 and f"git branch t-a {sha}" in r.out, r.err
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


def _with_hooks_in_implementation(env: Env) -> None:
    from taskproto.git.command import Git
    from taskproto.hooks.git import install
    from tests.hooks.agents.conftest import move_to

    install.install(Git(env.repo))
    env.engine.claim("t", "s1")
    move_to(env.engine, "t", "IMPLEMENTATION")


def _stash_twice(env: Env) -> None:
    """Stashes in the main worktree: the older one is in the stash's reflog only, so `git fsck
    --no-reflogs` lists it as unreachable, standing on the task's base."""
    for text in ("one\n", "two\n"):
        (env.repo / "README.md").write_text(text)
        env.git("stash", "--quiet")


def test_a_deleted_agent_branch_comes_back_where_its_merge_record_says(env: Env) -> None:
    """The task's merge record names the commit the agent branch had when it was merged; doctor
    re-creates the branch there itself, in a state whose hooks refuse a hand-made branch, and
    never at a stash or at the task branch's head."""
    from tests.hooks.agents.conftest import move_to

    _with_hooks_in_implementation(env)
    sha = commit_file(env.worktree("a"), "work.txt", "agent work\n")
    env.engine.merge("t", session="s1")
    _drop(env, "a")  # allowed in IMPLEMENTATION
    _stash_twice(env)
    move_to(env.engine, "t", "REVIEW")  # no commits here: the hook refuses `git branch t-a`
    report = env.doctor(fix=True)
    assert report.healthy, [(x.finding.check, x.error) for x in report.fixes if x.error]
    assert env.git("rev-parse", "t-a") == sha
    (action,) = [x.action for x in report.fixes if x.finding.check == "agent-branch-missing"]
    assert "last move" in action, action  # the hook's record; the merge record says the same
    # deleted again behind the hooks, with no record of its moves left: the merge record
    env.git("worktree", "remove", "--force", str(env.worktree("a")))
    env.git("-c", "core.hooksPath=/dev/null", "update-ref", "-d", "refs/heads/t-a")
    (env.config.task_dir("t") / "tips.log").unlink()
    report = env.doctor(fix=True)
    assert report.healthy, [(x.finding.check, x.error) for x in report.fixes if x.error]
    assert env.git("rev-parse", "t-a") == sha
    (action,) = [x.action for x in report.fixes if x.finding.check == "agent-branch-missing"]
    assert "merge record" in action, action
    assert (env.worktree("a") / "work.txt").read_text() == "agent work\n"


def test_the_command_doctor_prints_for_a_lost_branch_is_accepted(env: Env, cli: object) -> None:
    """Nothing taskproto keeps names the branch's commit: doctor names the commit that dangles on
    the task's base (never a stash) and prints a command that works in a state where the hook
    refuses `git branch`; running it restores the branch."""
    import shlex

    from tests.hooks.agents.conftest import move_to

    _with_hooks_in_implementation(env)
    sha = commit_file(env.worktree("a"), "work.txt", "agent work\n")
    _drop(env, "a")
    (env.config.task_dir("t") / "tips.log").unlink()  # as if the hooks had been off meanwhile
    _stash_twice(env)
    move_to(env.engine, "t", "REVIEW")
    r = cli("doctor", "--fix")  # type: ignore[operator]
    assert r.code == 1
    assert sha[:12] in r.out and "stash" not in r.out.lower(), r.out
    stashes = env.git("rev-list", "--walk-reflogs", "refs/stash").split()
    assert not any(s[:12] in r.out for s in stashes), r.out
    printed = [line for line in r.out.splitlines() if "Run it: `" in line]
    assert len(printed) == 1 and f"t-a at {sha[:12]}" in printed[0], r.out
    command = printed[0].split("Run it: `")[1].split("`")[0]
    refused = env.git_status("branch", "t-a", sha)  # what the old message told the user to run
    assert refused != 0
    argv = shlex.split(command)
    assert argv[0] == "taskproto"
    r = cli(*argv[1:])  # type: ignore[operator]
    assert r.code == 0, r.err
    assert env.git("rev-parse", "t-a") == sha
    assert env.doctor(fix=True).healthy
    assert (env.worktree("a") / "work.txt").read_text() == "agent work\n"


def test_a_deleted_branch_comes_back_at_exactly_its_last_move(env: Env) -> None:
    """The reference-transaction hook records every move of a task or agent branch (issue #39):
    after commits, a rewind and the branch's deletion, doctor re-creates it at the commit it
    last held, not at the most advanced commit some source names, with nothing to choose."""
    _with_hooks_in_implementation(env)
    first = commit_file(env.worktree("a"), "work.txt", "agent work\n")
    commit_file(env.worktree("a"), "more.txt", "more work\n")
    env.git("-C", str(env.worktree("a")), "reset", "--quiet", "--hard", first)  # rewound
    _drop(env, "a")
    report = env.doctor(fix=True)
    assert report.healthy, [(x.finding.check, x.error) for x in report.fixes if x.error]
    assert env.git("rev-parse", "t-a") == first
    (action,) = [x.action for x in report.fixes if x.finding.check == "agent-branch-missing"]
    assert "last move" in action, action
    assert (env.worktree("a") / "work.txt").read_text() == "agent work\n"
    assert not (env.worktree("a") / "more.txt").exists()


def test_the_tips_record_stays_bounded_and_keeps_each_branchs_last_move(tmp_path: Path) -> None:
    from taskproto.state import tips

    for i in range(2000):
        tips.record(str(tmp_path), [(f"{i:040d}", f"{i + 1:040d}", "t-a")])
        if i == 5:
            tips.record(str(tmp_path), [("1" * 40, "2" * 40, "t-b")])
    assert tips.last(str(tmp_path), "t-a") == f"{2000:040d}"
    assert tips.last(str(tmp_path), "t-b") == "2" * 40
    assert all(p.stat().st_size < 2 * tips.LIMIT for p in tmp_path.iterdir())
    tips.record(str(tmp_path), [(f"{2000:040d}", tips.ZERO, "t-a")])  # deleted: its last value
    assert tips.last(str(tmp_path), "t-a") == f"{2000:040d}"
    assert tips.last(str(tmp_path), "t-c") is None

"""The branches themselves are guarded: every git command that would move a task or agent branch in
a state that forbids commits, another agent's branch, or a task's journal is refused by the
reference-transaction hook, whatever the command. Real git, real hooks, real worktrees."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from taskproto.engine import Engine
from taskproto.git.command import Git
from taskproto.hooks.git import install
from taskproto.state import journal
from tests.conftest import commit_file, git
from tests.hooks.agents.conftest import move_to

SESSION = "s1"


UNHOOKED = ("-c", "core.hooksPath=/dev/null")  # git without taskproto's hooks, for a setup


def sh(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)


def branch(engine: Engine, name: str) -> str:
    return git(engine.config.repo, "rev-parse", f"refs/heads/{name}")


@pytest.fixture
def guarded(engine: Engine, repo: Path) -> Engine:
    """Hooks installed; task t1 (agents dev, qa) in INIT; a commit on branch `feature` to move
    to."""
    install.install(Git(repo))
    engine.create_task("t1", ["dev", "qa"])
    engine.claim("t1", SESSION)
    git(repo, "checkout", "-q", "-b", "feature")
    commit_file(repo, "feature.txt", "feature\n")
    git(repo, "checkout", "-q", "main")
    return engine


def dev(engine: Engine) -> Path:
    return engine.config.agent_worktree("t1", "dev")


MOVES_IN_INIT = [
    ["commit", "--no-verify", "--allow-empty", "-m", "skip the hooks"],
    ["merge", "--ff-only", "feature"],
    ["merge", "--no-ff", "--no-verify", "-m", "m", "feature"],
    ["cherry-pick", "feature"],
    ["reset", "--hard", "feature"],
    ["update-ref", "refs/heads/t1-dev", "feature"],
    ["branch", "-f", "t1-qa", "feature"],
    ["push", ".", "feature:t1-qa"],
    ["fetch", ".", "+feature:t1-qa"],
    ["rebase", "feature"],
]


@pytest.mark.parametrize("command", MOVES_IN_INIT, ids=lambda c: " ".join(c[:2]))
def test_no_git_command_moves_a_branch_in_a_state_without_commits(
    guarded: Engine, command: list[str]
) -> None:
    # git itself refuses to move a branch checked out in a worktree: qa's worktree lets go of
    # t1-qa (behind the hooks, which refuse a detached HEAD there), so what refuses below is
    # taskproto's hook.
    git(guarded.config.agent_worktree("t1", "qa"), *UNHOOKED, "checkout", "-q", "--detach")
    before = {b: branch(guarded, b) for b in ("t1-dev", "t1-qa", "t1")}
    proc = sh(dev(guarded), *command)
    assert proc.returncode != 0, proc.stdout + proc.stderr
    # refused by the state rule, or (for qa's branch, from dev's worktree) by the own-branch rule
    assert "taskproto:" in proc.stderr and "refused" in proc.stderr, proc.stderr
    sh(dev(guarded), "rebase", "--abort")
    sh(dev(guarded), "cherry-pick", "--abort")
    assert {b: branch(guarded, b) for b in ("t1-dev", "t1-qa", "t1")} == before


def test_commit_tree_then_update_ref_is_refused(guarded: Engine) -> None:
    wt = dev(guarded)
    tree = git(wt, "write-tree")
    commit = subprocess.run(
        ["git", "commit-tree", tree, "-p", "HEAD", "-m", "sneaky"],
        cwd=wt,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    before = branch(guarded, "t1-dev")
    proc = sh(wt, "update-ref", "refs/heads/t1-dev", commit)
    assert proc.returncode != 0 and "does not allow commits" in proc.stderr
    assert branch(guarded, "t1-dev") == before


def test_a_detached_commit_cannot_be_moved_onto_the_branch(guarded: Engine) -> None:
    wt = dev(guarded)
    # made behind the hooks (they refuse a detached HEAD in an agent's worktree)
    git(wt, *UNHOOKED, "checkout", "-q", "--detach")
    assert sh(wt, *UNHOOKED, "commit", "--allow-empty", "-m", "detached").returncode == 0
    before = branch(guarded, "t1-dev")
    proc = sh(wt, "branch", "-f", "t1-dev", "HEAD")
    assert proc.returncode != 0 and "does not allow commits" in proc.stderr
    assert branch(guarded, "t1-dev") == before


def test_in_implementation_an_agent_moves_only_its_own_branch(guarded: Engine) -> None:
    move_to(guarded, "t1", "IMPLEMENTATION")
    git(guarded.config.agent_worktree("t1", "qa"), *UNHOOKED, "checkout", "-q", "--detach")
    git(guarded.config.task_worktree("t1"), *UNHOOKED, "checkout", "-q", "--detach")
    wt = dev(guarded)
    (wt / "mine.txt").write_text("mine\n")
    git(wt, "add", "mine.txt")
    assert sh(wt, "commit", "-m", "own work").returncode == 0  # its own branch moves
    for command in (
        ["branch", "-f", "t1-qa", "HEAD"],
        ["update-ref", "refs/heads/t1", "HEAD"],
        ["push", ".", "HEAD:t1-qa"],
    ):
        before = {b: branch(guarded, b) for b in ("t1-qa", "t1")}
        proc = sh(wt, *command)
        assert proc.returncode != 0 and "an agent moves only its own branch" in proc.stderr, command
        assert {b: branch(guarded, b) for b in ("t1-qa", "t1")} == before


def test_another_worktrees_git_dir_does_not_carry_a_move_from_an_agents_worktree(
    guarded: Engine,
) -> None:
    """GIT_DIR (or `--git-dir`) naming qa's or the task's git dir, and no work tree: git works in
    dev's worktree, where it was started, with the other worktree's HEAD. The hook took the place
    from the git dir's `gitdir` file (qa's worktree) and let qa's branch move from dev's."""
    move_to(guarded, "t1", "IMPLEMENTATION")
    wt = dev(guarded)
    for name in ("t1-qa", "t1"):
        where = guarded.config.agent_worktree("t1", "qa") if name == "t1-qa" else None
        other = where or guarded.config.task_worktree("t1")
        absolute = git(other, "rev-parse", "--absolute-git-dir")
        for env, args in (
            ({"GIT_DIR": absolute}, []),
            ({"GIT_DIR": os.path.relpath(other / ".git", wt)}, []),
            ({}, [f"--git-dir={absolute}"]),
        ):
            before = {b: branch(guarded, b) for b in ("t1-dev", "t1-qa", "t1")}
            proc = subprocess.run(
                ["git", *args, "commit", "--allow-empty", "-qm", "dev as another"],
                cwd=wt, env={**os.environ, **env}, capture_output=True, text=True, check=False,
            )  # fmt: skip
            assert proc.returncode != 0, (name, env, args)
            refusal = [line for line in proc.stderr.splitlines() if line.startswith("taskproto:")]
            assert refusal == [
                f"taskproto: refused: moving branch {name!r} "
                f"({'agent qa of task t1' if where else 'task t1'}) from the "
                "worktree of agent dev of task t1; an agent moves only its own branch (merging "
                "agents into the task branch is `taskproto merge t1`)"
            ], proc.stderr
            assert {b: branch(guarded, b) for b in ("t1-dev", "t1-qa", "t1")} == before


@pytest.mark.parametrize("fastpath", ["1", "0"], ids=["shell-fast-path", "python"])
def test_the_main_git_dir_does_not_carry_a_move_of_main_from_an_agents_worktree(
    guarded: Engine, fastpath: str
) -> None:
    """GIT_DIR (or `--git-dir`) naming the main repository's `.git`, absolute or relative, with
    no work tree or dev's own: git works in dev's worktree with the main worktree's HEAD. The hook
    took its place from the git dir (the main worktree, where `main` moves) and let it through,
    in the shell's fast path and in Python alike. With the main worktree named as the work tree
    (`--work-tree`, GIT_WORK_TREE) it is the user's main worktree: a process `agent start`
    started is refused there too (tests/agents/test_agent_branches.py)."""
    move_to(guarded, "t1", "IMPLEMENTATION")
    wt, main = dev(guarded), guarded.config.repo
    absolute = str(main / ".git")
    refs = git(main, "for-each-ref", "--format=%(refname) %(objectname)")
    for env, args in (
        ({"GIT_DIR": absolute}, []),
        ({"GIT_DIR": os.path.relpath(absolute, wt)}, []),
        ({}, [f"--git-dir={absolute}"]),
        ({}, [f"--git-dir={absolute}", "--work-tree=."]),
        ({"GIT_DIR": absolute, "GIT_WORK_TREE": str(wt)}, []),
    ):
        proc = subprocess.run(
            ["git", *args, "commit", "--allow-empty", "-qm", "dev on main"], cwd=wt,
            env={**os.environ, **env, "TASKPROTO_HOOK_FASTPATH": fastpath},
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert proc.returncode != 0, (env, args)
        refusal = [line for line in proc.stderr.splitlines() if line.startswith("taskproto:")]
        assert refusal == [
            "taskproto: refused: moving refs/heads/main from the worktree of agent dev of task "
            "t1: from there only its own branch t1-dev moves; work reaches the base branch "
            "through the user's `taskproto land t1`"
        ], (env, args, proc.stderr)
        assert git(main, "for-each-ref", "--format=%(refname) %(objectname)") == refs


def test_the_journal_moves_only_through_taskproto(guarded: Engine) -> None:
    ref = journal.ref_for("t1")
    head = git(guarded.config.repo, "rev-parse", ref)
    for command in (["update-ref", "-d", ref], ["update-ref", ref, "feature"]):
        proc = sh(guarded.config.repo, *command)
        assert proc.returncode != 0 and "only taskproto writes it" in proc.stderr
        assert git(guarded.config.repo, "rev-parse", ref) == head
    guarded.fire("t1", "classify", session=SESSION)  # taskproto's own write still goes through
    assert git(guarded.config.repo, "rev-parse", ref) != head


def test_taskproto_itself_still_creates_and_removes_tasks(guarded: Engine) -> None:
    guarded.create_task("t2", ["a"])
    assert branch(guarded, "t2-a")
    guarded.remove_task("t2")
    assert sh(guarded.config.repo, "rev-parse", "--verify", "refs/heads/t2-a").returncode != 0


def test_a_merge_commit_gets_the_friendly_message_first(guarded: Engine) -> None:
    wt = guarded.config.task_worktree("t1")
    proc = sh(wt, "merge", "--no-ff", "-m", "merge", "feature")
    assert proc.returncode != 0
    assert "commit refused on branch 't1' (task t1): task t1 is in INIT" in proc.stderr
    sh(wt, "merge", "--abort")


def status(wt: Path) -> str:
    return git(wt, "status", "--porcelain", "--untracked-files=all")


@pytest.mark.parametrize(
    "command",
    [
        ["merge", "feature"],
        ["merge", "--ff-only", "feature"],
        ["pull", "--no-rebase", ".", "feature"],
    ],
    ids=lambda c: " ".join(c[:2]),
)
def test_a_refused_fast_forward_leaves_the_files_as_they_were(
    guarded: Engine, command: list[str]
) -> None:
    # git updates the index and the files of a fast-forward before it moves the branch, where
    # the hook refuses: the hook puts them back, keeping the user's own changes
    wt = guarded.config.task_worktree("t1")
    (wt / "README.md").write_text("mine, not committed\n")
    (wt / "staged.txt").write_text("staged\n")
    git(wt, "add", "staged.txt")
    before, head = status(wt), branch(guarded, "t1")
    proc = sh(wt, *command)
    assert proc.returncode != 0
    assert "does not allow commits" in proc.stderr
    assert "the files are as they were before the merge" in proc.stderr, proc.stderr
    assert branch(guarded, "t1") == head
    assert status(wt) == before
    assert not (wt / "feature.txt").exists()
    assert (wt / "README.md").read_text() == "mine, not committed\n"


def test_a_reset_to_head_moves_no_branch_and_is_not_refused(guarded: Engine) -> None:
    # git rewrites HEAD and its branch with the value they hold (old == new): no move
    wt = guarded.config.task_worktree("t1")
    (wt / "README.md").write_text("changed\n")
    head = branch(guarded, "t1")
    for command in (
        ["reset", "--hard", "HEAD"],
        ["reset", "--hard"],
        ["update-ref", "refs/heads/t1-qa", branch(guarded, "t1-qa"), branch(guarded, "t1-qa")],
        ["update-ref", "refs/heads/t1-qa", branch(guarded, "t1-qa")],  # no old value given
    ):
        proc = sh(wt, *command)
        assert proc.returncode == 0, (command, proc.stderr)
        assert "refused" not in proc.stderr
    assert branch(guarded, "t1") == head
    assert status(wt) == ""


def test_a_refused_rebase_can_be_aborted(guarded: Engine) -> None:
    # the rebase's last step (moving the branch) is refused; `git rebase --abort` writes the
    # branch with the value it still holds (git gives no old value): no move, not refused
    wt = guarded.config.task_worktree("t1")
    internal = {**os.environ, "TASKPROTO_INTERNAL": "1"}  # a commit made behind the guard
    git(wt, "commit", "--no-verify", "--allow-empty", "-m", "own", env=internal)
    head = branch(guarded, "t1")
    proc = sh(wt, "rebase", "feature")
    assert proc.returncode != 0 and "does not allow commits" in proc.stderr
    assert branch(guarded, "t1") == head
    proc = sh(wt, "rebase", "--abort")
    assert proc.returncode == 0, proc.stderr
    assert branch(guarded, "t1") == head
    assert git(wt, "rev-parse", "--abbrev-ref", "HEAD") == "t1" and status(wt) == ""
    elsewhere = git(guarded.config.repo, "rev-parse", "feature")
    proc = sh(guarded.config.repo, "update-ref", "refs/heads/t1-qa", elsewhere)  # a real move
    assert proc.returncode != 0 and "does not allow commits" in proc.stderr

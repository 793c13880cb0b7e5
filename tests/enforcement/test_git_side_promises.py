"""Issue #39, the git side: what an agent runs with git from its worktree, without a sandbox.
The base branch moves only through `land`; no replacement object can stand in for a journal
commit; a task waiting for the user takes no commit. Real git, real hooks, real worktrees."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from taskproto.engine import Engine
from taskproto.git.command import Git
from taskproto.hooks.git import install
from taskproto.state import journal
from tests.conftest import commit_file, git, run_taskproto
from tests.hooks.agents.conftest import move_to

SESSION = "s1"


def sh(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)


def tip(engine: Engine, ref: str) -> str:
    return git(engine.config.repo, "rev-parse", ref)


@pytest.fixture
def working(engine: Engine, repo: Path) -> Engine:
    """Hooks installed; task t1 (agents dev, qa) in IMPLEMENTATION, owned by s1; dev committed."""
    install.install(Git(repo))
    git(repo, "branch", "feature")
    engine.create_task("t1", ["dev", "qa"])
    engine.claim("t1", SESSION)
    move_to(engine, "t1", "IMPLEMENTATION")
    commit_file(engine.config.agent_worktree("t1", "dev"), "work.py", "x = 1\n")
    return engine


def dev(engine: Engine) -> Path:
    return engine.config.agent_worktree("t1", "dev")


# --- the base branch -------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["update-ref", "refs/heads/main", "HEAD"],
        ["branch", "-f", "feature", "HEAD"],
        ["push", ".", "HEAD:feature"],
        ["update-ref", "refs/heads/scratch", "HEAD"],
        ["update-ref", "refs/notes/commits", "HEAD"],
        ["update-ref", "-d", "refs/heads/main"],
    ],
    ids=lambda c: " ".join(c),
)
def test_from_an_agents_worktree_no_ref_but_its_own_branch_moves(
    working: Engine, command: list[str]
) -> None:
    """Before: the guard watched task and agent branches only, and main took the agent's commit."""
    before = {b: tip(working, f"refs/heads/{b}") for b in ("main", "feature")}
    proc = sh(dev(working), *command)
    assert proc.returncode != 0, proc.stderr
    assert "from the worktree of agent dev of task t1" in proc.stderr, proc.stderr
    assert "taskproto land t1" in proc.stderr
    assert {b: tip(working, f"refs/heads/{b}") for b in ("main", "feature")} == before
    assert sh(working.config.repo, "rev-parse", "--verify", "-q", "refs/heads/scratch").returncode


def test_the_task_worktree_moves_only_the_task_branch(working: Engine) -> None:
    wt = working.config.task_worktree("t1")
    main = tip(working, "refs/heads/main")
    proc = sh(wt, "update-ref", "refs/heads/main", tip(working, "refs/heads/t1-dev"))
    assert proc.returncode != 0 and "from the worktree of task t1" in proc.stderr, proc.stderr
    assert tip(working, "refs/heads/main") == main


def test_what_git_itself_writes_in_the_worktree_still_works(working: Engine) -> None:
    wt = dev(working)
    (wt / "more.py").write_text("y = 2\n")
    git(wt, "add", "more.py")
    assert sh(wt, "commit", "-m", "more").returncode == 0  # its own branch and HEAD
    (wt / "more.py").write_text("y = 3\n")
    assert sh(wt, "stash").returncode == 0  # refs/stash
    assert sh(wt, "stash", "pop").returncode == 0
    git(wt, "commit", "-qam", "y3")
    proc = sh(wt, "reset", "--hard", "HEAD~1")  # ORIG_HEAD, the own branch
    assert proc.returncode == 0, proc.stderr
    # HEAD alone moves as its branch's (a detached HEAD is refused: test_detached_head.py)
    assert sh(wt, "checkout", "-q", "--detach").returncode != 0
    assert sh(wt, "checkout", "-q", "t1-dev").returncode == 0
    assert sh(wt, "tag", "mine").returncode == 0  # a tag created


def test_the_main_worktree_and_land_are_not_bound_by_it(working: Engine) -> None:
    """The user's own checkout moves its branches as before; land runs as taskproto itself."""
    repo = working.config.repo
    assert sh(repo, "branch", "scratch").returncode == 0
    assert sh(repo, "update-ref", "-d", "refs/heads/scratch").returncode == 0


# --- replacement objects ----------------------------------------------------------------


def test_a_replacement_of_a_journal_commit_is_refused_and_never_read(working: Engine) -> None:
    """Before: `git replace` of the journal head made a forged record the one every git read of
    taskproto saw."""
    repo = working.config.repo
    ref = journal.ref_for("t1")
    head = tip(working, ref)
    forged = git(repo, "commit-tree", f"{head}^{{tree}}", "-p", head, "-m", "forged")
    for cwd in (dev(working), repo):
        proc = sh(cwd, "replace", head, forged)
        assert proc.returncode != 0 and "refs/replace/" in proc.stderr, proc.stderr
        assert sh(repo, "rev-parse", "--verify", "-q", f"refs/replace/{head}").returncode
    # one made behind the hooks (a same-user process can): taskproto's reads do not follow it
    subprocess.run(
        ["git", "-c", "core.hooksPath=/dev/null", "replace", head, forged], cwd=repo, check=True
    )
    assert git(repo, "log", "-1", "--format=%s", ref) == "forged"  # git itself follows it
    assert Git(repo).run("log", "-1", "--format=%s", ref).strip() != "forged"
    assert working.repo.run("log", "-1", "--format=%s", ref).strip() != "forged"
    result = run_taskproto("doctor", "--json", cwd=repo)
    found = [f for f in json.loads(result.out)["findings"] if f["check"] == "replace-ref"]
    assert len(found) == 1 and found[0]["task"] == "t1", result.out
    assert f"in place of the journal head of task t1 {head[:12]}" in found[0]["message"]
    assert sh(repo, "replace", "-d", head).returncode == 0  # deleting one is the repair
    result = run_taskproto("doctor", "--json", cwd=repo)
    assert "replace-ref" not in result.out


# --- a task that waits for the user -----------------------------------------------------


def test_a_task_that_waits_for_the_user_takes_no_commit(working: Engine) -> None:
    """Before: the tool guard refused the agent's edits, but `git commit` went through."""
    from taskproto.ops.interrupts import record, resume

    record(working, "t1", "what does the retry do?", SESSION)
    wt = dev(working)
    head = tip(working, "refs/heads/t1-dev")
    (wt / "more.py").write_text("y = 2\n")
    git(wt, "add", "more.py")
    proc = sh(wt, "commit", "-m", "while paused")
    assert proc.returncode != 0 and "waits for the user" in proc.stderr, proc.stderr
    commit = git(wt, "commit-tree", git(wt, "write-tree"), "-p", "HEAD", "-m", "plumbing")
    proc = sh(wt, "update-ref", "refs/heads/t1-dev", commit)
    assert proc.returncode != 0 and "waits for the user" in proc.stderr, proc.stderr
    assert tip(working, "refs/heads/t1-dev") == head
    resume(working, "t1", "user")
    assert sh(wt, "commit", "-m", "after the answer").returncode == 0

"""No commit on no branch in a task's or an agent's worktree. In its own worktree an agent could
`git checkout --detach main` (or `git switch --detach`, `git checkout <commit>`) and commit there:
main does not move, but the work is on no branch, outside the protocol and lost to git's gc. The
tool guard refuses it before it runs (each client's payload); the installed reference-transaction
hook refuses it whoever runs git (another shell with no agent variables, another cwd, `git -C`,
`git update-ref --no-deref HEAD`, `git commit-tree` then `update-ref`), with one line naming the
branch to go back to, and puts back the files a refused checkout had changed. A rebase of the
worktree's own branch (git detaches HEAD until it ends) passes; the user in the main worktree is
not held to it. Real git, the installed hooks, the real hook entry point."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from taskproto.engine import Engine
from tests.conftest import commit_file, git
from tests.enforcement.test_agent_session_branches import SESSION, run
from tests.enforcement.test_tool_guard_unreadable import CLIENTS, shell
from tests.hooks.agents.conftest import Hook

pytest_plugins = ["tests.enforcement.test_agent_session_branches"]  # its owned fixture

LINE = (
    "taskproto: refused: detaching HEAD in the worktree of agent dev of task t1: a commit there "
    "is on no branch, outside task t1 and lost to git's gc; work on its branch: "
    "`git switch t1-dev`"
)
DETACHING = [
    "git checkout --detach main",
    "git switch --detach HEAD",
    "git switch -d main",
    "git checkout {main}",
    "git checkout HEAD~0",
    "git update-ref --no-deref HEAD {main}",
]


def _wt(engine: Engine) -> Path:
    return engine.config.agent_worktree("t1", "dev")


def _head(wt: Path) -> str:
    return git(wt, "symbolic-ref", "-q", "HEAD").strip()


def _taskproto(proc: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in proc.stderr.splitlines() if line.startswith("taskproto:")]


@pytest.mark.parametrize("session", [SESSION, None], ids=["agent-session", "another-shell"])
@pytest.mark.parametrize("command", DETACHING)
def test_detaching_head_in_an_agents_worktree_is_refused_by_the_git_hook(
    owned: Engine, session: str | None, command: str
) -> None:
    wt = _wt(owned)
    commit_file(wt, "work.txt", "work\n")  # the branch holds work main has not
    line = command.format(main=git(owned.config.repo, "rev-parse", "main").strip())
    proc = run(line, wt, session)
    assert proc.returncode != 0, proc.stderr
    assert _taskproto(proc) == [LINE], proc.stderr
    assert _head(wt) == "refs/heads/t1-dev"
    # the files the checkout had changed are put back: nothing to commit, the work is there
    assert git(wt, "status", "--porcelain", "--untracked-files=no") == ""
    assert (wt / "work.txt").read_text() == "work\n"


def test_from_another_cwd_through_git_c(owned: Engine, tmp_path: Path) -> None:
    wt = _wt(owned)
    for session in (SESSION, None):
        proc = run(f"git -C {wt} switch --detach", tmp_path, session)
        assert proc.returncode != 0 and _taskproto(proc) == [LINE], proc.stderr
    assert _head(wt) == "refs/heads/t1-dev"


def test_a_commit_on_a_head_detached_already_is_refused_and_switch_goes_back(
    owned: Engine,
) -> None:
    """A HEAD detached behind the hooks (core.hooksPath emptied, or before they were installed):
    a commit there is refused, `git commit-tree` makes only an object, and moving HEAD to it with
    `update-ref --no-deref` is refused; `git switch t1-dev` goes back."""
    wt = _wt(owned)
    git(wt, "-c", "core.hooksPath=/dev/null", "checkout", "-q", "--detach")
    at = git(wt, "rev-parse", "HEAD").strip()
    moving = LINE.replace("detaching HEAD", "moving a detached HEAD")
    for session in (SESSION, None):
        proc = run("git commit --allow-empty -qm lost", wt, session)
        assert proc.returncode != 0 and _taskproto(proc) == [moving], proc.stderr
        made = run("git commit-tree 'HEAD^{tree}' -p HEAD -m lost", wt, session)
        assert made.returncode == 0, made.stderr  # an object no ref holds: nothing moved
        proc = run(f"git update-ref --no-deref HEAD {made.stdout.strip()}", wt, session)
        assert proc.returncode != 0 and _taskproto(proc) == [moving], proc.stderr
        assert git(wt, "rev-parse", "HEAD").strip() == at
    assert run("git switch -q t1-dev", wt).returncode == 0
    assert _head(wt) == "refs/heads/t1-dev"


def test_commit_tree_then_update_ref_moves_the_branch_not_head_alone(owned: Engine) -> None:
    wt = _wt(owned)
    made = run("git commit-tree 'HEAD^{tree}' -p HEAD -m mine", wt).stdout.strip()
    assert run(f"git update-ref HEAD {made}", wt).returncode == 0  # HEAD's branch moves with it
    assert _head(wt) == "refs/heads/t1-dev"
    assert git(wt, "rev-parse", "t1-dev").strip() == made


def test_a_rebase_of_its_own_branch_detaches_head_until_it_ends(owned: Engine) -> None:
    wt = _wt(owned)
    commit_file(wt, "work.txt", "work\n")
    commit_file(owned.config.repo, "base.txt", "base\n")  # the user's main moves on
    proc = run("git rebase -q main", wt)
    assert proc.returncode == 0, proc.stderr
    assert _head(wt) == "refs/heads/t1-dev"
    assert git(wt, "merge-base", "--is-ancestor", "main", "t1-dev") == ""


def test_the_user_in_the_main_worktree_is_not_held_to_it(owned: Engine) -> None:
    repo = owned.config.repo
    proc = run("git checkout -q --detach main && git commit --allow-empty -qm look", repo, None)
    assert proc.returncode == 0, proc.stderr
    assert run("git switch -q main", repo, None).returncode == 0


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_the_tool_guard_refuses_it_before_it_runs(
    owned: Engine, hook: Hook, client: str, tmp_path: Path
) -> None:
    wt = _wt(owned)
    main = git(owned.config.repo, "rev-parse", "main").strip()
    said = (
        "taskproto: this command leaves HEAD of the worktree of agent dev of task t1 on no "
        "branch (detached): a commit there is outside task t1 and lost to git's gc; work on its "
        "branch: `git switch t1-dev`.\n"
    )
    for command in [*(c.format(main=main) for c in DETACHING), f"git -C {wt} switch --detach"]:
        where = tmp_path if command.startswith("git -C") else wt
        assert shell(hook, client, command, str(where)) == (2, said), command
    for command in ("git checkout HEAD~1 -- x.txt", "git checkout -q t1-dev", "git status"):
        assert shell(hook, client, command, str(wt)) == (0, ""), command
    git(wt, "-c", "core.hooksPath=/dev/null", "checkout", "-q", "--detach")
    assert shell(hook, client, "git commit -qm lost", str(wt)) == (2, said)
    assert shell(hook, client, "git switch t1-dev", str(wt)) == (0, "")

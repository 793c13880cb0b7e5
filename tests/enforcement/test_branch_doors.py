"""The doors out of a task's or an agent's own branch that the guard left open: a branch made and
checked out at once (`checkout -b`, `switch -c`, `-B`, `-C`, `--orphan`, `--track`, a name only a
remote has), the branch checked out before (`-`, `@{-1}`), a tag or a remote-tracking branch
checked out (HEAD detached), `git symbolic-ref HEAD`, and `git rebase --quit`, which leaves HEAD
where the rebase had detached it and runs no hook. The tool guard refuses each before it runs, in
one line naming the way back (each client's payload, another cwd through `git -C`, a link to the
worktree); restoring a file and going back to its own branch pass. From a plain shell the git
hook does what docs/hooks.md says: it refuses what moves a ref, and what moves none (a checkout
of another branch, `--orphan`, `rebase --quit`) passes, and the worktree is then held: no commit
there, doctor reports it. Real git, the installed hooks, the real hook entry point."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from taskproto.engine import Engine
from tests.conftest import commit_file, git
from tests.enforcement.test_agent_session_branches import run
from tests.enforcement.test_tool_guard_unreadable import CLIENTS, shell
from tests.hooks.agents.conftest import Hook

pytest_plugins = ["tests.enforcement.test_agent_session_branches"]  # its owned fixture

NO_HOOKS = ("-c", "core.hooksPath=/dev/null")


def _switched(branch: str) -> str:
    return (
        f"taskproto: this command puts the worktree of agent dev of task t1 on branch {branch}, "
        "not its own: its work is on t1-dev, and reaches the base branch through the user's "
        "`taskproto land`; stay on its branch: `git switch t1-dev`.\n"
    )


DETACHED = (
    "taskproto: this command leaves HEAD of the worktree of agent dev of task t1 on no branch "
    "(detached): a commit there is outside task t1 and lost to git's gc; work on its branch: "
    "`git switch t1-dev`.\n"
)
REBASING = (
    "taskproto: this command leaves HEAD of the worktree of agent dev of task t1 on no branch "
    "(detached), where the rebase running there put it: a commit there is outside task t1 and "
    "lost to git's gc; end the rebase with `git rebase --continue` or `git rebase --abort`, "
    "which put HEAD back on t1-dev.\n"
)


@pytest.fixture
def wt(owned: Engine) -> Path:
    """Agent dev's worktree, which was on `main` before (its reflog says so); the main worktree on
    `feature`, so git itself lets `main` be checked out elsewhere; a tag `v1`; a remote `origin`
    with a tracking branch `zz` that no local branch has."""
    repo = owned.config.repo
    wt = owned.config.agent_worktree("t1", "dev")
    commit_file(wt, "x.txt", "x\n")
    git(repo, "checkout", "-q", "feature")
    git(repo, "tag", "v1", "main")
    git(repo, "update-ref", "refs/remotes/origin/zz", "main")
    git(wt, *NO_HOOKS, "checkout", "-q", "main")
    git(wt, *NO_HOOKS, "checkout", "-q", "t1-dev")
    return wt


REFUSED = [
    ("git checkout -b other", "other"),
    ("git checkout -qbother", "other"),
    ("git checkout -B other main", "other"),
    ("git switch -c other", "other"),
    ("git switch --create=other", "other"),
    ("git switch -C other", "other"),
    ("git checkout --orphan o", "o"),
    ("git switch --orphan o", "o"),
    ("git checkout -t origin/zz", "zz"),
    ("git checkout zz", "zz"),  # only origin has it: git makes it and checks it out
    ("git switch zz", "zz"),
    ("git switch -", "main"),  # the branch checked out before
    ("git checkout -", "main"),
    ("git checkout @{-1}", "main"),
    ("git symbolic-ref HEAD refs/heads/main", "main"),
    ("git checkout v1", None),  # a tag: HEAD detached
    ("git checkout origin/zz", None),
    ("git checkout refs/heads/main", None),
]
PASSING = [
    "git checkout -- x.txt",
    "git checkout x.txt",
    "git checkout main -- x.txt",
    "git checkout -p main",  # hunks from main into the files
    "git checkout t1-dev",
    "git switch t1-dev",
    "git checkout @{-2}",  # t1-dev, checked out before main
    "git checkout -B t1-dev HEAD",  # its own branch, as a reset moves it
    "git checkout HEAD",
    "git rebase --abort",  # no rebase: git says so
]


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_the_tool_guard_refuses_each_door_before_it_runs(
    wt: Path, hook: Hook, client: str, tmp_path: Path
) -> None:
    link = tmp_path / "link"
    link.symlink_to(wt)
    for command, branch in REFUSED:
        said = DETACHED if branch is None else _switched(branch)
        assert shell(hook, client, command, str(wt)) == (2, said), command
        # another cwd through `git -C`, and the worktree through a link
        elsewhere = command.replace("git ", f"git -C {wt} ", 1)
        assert shell(hook, client, elsewhere, str(tmp_path)) == (2, said), elsewhere
        assert shell(hook, client, command, str(link)) == (2, said), command
    for command in PASSING:
        assert shell(hook, client, command, str(wt)) == (0, ""), command
    assert git(wt, "symbolic-ref", "HEAD") == "refs/heads/t1-dev"


def test_the_task_worktree_is_held_the_same_way(owned: Engine, hook: Hook) -> None:
    wt = owned.config.task_worktree("t1")
    said = _switched("other").replace("agent dev of task t1", "task t1").replace("t1-dev", "t1")
    for client in sorted(CLIENTS):
        for command in ("git switch -c other", "git checkout --orphan other"):
            assert shell(hook, client, command, str(wt)) == (2, said), command
        assert shell(hook, client, "git switch t1", str(wt)) == (0, "")


@pytest.mark.parametrize("packed", [False, True], ids=["loose", "packed"])
def test_branches_and_tags_are_read_loose_or_packed(wt: Path, hook: Hook, packed: bool) -> None:
    """One reader of loose and packed refs (git/files.py): after `git pack-refs --all` a branch
    is still a branch and a tag still a tag."""
    if packed:
        git(wt, "pack-refs", "--all")
        common = Path(git(wt, "rev-parse", "--git-common-dir")).resolve()
        assert not (common / "refs" / "tags" / "v1").exists()
        assert not (common / "refs" / "heads" / "main").exists()
    assert shell(hook, "claude", "git checkout main", str(wt)) == (2, _switched("main"))
    assert shell(hook, "claude", "git checkout v1", str(wt)) == (2, DETACHED)
    assert shell(hook, "claude", "git checkout zz", str(wt)) == (2, _switched("zz"))
    assert shell(hook, "claude", "git checkout t1-dev", str(wt)) == (0, "")
    assert shell(hook, "claude", "git checkout x.txt", str(wt)) == (0, "")


def _stopped_rebase(owned: Engine, wt: Path) -> None:
    """A rebase of dev's own branch onto main, stopped by a failing `--exec`: HEAD detached."""
    commit_file(owned.config.repo, "base.txt", "base\n")
    proc = run("git rebase -q --exec false main", wt)
    assert proc.returncode != 0
    assert (Path(git(wt, "rev-parse", "--git-dir")) / "rebase-merge").is_dir()
    assert subprocess.run(["git", "symbolic-ref", "-q", "HEAD"], cwd=wt).returncode == 1


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_rebase_quit_is_refused_while_a_rebase_runs(
    owned: Engine, hook: Hook, client: str, tmp_path: Path
) -> None:
    wt = owned.config.agent_worktree("t1", "dev")
    commit_file(wt, "work.txt", "work\n")
    _stopped_rebase(owned, wt)
    assert shell(hook, client, "git rebase --quit", str(wt)) == (2, REBASING)
    assert shell(hook, client, f"git -C {wt} rebase --quit", str(tmp_path)) == (2, REBASING)
    for command in ("git rebase --abort", "git rebase --continue", "git status"):
        assert shell(hook, client, command, str(wt)) == (0, ""), command
    assert run("git rebase --abort", wt).returncode == 0  # back on its branch
    assert git(wt, "symbolic-ref", "HEAD") == "refs/heads/t1-dev"
    assert shell(hook, client, "git rebase --quit", str(wt)) == (0, "")  # no rebase: nothing


def test_from_a_plain_shell_rebase_quit_leaves_head_detached_and_held(owned: Engine) -> None:
    """No hook runs for `git rebase --quit` (no ref moves): the worktree is left detached, as
    docs/hooks.md says; a commit there is refused, and `git switch t1-dev` goes back."""
    wt = owned.config.agent_worktree("t1", "dev")
    commit_file(wt, "work.txt", "work\n")
    _stopped_rebase(owned, wt)
    assert run("git rebase --quit", wt, None).returncode == 0
    proc = run("git commit --allow-empty -qm lost", wt, None)
    assert proc.returncode != 0
    assert "refused: moving a detached HEAD in the worktree of agent dev of task t1" in proc.stderr
    assert run("git switch -q t1-dev", wt, None).returncode == 0


def _doctor(repo: Path) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "taskproto", "doctor", "t1"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.stdout + proc.stderr


def test_from_a_plain_shell_the_git_hook_does_what_the_docs_say(wt: Path, owned: Engine) -> None:
    """A shell with no agent variables: what moves a ref meets the reference-transaction hook (a
    branch made there, a tag checked out); a checkout of another branch and `--orphan` move none
    and pass (docs/hooks.md), and the worktree is held there: a commit is refused, doctor reports
    it, `git switch t1-dev` goes back."""
    repo = owned.config.repo
    for command, said in [
        ("git checkout -q -b other", "refused: moving refs/heads/other from the worktree"),
        ("git switch -q -c other", "refused: moving refs/heads/other from the worktree"),
        ("git checkout -q v1", "refused: detaching HEAD in the worktree of agent dev"),
        ("git switch -q --detach -", "refused: detaching HEAD in the worktree of agent dev"),
    ]:
        proc = run(command, wt, None)
        assert proc.returncode != 0 and said in proc.stderr, (command, proc.stderr)
        assert git(wt, "symbolic-ref", "HEAD") == "refs/heads/t1-dev", command
    for command, branch in [("git switch -q -", "main"), ("git checkout -q --orphan o", "o")]:
        proc = run(command, wt, None)
        assert proc.returncode == 0, proc.stderr
        assert git(wt, "symbolic-ref", "HEAD") == f"refs/heads/{branch}"
        assert "worktree-wrong-branch" in _doctor(repo)
        # a commit there moves a branch not its own (an orphan's first makes it): refused
        proc = run("git commit --allow-empty -qm there", wt, None)
        assert f"refused: moving refs/heads/{branch} from the worktree" in proc.stderr
        assert run("git switch -q -f t1-dev", wt, None).returncode == 0
    assert "worktree-wrong-branch" not in _doctor(repo)


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_a_git_dir_named_for_the_worktree_is_held_to_its_rule(
    wt: Path, hook: Hook, client: str, tmp_path: Path
) -> None:
    """`--git-dir`/GIT_DIR naming the worktree's git dir (through a link that does not spell
    `.git/worktrees`) moves that worktree's HEAD, wherever git writes files."""
    gd = tmp_path / "gd"
    gd.symlink_to(Path(git(wt, "rev-parse", "--absolute-git-dir")))
    for command, said in [
        (f"git --git-dir={gd} checkout main", _switched("main")),
        (f"GIT_DIR={gd} git switch -c x", _switched("x")),
        (f"git --git-dir={gd} --work-tree=. checkout v1", DETACHED),
    ]:
        assert shell(hook, client, command, str(wt)) == (2, said), command
    assert shell(hook, client, f"git --git-dir={gd} checkout t1-dev", str(wt)) == (0, "")


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_a_worktree_added_on_a_new_branch_is_refused_before_and_by_the_hook(
    wt: Path, hook: Hook, client: str, tmp_path: Path
) -> None:
    """`git worktree add` makes a branch from the agent's worktree (`-b x`, or named after the
    path): the tool guard refuses it up front as any other ref not its own; the git hook refuses
    it whoever runs git. A detached worktree elsewhere is no task's: not held."""
    for command, branch in [
        (f"git worktree add {tmp_path}/wt3", "wt3"),
        (f"git worktree add -b x {tmp_path}/wt4", "x"),
        (f"git worktree add -qb x {tmp_path}/wt4 main", "x"),
    ]:
        assert shell(hook, client, command, str(wt)) == (
            2,
            f"taskproto: refs/heads/{branch} is not a branch of this agent's: from its worktree "
            "an agent moves only its own branch; work reaches the base branch through the "
            "user's `taskproto land`.\n",
        ), command
        proc = run(command, wt, None)
        assert proc.returncode != 0
        assert f"refused: moving refs/heads/{branch} from the worktree" in proc.stderr
        assert git(wt, "branch", "--list", branch) == ""
    assert shell(hook, client, f"git worktree add --detach {tmp_path}/wd", str(wt)) == (0, "")


def test_the_apply_backend_of_a_rebase_is_refused_as_a_detach(owned: Engine) -> None:
    """docs/hooks.md: `git rebase --apply` detaches HEAD before it writes `rebase-apply/`, so the
    hook cannot tell it from a plain detach; the default backend passes."""
    wt = owned.config.agent_worktree("t1", "dev")
    commit_file(wt, "work.txt", "work\n")
    commit_file(owned.config.repo, "base.txt", "base\n")
    proc = run("git rebase -q --apply main", wt, None)
    assert "refused: detaching HEAD in the worktree of agent dev of task t1" in proc.stderr
    assert git(wt, "symbolic-ref", "HEAD") == "refs/heads/t1-dev"
    assert run("git rebase -q main", wt, None).returncode == 0
    assert git(wt, "symbolic-ref", "HEAD") == "refs/heads/t1-dev"

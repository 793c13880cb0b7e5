"""Commits the guard cannot look at before they are written into the main checkout (where
taskproto's root is): those a `git pull` or a `git fetch` brings in on the same command line, the
previous branch (`-`), the upstream of a bare `git merge` or `git rebase`, a commit only the shell
knows (`$(...)`, `$VAR`); and the folders and files git commands create (`clone`, `init`,
`worktree add`, `submodule add`, `bundle`, `format-patch -o`, `--output`, `merge-file`,
`checkout-index --prefix`). Each is tried through the real hook entry point with a real client
payload from a session that owns no task; the ordinary commands next to them pass. The first test
ends with the attack run as is: a pull writes the remote's file over an agent's status file."""

from __future__ import annotations

from pathlib import Path

import pytest

from taskproto.engine import Engine
from tests.conftest import git
from tests.hooks.agents.conftest import Hook

from .test_tool_guard_escapes import SESSION, bash, dev, t1  # noqa: F401 (a fixture)
from .test_tool_guard_sweeps import _client, _evil_branch, allowed, denied

INCOMING = "fetches commits and writes them into"
TRACKED = "tracks files in taskproto's root"


@pytest.fixture
def remote(t1: Engine, tmp_path: Path) -> Path:  # noqa: F811
    """Remote `up`, whose branch `evil` tracks an agent's status file; the main checkout has
    never seen that commit (its own `evil` is deleted)."""
    repo = t1.config.repo
    _evil_branch(repo, t1.config.status_file("t1", "dev").relative_to(repo).as_posix())
    up = tmp_path / "up"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(up))
    git(repo, "branch", "-D", "evil")
    git(repo, "remote", "add", "up", str(up))
    return up


def test_a_pull_or_a_fetch_then_a_checkout_on_one_line_is_denied(
    t1: Engine,  # noqa: F811
    hook: Hook,
    remote: Path,
) -> None:
    repo = t1.config.repo
    attempts = [
        ("git pull up evil", repo),
        ("git pull --rebase up evil", repo),
        ("git pull --no-rebase --no-edit up evil", repo),
        ("git pull", repo),
        ("git fetch up evil && git merge FETCH_HEAD", repo),
        ("git fetch up evil:refs/heads/x; git checkout x", repo),
        ("git fetch --all && git reset --hard up/evil", repo),
        ("git remote update && git merge up/evil", repo),
        ("bash -c 'git pull up evil'", repo),  # another shell
        (f"git -C {repo} pull up evil", repo.parent),  # another folder
    ]
    for command, cwd in attempts:
        assert INCOMING in denied(hook, command, cwd), command
        for client in ("codex", "gemini"):  # the other clients' doors
            code, err = _client(hook, client, command, cwd)
            assert code == 2 and INCOMING in err, (client, command, err)
    # fetched in one command, what it brought is checked before the next writes it
    allowed(hook, "git fetch up", repo)
    git(repo, "fetch", "-q", "up", "evil")
    for command in ("git merge FETCH_HEAD", "git merge up/evil", "git reset --hard up/evil"):
        assert TRACKED in denied(hook, command, repo), command
    git(repo, "fetch", "-q", "up", "main")
    allowed(hook, "git merge FETCH_HEAD", repo)
    # in a task's worktree (no taskproto state there) a pull is the agent's own business
    allowed(hook, "git pull up main", dev(t1), session=SESSION)
    # and the attack, run as is: the pull writes the remote's file over the status file
    status = t1.config.status_file("t1", "dev")
    assert status.read_bytes() != b"{}"
    git(repo, "pull", "-q", "--no-rebase", "--no-edit", "up", "evil")
    assert status.read_bytes() == b"{}"


def test_commits_named_another_way_are_checked_or_denied(t1: Engine, hook: Hook) -> None:  # noqa: F811
    repo = t1.config.repo
    rel = t1.config.status_file("t1", "dev").relative_to(repo).as_posix()
    _, commit = _evil_branch(repo, rel)
    (repo / "sha").write_text(commit + "\n")
    status = t1.config.status_file("t1", "dev")
    kept = status.read_bytes()
    git(repo, "checkout", "-q", "evil")  # the status file is written over: put it back
    git(repo, "checkout", "-q", "main")
    status.write_bytes(kept)
    for command in (
        "git checkout -",  # the branch checked out before
        "git merge -",
        "git branch -u evil && git merge",  # an upstream set on the same line
        "git branch --set-upstream-to=evil && git rebase",
        "git config branch.main.merge refs/heads/evil && git merge",
        'B=evil; git checkout "$B"',  # a variable the command line sets is read
    ):
        assert TRACKED in denied(hook, command, repo), command
    for command in (
        "git reset --hard $(cat sha)",  # only the shell knows these
        "git switch `cat sha`",
        'git checkout "$B"',
        f"git update-ref refs/heads/main $(echo {commit}) && git reset --hard",
    ):
        assert "names a commit only the shell knows" in denied(hook, command, repo), command
    git(repo, "branch", "--set-upstream-to=evil")
    for command in ("git merge", "git rebase", "git merge -m 'take it'", "git pull . evil"):
        assert TRACKED in denied(hook, command, repo), command
    git(repo, "branch", "fine")
    for command in ("git merge fine", "git merge -m 'take it' fine", "git rebase fine"):
        allowed(hook, command, repo)


@pytest.mark.parametrize(
    "command",
    [
        "git clone {up} {root}/x",
        "git clone -b main {up} {root}/tasks/t9",
        "cd {root} && git clone {up}",
        "git init {root}/tasks/t9",
        "git init --separate-git-dir={root}/g elsewhere",
        "git worktree add {root}/tasks/t9 main",
        "git worktree add -b other {root}/tasks/t9",
        "git submodule add {up} {root}/sub",
        "git checkout-index -a --prefix={root}/",
        "git bundle create {root}/b.bundle HEAD",
        "git format-patch -o {root} HEAD",
        "git format-patch --output-directory={root} HEAD",
        "git diff --output={root}/tasks/t1/task.json",
        "git archive -o {root}/a.tar HEAD",
        "git merge-file {root}/tasks/t1/task.json a b",
    ],
)
def test_git_commands_that_create_files_name_them(
    t1: Engine,  # noqa: F811
    hook: Hook,
    remote: Path,
    command: str,
) -> None:
    repo, root = t1.config.repo, t1.config.root
    assert "taskproto's own state" in denied(hook, command.format(up=remote, root=root), repo)
    # the same command writing elsewhere passes
    elsewhere = command.format(up=remote, root=repo.parent / "elsewhere").replace(
        f"cd {repo.parent / 'elsewhere'} && ", f"cd {repo.parent} && "
    )
    allowed(hook, elsewhere, repo)

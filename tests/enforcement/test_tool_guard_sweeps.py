"""Git commands that write where they name no path, tried by a session that owns no task from the
main checkout (where taskproto's root is): `git clean -x`, `git stash -a`, a patch through `git
apply` or `git am`, a stash's untracked files put back by `git stash pop`, `git mv` onto a status
file. Each goes through the real hook entry point with a real Claude Code payload and must be
denied; the same commands where taskproto's state is not, or without the part that reaches it,
must pass. The first test shows that what the guard refuses is real: run as is, `git clean -fdX`
deletes every task.json."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from taskproto.engine import Engine
from tests.hooks.agents.conftest import Hook

from .test_tool_guard_escapes import SESSION, bash, dev, t1  # noqa: F401 (a fixture)

NOBODY = "nobody-7"


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout


def denied(hook: Hook, command: str, cwd: Path, session: str = NOBODY) -> str:
    code, err = bash(hook, command, str(cwd), session=session)
    assert code == 2, (command, err)
    return err


def allowed(hook: Hook, command: str, cwd: Path, session: str = NOBODY) -> None:
    code, err = bash(hook, command, str(cwd), session=session)
    assert code == 0, (command, err)


def test_git_clean_of_ignored_files_deletes_the_state(t1: Engine) -> None:  # noqa: F811
    """Why the rule exists: taskproto's root is ignored (info/exclude), so `git clean -X`, run as
    is in the main checkout, takes every task.json with it."""
    task = t1.config.task_file("t1")
    assert task.is_file()
    git(t1.config.repo, "clean", "-fdX")
    assert not task.exists()


@pytest.mark.parametrize(
    "command",
    [
        "git clean -fdX",
        "git clean -fdx",
        "git clean -xdf .",
        "git clean -f -d -x",
        "git clean -fd -e '!.taskproto'",
        "git clean -fd --exclude='!.taskproto'",
        "cd /tmp && git -C {repo} clean -fdX",
        "git --work-tree=. clean -fdX",
        "git stash -a",
        "git stash push --all -m keep",
        "git stash save -a",
    ],
)
def test_commands_that_sweep_ignored_files_are_denied(
    t1: Engine,  # noqa: F811
    hook: Hook,
    command: str,
) -> None:
    repo = t1.config.repo
    err = denied(hook, command.format(repo=repo), repo)
    assert "taskproto's own state" in err
    assert (t1.config.task_file("t1")).is_file()


def test_the_same_commands_pass_where_the_state_is_not(t1: Engine, hook: Hook) -> None:  # noqa: F811
    repo = t1.config.repo
    (repo / "src").mkdir()
    for command in (
        "git clean -fd",  # ignored files stay: taskproto's root among them
        "git clean -ndX",  # a dry run writes nothing
        "git clean -fdX src",
        "git stash",
        "git stash push -u -m keep",  # untracked, not ignored
    ):
        allowed(hook, command, repo)
    # the owner, in its own worktree: the root is not under it
    allowed(hook, "git clean -fdx", dev(t1), session=SESSION)


def _patch(path: Path, target: str) -> Path:
    path.write_text(
        f"diff --git a/{target} b/{target}\n"
        f"--- a/{target}\n"
        f"+++ b/{target}\n"
        "@@ -1 +1 @@\n"
        "-{}\n"
        "+{}\n"
    )
    return path


def test_a_patch_that_reaches_the_state_is_denied(t1: Engine, hook: Hook, tmp_path: Path) -> None:  # noqa: F811
    repo = t1.config.repo
    rel = t1.config.task_file("t1").relative_to(repo).as_posix()
    into_root = str(t1.config.task_file("t1").relative_to(t1.config.root).as_posix())
    bad = _patch(tmp_path / "bad.patch", rel)
    deep = _patch(tmp_path / "deep.patch", into_root)
    mail = tmp_path / "bad.mbox"
    mail.write_text(
        "From 0 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] x\n\n---\n" + bad.read_text()
    )
    root_dir = t1.config.root.relative_to(repo).as_posix()
    for command in (
        f"git apply {bad}",
        f"git apply -p1 --index {bad}",
        f"git apply --directory={root_dir} {deep}",  # the root put before every path
        f"git am {mail}",
        f"git apply < {bad}",  # standard input: the guard cannot read it
        f"cat {bad} | git apply -",
        "git apply /nonexistent.patch",
    ):
        err = denied(hook, command, repo)
        assert "taskproto's own state" in err, (command, err)
    fine = _patch(tmp_path / "fine.patch", "src/app.py")
    allowed(hook, f"git apply {fine}", repo)
    allowed(hook, f"git apply {bad}", dev(t1), session=SESSION)  # a patch in its own worktree


def test_a_stash_that_puts_back_untracked_files_is_denied(t1: Engine, hook: Hook) -> None:  # noqa: F811
    repo = t1.config.repo
    (repo / "tracked.txt").write_text("one\n")
    git(repo, "add", "tracked.txt")
    git(repo, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "tracked")
    (repo / "tracked.txt").write_text("two\n")
    git(repo, "stash")  # tracked changes only
    allowed(hook, "git stash pop", repo)
    allowed(hook, "git stash apply stash@{0}", repo)
    (repo / "loose.txt").write_text("untracked\n")
    git(repo, "stash", "-u")  # with untracked files: a third parent, which may hold anything
    for command in (
        "git stash pop",
        "git stash apply",
        "git stash apply stash@{0}",
        "git stash branch b stash@{0}",
    ):
        err = denied(hook, command, repo)
        assert "taskproto's own state" in err, (command, err)


def test_git_mv_and_rm_name_their_paths(t1: Engine, hook: Hook) -> None:  # noqa: F811
    repo = t1.config.repo
    status = t1.config.status_file("t1", "dev").relative_to(repo)
    (repo / "forged.json").write_text("{}")
    for command in (f"git mv -f forged.json {status}", f"git rm -r --cached {status.parent}"):
        assert "taskproto's own state" in denied(hook, command, repo)
    allowed(hook, "git mv -f forged.json other.json", repo)

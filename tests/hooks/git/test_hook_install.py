"""`taskproto init` / `init --uninstall`: chaining, byte-for-byte round trips, core.hooksPath,
idempotence."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from hookutil import advance, head, sh

from taskproto.engine import Engine
from taskproto.hooks.git import install

REPO_ROOT = Path(__file__).resolve().parents[3]


def snapshot(folder: Path) -> dict[str, tuple[int, bytes | str, int]]:
    """Every entry of the folder: mode, content (or symlink target), mtime."""
    result = {}
    for name in sorted(os.listdir(folder)):
        path = folder / name
        st = os.lstat(path)
        data: bytes | str = os.readlink(path) if path.is_symlink() else path.read_bytes()
        result[name] = (st.st_mode, data, st.st_mtime_ns)
    return result


def test_init_installs_every_hook_and_a_second_run_changes_nothing(cli, repo: Path) -> None:  # type: ignore[no-untyped-def]
    first = cli("init")
    assert first.code == 0, first.err
    hooks = repo / ".git" / "hooks"
    # commit-msg only adds trailers: it is installed while commit_trailers is on (off by default)
    assert f"git hooks in {hooks}: installed {', '.join(install.wanted(False))}" in first.out
    assert "commit-msg" not in install.wanted(False) and "commit-msg" in install.wanted(True)
    assert not (hooks / "commit-msg").exists()
    for hook in install.wanted(False):
        assert install.is_ours(hooks / hook) and os.access(hooks / hook, os.X_OK)
    before = snapshot(hooks)
    second = cli("init")
    assert second.code == 0 and "already installed" in second.out
    assert snapshot(hooks) == before


def test_uninstall_restores_the_folder_byte_for_byte_with_a_chained_hook(cli, repo: Path) -> None:  # type: ignore[no-untyped-def]
    hooks = repo / ".git" / "hooks"
    (hooks / "pre-commit").write_bytes(
        b'#!/bin/sh\necho theirs >> "$(git rev-parse --git-dir)/ran"\n'
    )
    os.chmod(hooks / "pre-commit", 0o750)
    (hooks / "post-merge").write_bytes(
        b"#!/bin/sh\nexit 0\n"
    )  # not executable: git ignores it, so do we
    os.chmod(hooks / "post-merge", 0o644)
    os.symlink("/nowhere/hook", hooks / "pre-push")  # a dangling symlink is still someone's hook
    (hooks / "pre-merge-commit").write_bytes(b"#!/bin/sh\nexit 0\n")
    os.chmod(hooks / "pre-merge-commit", 0o700)
    before = snapshot(hooks)
    result = cli("init")
    assert result.code == 0, result.err
    assert "kept and chained (they run first): pre-merge-commit, post-merge, pre-push" in result.out
    # pre-commit is not taskproto's to install (reference-transaction checks commits): theirs
    # stays where it is, untouched
    assert snapshot(hooks)["pre-commit"] == before["pre-commit"]
    assert not (hooks / "pre-commit.taskproto-chained").exists()
    assert (hooks / "pre-merge-commit.taskproto-chained").read_bytes() == b"#!/bin/sh\nexit 0\n"
    assert cli("init").code == 0  # twice: still one chain
    assert not (hooks / "pre-merge-commit.taskproto-chained.taskproto-chained").exists()
    removed = cli("init", "--uninstall")
    assert removed.code == 0, removed.err
    assert (
        "restored the hooks that were there before: pre-merge-commit, post-merge, pre-push"
        in removed.out
    )
    assert snapshot(hooks) == before
    assert stat.S_IMODE(os.lstat(hooks / "pre-commit").st_mode) == 0o750


def test_their_pre_commit_still_runs_first_and_its_failure_stops_the_commit(
    cli, hooked: Engine, repo: Path
) -> None:  # type: ignore[no-untyped-def]
    """init leaves their pre-commit in place (none of ours goes there); git runs it before the
    commit, and our reference-transaction after it."""
    hooks = repo / ".git" / "hooks"
    install.uninstall(hooked.git)
    (hooks / "pre-commit").write_text(
        '#!/bin/sh\necho "theirs $PWD" >> "$(git rev-parse --git-common-dir)/ran"\n[ ! -e block ]\n'
    )
    os.chmod(hooks / "pre-commit", 0o755)
    theirs = (hooks / "pre-commit").read_bytes()
    assert cli("init").code == 0
    assert (hooks / "pre-commit").read_bytes() == theirs
    code_dir = hooked.config.task_worktree("t1")
    (code_dir / "f").write_text("x\n")
    sh(code_dir, "add", "f")
    proc = sh(code_dir, "commit", "-m", "f")
    assert (
        proc.returncode == 128 and "task t1 is in INIT" in proc.stderr
    )  # theirs passed, ours refused
    assert (repo / ".git" / "ran").read_text() == f"theirs {code_dir}\n"
    (repo / "block").write_text("")
    (repo / "g").write_text("x\n")
    sh(repo, "add", "g")
    before = head(repo)
    assert (
        sh(repo, "commit", "-m", "g").returncode == 1
    )  # theirs refuses: the commit stops as before
    assert head(repo) == before


def test_chained_pre_push_gets_the_same_input(
    cli, hooked: Engine, repo: Path, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    hooks = repo / ".git" / "hooks"
    install.uninstall(hooked.git)
    (hooks / "pre-push").write_text('#!/bin/sh\ncat > "$(git rev-parse --git-common-dir)/pushed"\n')
    os.chmod(hooks / "pre-push", 0o755)
    assert cli("init").code == 0
    bare = tmp_path / "r.git"
    sh(tmp_path, "init", "-q", "--bare", str(bare))
    sh(repo, "remote", "add", "origin", str(bare))
    advance(hooked, "t1", "IMPLEMENTATION")
    proc = sh(hooked.config.task_worktree("t1"), "push", "origin", "t1:main")
    assert proc.returncode != 0 and "push refused" in proc.stderr
    sha = head(repo, "t1")
    assert (
        repo / ".git" / "pushed"
    ).read_text() == f"refs/heads/t1 {sha} refs/heads/main {'0' * 40}\n"


def test_core_hooks_path_is_respected(cli, hooked: Engine, repo: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    install.uninstall(hooked.git)
    shared = tmp_path / "shared-hooks"
    sh(repo, "config", "core.hooksPath", str(shared))
    result = cli("init")
    assert result.code == 0, result.err
    assert f"git hooks in {shared} (core.hooksPath = {shared})" in result.out
    assert sorted(os.listdir(shared)) == sorted(install.wanted(False))
    assert not (repo / ".git" / "hooks" / "pre-commit").exists()
    code_dir = hooked.config.task_worktree("t1")  # a linked worktree
    (code_dir / "f").write_text("x\n")
    sh(code_dir, "add", "f")
    assert "task t1 is in INIT" in sh(code_dir, "commit", "-m", "f").stderr
    assert cli("init", "--uninstall").code == 0
    assert os.listdir(shared) == []


def test_init_no_git_installs_nothing(cli, repo: Path) -> None:  # type: ignore[no-untyped-def]
    before = snapshot(repo / ".git" / "hooks")
    result = cli("init", "--no-git")
    assert result.code == 0 and "git hooks" not in result.out
    assert snapshot(repo / ".git" / "hooks") == before
    assert (repo / ".taskproto" / "tasks").is_dir()


def test_a_leftover_chained_file_is_refused_and_nothing_changes(cli, repo: Path) -> None:  # type: ignore[no-untyped-def]
    hooks = repo / ".git" / "hooks"
    (hooks / "pre-push").write_text("#!/bin/sh\n")
    # another hook than pre-push (a copy of it would be replaced: test_precommit_legacy.py)
    (hooks / "pre-push.taskproto-chained").write_text("#!/bin/sh\nexit 0\n")
    before = snapshot(hooks)
    result = cli("init")
    assert result.code == 1
    assert "cannot be chained; move one of them away" in result.err
    assert snapshot(hooks) == before


def test_hook_command_runs_in_process(cli, hooked: Engine) -> None:  # type: ignore[no-untyped-def]
    assert cli("hook", "pre-commit").code == 0  # main: no task's branch
    refused = cli("hook", "pre-commit", cwd=hooked.config.task_worktree("t1"))
    assert refused.code == 1 and "commit refused on branch 't1'" in refused.err
    assert cli("hook", "post-checkout", "a", "b", "1").code == 0


def test_the_shipped_template_is_the_one_in_hooks() -> None:
    assert (REPO_ROOT / "hooks" / "git-hook.sh").read_bytes() == install.TEMPLATE.read_bytes()
    assert install.MARKER in install.render("pre-commit")


def test_the_installed_script_is_the_template_less_its_comment_lines() -> None:
    """What git runs: the header (the marker in it), then the template's code lines that the hook
    runs, as they are but for their indentation and a comment after the code, in order; whole-line
    comments and other hooks' `#@only` blocks left out. bash parses every line before the first
    decision, dash reads each byte of a hook on every commit (docs/performance.md)."""
    import subprocess

    template = install.TEMPLATE.read_text(encoding="utf-8")
    for hook in install.GIT_HOOKS:
        text = install.render(hook, "/usr/bin/python3", Path("/x/entry.py")).decode()
        assert text.startswith(template.split("\nhook=", 1)[0])  # the header, marker and all
        assert install.MARKER in text.encode()[:512]
        code = [line for line in text.splitlines()[5:] if line.strip()]
        want, keep = [], True
        for line in template.splitlines()[5:]:
            if line.startswith("#@only "):
                keep = hook in line.split()
            elif line.startswith("#@end"):
                keep = True
            elif keep and line.strip() and not line.lstrip().startswith("#"):
                line = line.lstrip().split("  # ")[0].rstrip() if "  # " in line else line.lstrip()
                want.append(
                    line.replace("@HOOK@", hook)
                    .replace("@PYTHON@", "/usr/bin/python3")
                    .replace("@ENTRY@", "/x/entry.py")
                )
        assert code == want
        assert not any(line.lstrip().startswith("#") for line in code)
        assert subprocess.run(["sh", "-n"], input=text.encode(), check=False).returncode == 0
    reference = install.render("reference-transaction").decode()
    assert "packing()" in reference and "pre-push)" not in reference
    assert "packing()" not in install.render("pre-push").decode()

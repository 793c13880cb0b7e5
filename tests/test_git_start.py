"""`Git.start` (git/command.py): a git process started with `os.posix_spawnp`, the caller working
while it runs (`task create` writes its journal then), ended by `wait` as `Git.run` ends one."""

from __future__ import annotations

from pathlib import Path

import pytest

from taskproto.errors import GitError
from taskproto.git.command import Git


def test_a_started_git_runs_in_its_folder_and_fails_as_run_does(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # not the repository: git runs in Git's folder all the same
    assert Git(repo).start("rev-parse", "--show-toplevel").wait().strip() == str(repo)
    with pytest.raises(GitError) as failed:
        Git(repo).start("rev-parse", "--verify", "no-such-branch").wait()
    assert failed.value.returncode == 128 and "Needed a single revision" in failed.value.stderr
    assert failed.value.cmd == ["git", "rev-parse", "--verify", "no-such-branch"]


def test_much_output_on_both_pipes_never_blocks_git(repo: Path) -> None:
    """Both pipes are read as they fill: git writing more than a pipe holds to stdout and to
    stderr ends, and every byte is kept."""
    loud = "!yes out | head -c 300000; yes err | head -c 300000 >&2; exit 3"
    with pytest.raises(GitError) as failed:
        Git(repo).start("-c", f"alias.loud={loud}", "loud").wait()
    assert failed.value.returncode == 3
    assert len(failed.value.stdout) == 300000 and len(failed.value.stderr) == 300000

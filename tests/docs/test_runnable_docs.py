"""The docs' command blocks marked runnable (```` ```sh runnable ````) run as written: each file's
blocks in order, in one fresh repository, typed as scripts at a real terminal (a pty, so the
session is the terminal's, as the README says: nothing exported). A block that fails fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import git, make_repo
from tests.ptyshell import Shell, shell_env

# every doc's runnable blocks end to end, in a shell: heavy (docs/testing.md), run by CI
pytestmark = pytest.mark.heavy

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"^```sh runnable\n(.*?)^```$", re.S | re.M)


def runnable(path: Path) -> list[str]:
    return BLOCK.findall(path.read_text(encoding="utf-8"))


DOCS = sorted(
    p.relative_to(ROOT).as_posix()
    for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    if runnable(p)
)


def run_blocks(doc: str, repo: Path) -> list[str]:
    """Run each runnable block of `doc` in `repo`, in order, in one terminal; their outputs."""
    shell = Shell(["bash", "--norc", "--noprofile", "-i"], repo, shell_env(PS1="$ "))
    outputs: list[str] = []
    try:
        for i, block in enumerate(runnable(ROOT / doc)):
            script = repo.parent / f"block-{i}.sh"
            script.write_text(block)
            code, out, err = shell.run(f"bash -euo pipefail {script}", timeout=240)
            assert code == 0, f"{doc}, block {i + 1} failed ({code}):\n{out}\n{err}"
            outputs.append(out)
    finally:
        shell.exit()
    return outputs


def test_the_readme_and_the_docs_mark_their_runnable_blocks() -> None:
    assert len(runnable(ROOT / "README.md")) == 2
    assert {"README.md", "docs/task-protocol.md", "docs/ready.md", "docs/hooks.md"} <= set(DOCS)


@pytest.mark.parametrize("doc", DOCS)
def test_a_docs_blocks_run_as_written(doc: str, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    run_blocks(doc, repo)


def test_the_readmes_day_ends_with_the_work_on_main_and_nothing_left(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    day, more = run_blocks("README.md", repo)
    assert "no tasks" in day.splitlines()[-1]
    assert "starts from main at" in day  # add-tests started from fix-login's landed code
    for name in ("login.py", "test_login.py", "test_more.py"):
        assert git(repo, "cat-file", "-t", f"main:{name}") == "blob"
    assert git(repo, "branch", "--format=%(refname:short)") == "main"
    assert len(git(repo, "worktree", "list").splitlines()) == 1
    # nothing is left: the Claude Code settings `init --claude` wrote are this machine's, out of git
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""
    assert (repo / ".claude" / "settings.local.json").is_file()
    assert [p.name for p in (repo / ".taskproto" / "tasks").iterdir()] == [".deps"]  # a lock
    assert "healthy" in more

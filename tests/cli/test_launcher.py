"""The installed `taskproto` command is bin/taskproto (setuptools script-files), not pip's launcher
for an entry point, which imports `re` on every run: the command as installed, run on the quick
paths, imports neither `re` nor `json`'s modules (docs/performance.md)."""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

import taskproto
from tests.conftest import make_repo, run_taskproto

ROOT = Path(__file__).resolve().parents[2]


def _installed(name: str = "taskproto") -> Path:
    """The script `name` of this interpreter's installation."""
    here = Path(sys.executable).parent / name
    found = here if here.is_file() else Path(shutil.which(name) or "")
    assert found.is_file(), f"{name} is not installed with this interpreter"
    return found


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("taskproto", "from taskproto.cli import run"),
        ("taskproto-git-hook", "from taskproto.hooks.git.handlers import console_main"),
    ],
)
def test_the_installed_commands_are_ours(name: str, code: str) -> None:
    script = _installed(name).read_text()
    assert code in script
    assert "import re" not in script
    assert (ROOT / "bin" / name).read_text().split("\n", 1)[1] == script.split("\n", 1)[1]


HEAVY = {"re", "json", "json.decoder", "enum", "pathlib"}


def _imports(script: Path, args: list[str], repo: Path, session: str | None = None) -> set[str]:
    """The modules `script ARGS` imports in `repo`, run as a regular install runs it: no `site`
    (here it would import the editable finder, which imports re itself), the package and
    site-packages on the path."""
    where = [str(Path(taskproto.__file__).parent.parent), *site.getsitepackages()]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(where)}
    if session:
        env["TASKPROTO_SESSION"] = session
    done = subprocess.run(
        [sys.executable, "-S", "-X", "importtime", str(script), *args],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}


def test_the_git_hook_command_imports_no_re(tmp_path: Path) -> None:
    """The pre-commit framework's entry on a branch of no task: the hook's own imports only."""
    repo = make_repo(tmp_path / "repo")
    assert run_taskproto("init", "--git", cwd=repo).code == 0
    for hook in ("pre-commit", "post-checkout"):
        modules = _imports(_installed("taskproto-git-hook"), [hook], repo)
        assert "taskproto.hooks.git.handlers" in modules
        assert not modules & HEAVY, hook


def test_the_installed_command_imports_no_re_on_the_quick_paths(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    for args in (["task", "create", "t1"], ["task", "list"], ["task", "show", "t1", "--json"]):
        modules = _imports(_installed(), args, repo, "s-1")
        if args[1] != "create":  # (the engine's command: pydantic imports re)
            assert not modules & HEAVY, args

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

import taskproto
from tests.conftest import make_repo

ROOT = Path(__file__).resolve().parents[2]


def _installed() -> Path:
    """The `taskproto` script of this interpreter's installation."""
    here = Path(sys.executable).parent / "taskproto"
    found = here if here.is_file() else Path(shutil.which("taskproto") or "")
    assert found.is_file(), "taskproto is not installed with this interpreter"
    return found


def test_the_installed_command_is_ours() -> None:
    script = _installed().read_text()
    assert "from taskproto.cli import main" in script
    assert "import re" not in script
    assert (ROOT / "bin" / "taskproto").read_text().split("\n", 1)[1] == script.split("\n", 1)[1]


def test_the_installed_command_imports_no_re_on_the_quick_paths(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    # as a regular install runs it: no `site` (here it would import the editable finder, which
    # imports re itself), the package and site-packages on the path
    where = [str(Path(taskproto.__file__).parent.parent), *site.getsitepackages()]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(where), "TASKPROTO_SESSION": "s-1"}
    for args in (["task", "create", "t1"], ["task", "list"], ["task", "show", "t1", "--json"]):
        done = subprocess.run(
            [sys.executable, "-S", "-X", "importtime", str(_installed()), *args],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        if args[1] == "create":
            continue  # the engine's command: pydantic imports re
        modules = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
        assert not modules & {"re", "json", "json.decoder", "enum", "pathlib"}, args

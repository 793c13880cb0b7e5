"""Output into a pipe whose reader has gone (`taskproto task list | head -1` on a long list): the
command stops writing and exits 0, silent, whichever path answers it; the quick front and the full
command agree (cli/app.py `run`, cli/quick.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import make_repo, run_taskproto


def _into_closed_pipe(repo: Path, args: list[str], quick: bool) -> tuple[int, str]:
    """Run `taskproto ARGS` with its stdout a pipe nobody reads any more; (exit code, stderr)."""
    read, write = os.pipe()
    os.close(read)  # the reader went before the first byte was written: every write is EPIPE
    env = {**os.environ, "TASKPROTO_SESSION": "reader"}
    # stdout buffered, as in a user's shell: unbuffered, the first write fails at once and the
    # interpreter has nothing left to flush at exit (CI machines may set PYTHONUNBUFFERED)
    env.pop("PYTHONUNBUFFERED", None)
    if not quick:
        env["TASKPROTO_QUICK"] = "0"
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "taskproto", *args],
            cwd=repo,
            env=env,
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            timeout=60,
        )
    finally:
        os.close(write)
    return proc.returncode, proc.stderr


@pytest.fixture(scope="module")
def listed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = make_repo(tmp_path_factory.mktemp("pipe") / "repo")
    # module-scoped: made before the autouse fixture isolates the home, so `init` would register
    # the repository in the user's own ~/.config/taskproto/repositories (`inbox --all`)
    home = tmp_path_factory.mktemp("pipe-home")
    env = {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
    env["XDG_STATE_HOME"] = str(home / ".state")
    for args in (("init",), ("task", "create", "t"), ("task", "create", "u", "--after", "t")):
        assert run_taskproto(*args, cwd=repo, env=env).code == 0
    return repo


@pytest.mark.parametrize(
    "args",
    [["task", "list"], ["task", "list", "--json"], ["task", "show", "t"], ["ready"]],
)
@pytest.mark.parametrize("quick", [True, False], ids=["quick", "full"])
def test_a_reader_that_went_leaves_exit_0_and_no_message(
    listed: Path, args: list[str], quick: bool
) -> None:
    assert _into_closed_pipe(listed, args, quick) == (0, "")

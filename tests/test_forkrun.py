"""tests/forkrun.py, which runs the tests' `taskproto` commands forked from one interpreter: a
forked command answers as `python -m taskproto` does, in its own process, folder and environment."""

from __future__ import annotations

import os
from pathlib import Path

from tests import forkrun
from tests.conftest import make_repo


def started(repo: Path, *args: str, env: dict[str, str]) -> tuple[int, str, str]:
    done = forkrun._exec(list(args), repo, env, None, 120)  # a new `python -m taskproto`
    return done.returncode, done.stdout, done.stderr


def forked(repo: Path, *args: str, env: dict[str, str]) -> tuple[int, str, str]:
    done = forkrun.run(list(args), repo, env)
    return done.returncode, done.stdout, done.stderr


def test_a_forked_command_answers_as_a_started_one(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    env = {**os.environ, "TASKPROTO_SESSION": "alice"}
    assert forked(repo, "init", env=env)[0] == 0
    assert forked(repo, "task", "create", "t1", env=env)[0] == 0
    assert forked(repo, "claim", "t1", env=env)[0] == 0  # as alice: the environment reached it
    env.pop("TASKPROTO_SESSION")  # a read by the owner renews its claim: none, to compare
    for args in (
        ("task", "list"),
        ("task", "show", "t1", "--json"),
        ("whoami",),
        ("task", "show", "nope"),  # refused: exit 1, one line on stderr
        ("no-such-command",),  # a usage error: exit 2
    ):
        assert forked(repo, *args, env=env) == started(repo, *args, env=env), args
    # its folder is the one asked for, not the zygote's
    sub = repo / "sub"
    sub.mkdir()
    assert forked(sub, "task", "list", env=env) == started(repo, "task", "list", env=env)


def test_pythons_own_variables_start_a_new_interpreter(tmp_path: Path) -> None:
    """A PYTHON variable is read at Python's start: a command given one it would ignore forked
    is started instead."""
    repo = make_repo(tmp_path / "repo")
    blocker = tmp_path / "blocked" / "click"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text("raise ImportError('blocked', name='click')\n")
    env = {**os.environ, "PYTHONPATH": str(blocker.parent)}
    code, _, err = forked(repo, "no-such-command", env=env)
    assert (code, err) == started(repo, "no-such-command", env=env)[::2]
    assert "blocked" in err

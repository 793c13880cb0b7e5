"""`taskproto transition` imports what a transition needs and nothing more: not the engine's other
operations (claims, sync, the ready queue, land), the remote, GitPython, or `subprocess` (a
transition starts no git)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import git

NOT_NEEDED = (
    "taskproto.engine.claims",
    "taskproto.engine.sync",
    "taskproto.engine.ready",
    "taskproto.engine.land",
    "taskproto.engine.tasks",
    "taskproto.engine.worktree",
    "taskproto.remote",
    "taskproto.git.repo",
    "git",
    "subprocess",
)


def test_a_transition_imports_none_of_the_other_operations(cli, repo: Path) -> None:  # type: ignore[no-untyped-def]
    assert cli("task", "create", "t1").code == 0
    probe = (
        "import json, sys\n"
        "from taskproto.cli import main\n"
        "code = main(sys.argv[1:])\n"
        "print(json.dumps([code, sorted(sys.modules)]))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe, "transition", "t1", "CLASSIFIED"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    code, loaded = json.loads(proc.stdout.strip().splitlines()[-1])
    assert code == 0 and "t1: INIT -> CLASSIFIED" in proc.stdout
    assert [m for m in NOT_NEEDED if m in loaded] == []
    # and it did what a transition does: a journal commit, task.json at its revision
    assert "CLASSIFIED" in git(repo, "log", "-1", "--format=%s", "refs/taskproto/tasks/t1")
    assert json.loads((repo / ".taskproto/tasks/t1/task.json").read_text())["state"] == "CLASSIFIED"


# what `task create` (no agents) imported before #44's follow-up, and needs for nothing on a
# create that succeeds: hashlib loads OpenSSL, `json` the standard library's Python encoder,
# shutil compression modules, typing its own weight (docs/performance.md)
CREATE_NOT_NEEDED = ("hashlib", "_hashlib", "json", "shutil", "typing", "base64")


def _create_probed(repo: Path, probe: str) -> tuple[int, object]:
    """`task create t1` run by `probe` (which prints `[code, what it found]` last): that pair, the
    create checked to have worked."""
    import ast

    proc = subprocess.run(
        [sys.executable, "-I", "-c", probe, "task", "create", "t1"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    code, found = ast.literal_eval(proc.stdout.strip().splitlines()[-1])
    assert code == 0 and "created task t1" in proc.stdout
    return code, found


def test_a_task_create_after_init_imports_nothing_it_does_not_use(cli, repo: Path) -> None:  # type: ignore[no-untyped-def]
    assert cli("init", "--claude").code == 0
    probe = (  # what the interpreter's start loaded (site, a sitecustomize) is not create's
        "import sys\n"
        "before = set(sys.modules)\n"
        "from taskproto.cli import main\n"
        "code = main(sys.argv[1:])\n"
        "print(repr([code, sorted(set(sys.modules) - before)]))\n"
    )
    code, loaded = _create_probed(repo, probe)
    assert isinstance(loaded, list)
    assert [m for m in CREATE_NOT_NEEDED if m in loaded] == []
    wt = repo / ".taskproto/tasks/t1/code"
    assert (wt / ".claude" / "settings.local.json").is_file()  # the hooks' copy was made


# what `task create` no longer imports before its `git worktree add` starts, but while git runs
# (engine/tasks.py `_ahead`): their import is a floor and more on this machine (docs/performance.md)
BEFORE_GIT_NOT_NEEDED = ("pathlib", "subprocess", "re", "enum", "signal", "threading", "locale")


def test_a_task_create_starts_git_before_its_heavier_imports(cli, repo: Path) -> None:  # type: ignore[no-untyped-def]
    assert cli("init", "--claude").code == 0
    probe = (  # the modules loaded when the first git process is spawned (an audit event)
        "import sys\n"
        "before, at = set(sys.modules), []\n"
        "def seen(event, args):\n"
        "    if event == 'os.posix_spawn' and not at:\n"
        "        at.append(sorted(set(sys.modules) - before))\n"
        "sys.addaudithook(seen)\n"
        "from taskproto.cli import main\n"
        "code = main(sys.argv[1:])\n"
        "print(repr([code, at[0] if at else None]))\n"
    )
    code, loaded = _create_probed(repo, probe)
    assert isinstance(loaded, list), "git was not started with os.posix_spawn"
    assert [m for m in BEFORE_GIT_NOT_NEEDED if m in loaded] == []
    assert (repo / ".taskproto/tasks/t1/code/.claude/settings.local.json").is_file()

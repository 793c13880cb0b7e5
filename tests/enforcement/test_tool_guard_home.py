"""A HOME or XDG_CONFIG_HOME of git's own, given by the ways a shell gives a variable to a git it
runs: assigned alone (the shell exports HOME already), declared, given to a shell, `eval` or an
interpreter that runs git. Each turns a real repository's hooks off, so each is refused to a session
that owns no task and to a task's; the harmless kin pass."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from taskproto.engine import Engine
from tests.conftest import git
from tests.enforcement.test_tool_guard_escapes import bash
from tests.hooks.agents.conftest import Hook, move_to

COMMIT = "git commit -q --allow-empty -m x"


@pytest.fixture
def t1(engine: Engine) -> Engine:
    engine.create_task("t1", ["dev"])
    engine.claim("t1", "s1")
    move_to(engine, "t1", "IMPLEMENTATION")
    return engine


def test_a_home_of_gits_own_given_any_way_the_shell_gives_it_is_refused(
    t1: Engine, hook: Hook, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[core]\n\thooksPath = /dev/null\n")
    doors = [
        f"HOME={home}; {COMMIT}",
        f"H={home}; HOME=$H; {COMMIT}",
        f"HOME={home} bash -c '{COMMIT}'",
        f"HOME={home} sh -c '{COMMIT}'",
        f"declare -x HOME={home}; {COMMIT}",
        f"typeset HOME={home}; {COMMIT}",
        f"HOME={home} eval {COMMIT}",
        f"for HOME in {home}; do {COMMIT}; done",
        f"printf -v HOME {home}; {COMMIT}",
        f"read HOME <<< {home}; {COMMIT}",
        f"""HOME={home} python3 -c 'import os; os.system("{COMMIT}")'""",
    ]
    scratch = tmp_path / "scratch"
    git(tmp_path, "init", "-q", str(scratch))
    (scratch / ".git" / "hooks" / "pre-commit").write_text("#!/bin/sh\nexit 1\n")
    (scratch / ".git" / "hooks" / "pre-commit").chmod(0o755)
    for command in doors:  # each one really runs no hook
        ran = subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True)
        assert ran.returncode == 0, (command, ran.stderr)
    doors.append(f"sudo HOME={home} {COMMIT}")  # sudo is not everywhere (not here): read alone
    let_through = {}
    for session, cwd in (("s-free", t1.config.repo), ("s1", t1.config.agent_worktree("t1", "dev"))):
        for command in doors:
            code, err = bash(hook, command, str(cwd), session=session)
            if code != 2 or "HOME reads git's settings" not in err:
                let_through[(session, command)] = err
    assert let_through == {}


@pytest.mark.parametrize(
    "command",
    [
        "HOME=~ git status",
        "HOME=~/ git status",
        "HOME=/tmp/x bash -c 'ls'",
        "HOME=/tmp/x python3 -m pip --version",
        "HOME=/tmp/x python3 -c 'print(1)'",
        "declare -x FOO=1; git status",
        "COLUMNS=80; git status",
        "for f in a b; do git add $f; done",
        "read -r name < /dev/null; git status",
        "sudo -u root git status",
        "printf HOME; git status",
        "export HOME=$HOME; bash -c 'git status'",
    ],
)
def test_the_shells_own_home_and_other_variables_pass(t1: Engine, hook: Hook, command: str) -> None:
    assert bash(hook, command, str(t1.config.agent_worktree("t1", "dev")), session="s1")[0] == 0

"""The tool guard and `$(git rev-parse --show-toplevel)`. A new user's walk found a script run as
`"$(git rev-parse --show-toplevel)/scripts/x.sh"` refused in a task-owning session (its name was
unreadable) while `sh scripts/x.sh` passed. The query is read-only and its answer is the worktree
the command runs in, so the guard reads it as that folder, and the script as any other script: a
script that moves `main` is denied as `sh scripts/bad.sh` is; one that does ordinary work passes.
Where the answer is not known (not in a worktree, GIT_DIR set, another query) it stays unreadable.
Each client's captured payload (Claude Code, Codex CLI, Gemini CLI), the real hook entry point."""

from __future__ import annotations

from pathlib import Path

import pytest

from taskproto.engine import Engine
from tests.enforcement.test_tool_guard_escapes import dev
from tests.enforcement.test_tool_guard_unreadable import CLIENTS, shell
from tests.hooks.agents.conftest import Hook

pytest_plugins = ["tests.enforcement.test_tool_guard_escapes"]  # its t1 fixture

TOP = "$(git rev-parse --show-toplevel)"
RUNS = [
    '"{top}/scripts/{s}"',
    "{top}/scripts/{s} --flag",
    'sh "{top}/scripts/{s}"',
    'bash "{top}"/scripts/{s}',
    '"`git rev-parse --show-toplevel`/scripts/{s}"',
    'cd "{top}" && ./scripts/{s}',
    'r="{top}"; cd scripts; sh "$r/scripts/{s}"',
    "./scripts/{s}",
]


@pytest.fixture
def scripts(t1: Engine) -> Path:
    """The dev agent's worktree with scripts/ok.sh (ordinary work) and scripts/bad.sh (moves
    main), executable, as a repository keeps its tools."""
    folder = dev(t1) / "scripts"
    folder.mkdir()
    (folder / "ok.sh").write_text("#!/bin/sh\ngit status\necho built > out.txt\n")
    (folder / "bad.sh").write_text("#!/usr/bin/env bash\ngit branch -f main HEAD\n")
    for script in folder.iterdir():
        script.chmod(0o755)
    return folder


@pytest.mark.parametrize("client", sorted(CLIENTS))
@pytest.mark.parametrize("form", RUNS)
def test_a_script_named_from_the_worktrees_top_is_read_as_any_script(
    t1: Engine, scripts: Path, hook: Hook, client: str, form: str
) -> None:
    cwd = str(dev(t1))
    assert shell(hook, client, form.format(top=TOP, s="ok.sh"), cwd) == (0, "")
    refused = shell(hook, client, "sh scripts/bad.sh", cwd)
    assert refused[0] == 2 and "refs/heads/main is not a branch of this agent's" in refused[1]
    assert shell(hook, client, form.format(top=TOP, s="bad.sh"), cwd) == refused


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_the_top_is_the_worktree_the_command_runs_in(
    t1: Engine, scripts: Path, hook: Hook, client: str
) -> None:
    """A write named from the top is judged as the path it is: in the agent's worktree it passes,
    up into the other agent's worktree it is denied."""
    cwd = str(scripts)  # a folder inside the worktree: the top is still the worktree's
    assert shell(hook, client, f'echo x > "{TOP}/notes.txt"', cwd) == (0, "")
    code, err = shell(hook, client, f'echo x > "{TOP}/../../qa/code/x.py"', cwd)
    assert code == 2 and "outside this agent's worktree" in err, err


# substitutions whose output is not known before the command runs
CANNOT_KNOW = [
    f'cd {{elsewhere}} && "{TOP}/x.sh"',  # not in a worktree: git has no answer
    f'export GIT_DIR=/x; "{TOP}/scripts/ok.sh"',  # git answers from GIT_DIR
    '"$(git rev-parse --show-cdup)scripts/ok.sh"',  # another query
    '"$(git -C {elsewhere} rev-parse --show-toplevel)/x.sh"',
    '"$(git rev-parse --show-toplevel; echo /bin)/git" status',
]


@pytest.mark.parametrize("client", sorted(CLIENTS))
@pytest.mark.parametrize("command", CANNOT_KNOW)
def test_a_substitution_it_cannot_know_stays_unreadable(
    t1: Engine, scripts: Path, hook: Hook, tmp_path: Path, client: str, command: str
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code, err = shell(hook, client, command.format(elsewhere=elsewhere), str(dev(t1)))
    assert code == 2 and err.startswith("taskproto: the guard cannot read what this command"), err

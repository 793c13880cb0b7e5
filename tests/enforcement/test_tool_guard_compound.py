"""The tool guard reads a compound command for the commands inside it: a brace group, an `if`'s
condition and branches, a loop's body, a negated pipeline. Found by a new user's walk: a session's
`{ git -C <repository> commit ... ; } > out 2>&1` passed the guard that `git -C <repository>
commit` alone meets (the git hook still refused it). Through the real hook entry point with a real
Claude Code payload."""

from __future__ import annotations

import shlex

import pytest

from taskproto.engine import Engine
from tests.enforcement.test_tool_guard_escapes import bash, dev, qa
from tests.hooks.agents.conftest import Hook

pytest_plugins = ["tests.enforcement.test_tool_guard_escapes"]  # its t1 fixture

SHAPES = [
    "{{ {c} ; }}",
    "{{ {c} ; }} > /tmp/walk-out.txt 2>&1",
    "if true; then {c}; fi",
    "if {c}; then echo ok; fi",
    "if false; then :; else {c}; fi",
    "while {c}; do break; done",
    "for i in 1; do {c}; done",
    "! {c}",
    "( {c} )",
    "until {c}; do break; done",
    "case x in x) {c};; esac",
    "f() {{ {c}; }}; f",
    "function f {{ {c}; }}; f",
]


def _commands(engine: Engine) -> list[str]:
    q = shlex.quote(str(qa(engine)))
    return [f"git -C {q} commit -m x", "git branch -f main HEAD", "taskproto land t1"]


@pytest.mark.parametrize("shape", SHAPES)
def test_a_command_inside_a_compound_command_meets_the_guard(
    t1: Engine, hook: Hook, shape: str
) -> None:
    for command in _commands(t1):
        alone = bash(hook, command, str(dev(t1)))
        assert alone[0] == 2, (command, alone)
        wrapped = shape.format(c=command)
        code, err = bash(hook, wrapped, str(dev(t1)))
        assert (code, err) == alone, wrapped


@pytest.mark.parametrize("shape", SHAPES)
def test_ordinary_work_inside_a_compound_command_passes(t1: Engine, hook: Hook, shape: str) -> None:
    command = shape.format(c="git status && touch x")
    assert bash(hook, command, str(dev(t1))) == (0, ""), command

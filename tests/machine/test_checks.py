"""Workflow definitions are checked when they are built: the built-ins as well as user files."""

from __future__ import annotations

import pytest

from taskproto.errors import ValidationFailed
from taskproto.machine import checks
from taskproto.machine.registry import BUILTINS, builtin, get_workflow
from taskproto.machine.steps import EFFECTS, GUARDS
from taskproto.machine.workflow import StateDef, TransitionDef, Workflow


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_every_builtin_passes_the_definition_checks(name: str) -> None:
    wf = BUILTINS[name]()
    assert checks.problems(wf, GUARDS, EFFECTS) == []
    assert get_workflow(name) is builtin(name)  # built once, then kept


def _broken() -> Workflow:
    return Workflow(
        name="broken",
        initial="START",
        states=[
            StateDef(name="A"),
            StateDef(name="B", terminal=True),
            StateDef(name="LOST", allows_merge=True),
        ],
        transitions=[
            TransitionDef(trigger="go", source=["A"], dest="B", guards=["no_such_guard"]),
            TransitionDef(trigger="back", source=["B"], dest="A", effects=["no_such_effect"]),
            TransitionDef(trigger="jump", source=["NOWHERE"], dest="A"),
        ],
    )


def test_a_broken_definition_is_refused_when_built_with_every_problem_named() -> None:
    with pytest.raises(ValidationFailed) as raised:
        checks.require_valid(_broken(), GUARDS, EFFECTS, "built-in workflow broken")
    text = str(raised.value)
    for expected in (
        "initial: 'START' is not one of the states",
        "transitions[0].guards[0]: unknown guard 'no_such_guard'",
        "transitions[1].effects[0]: unknown effect 'no_such_effect'",
        "transitions[2].source[0]: unknown state 'NOWHERE'",
        "states[1].terminal: B is terminal but has exits (back)",
        "states[2].allows_merge: 'LOST' allows merging but not commits",
    ):
        assert expected in text, expected
    assert text.startswith("built-in workflow broken: workflow 'broken' is invalid")


def test_unreachable_states_and_no_terminal_state_are_refused() -> None:
    wf = Workflow(
        name="loop",
        initial="A",
        states=[StateDef(name="A"), StateDef(name="B"), StateDef(name="ISLAND")],
        transitions=[
            TransitionDef(trigger="go", source=["A"], dest="B"),
            TransitionDef(trigger="back", source=["B"], dest="A"),
        ],
    )
    found = checks.problems(wf, GUARDS, EFFECTS)
    assert "states[2]: ISLAND is unreachable from the initial state A" in found
    assert "states: no state is terminal; mark the final one `terminal = true`" in found

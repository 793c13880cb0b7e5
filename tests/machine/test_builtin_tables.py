"""The built-in workflows' state tables shipped with the package (machine/builtin/tables/) are
the definitions' own: the hooks and the quick paths decide on them without loading a workflow."""

from __future__ import annotations

import json

import pytest

from taskproto.hooks.flags import builtin_table
from taskproto.machine.registry import builtin, builtin_names


@pytest.mark.parametrize("name", builtin_names())
def test_each_shipped_table_is_its_definitions(name: str) -> None:
    computed = json.loads(json.dumps(builtin(name).state_table()))
    assert builtin_table(name) == computed, (
        f"machine/builtin/tables/{name}.json is not {name}'s table: run "
        "`python scripts/make_builtin_tables.py`"
    )


def test_only_built_in_names_have_one() -> None:
    for name in ("my-flow", "../task-protocol", "task-protocol/../x", ""):
        assert builtin_table(name) is None

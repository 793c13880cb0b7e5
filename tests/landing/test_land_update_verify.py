"""A task landed with `land --update` (its approval carried to the updated head, the same change)
passes `taskproto verify`: the carried approval records the diff of the head it names. Found
walking README's `land --update` and then `verify --all` as a new user: "FAILED ... its approval
names <new head>, but the diff approved ends at <old head>"."""

from __future__ import annotations

from pathlib import Path

import pytest

from taskproto.engine import Engine
from tests.landing.conftest import approved_task, move_base


@pytest.mark.parametrize("how", ["--update", "--update-rebase"])
def test_a_task_landed_with_update_verifies(hooked: Engine, repo: Path, cli, how: str) -> None:
    approved_task(hooked, "t", {"t.py": "t = 1\n"})
    move_base(repo, "other.py", "o = 1\n")
    r = cli("land", "t", how)
    assert r.code == 0, r.err
    r = cli("verify", "--all")
    assert r.code == 0, r.out + r.err
    assert "t: ok" in r.out and "FAILED" not in r.out

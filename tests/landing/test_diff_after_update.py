"""What a task changes, once the base was brought into it (`taskproto update`, or an agent's own
`git merge main`): its own changes against the base, not the base's new commits too. Found walking
a task the queue sent back: after merging main to resolve the conflict, `approve --commit` said
"3 files changed (agent.sh, app.py, q3.txt)" for a task that changes app.py alone."""

from __future__ import annotations

import json
from pathlib import Path

from taskproto.engine import Engine
from tests.landing.conftest import approved_task, move_base


def test_diff_and_the_approval_show_the_tasks_own_changes_after_an_update(
    hooked: Engine, repo: Path, cli
) -> None:
    approved_task(hooked, "t", {"t.py": "t = 1\n"}, complete=False)
    move_base(repo, "other.py", "o = 1\n")
    assert cli("update", "t").code == 0
    r = cli("diff", "t", "--stat", "--json")
    assert r.code == 0, r.err
    assert [f["path"] for f in json.loads(r.out)["files"]] == ["t.py"]
    r = cli("approve", "t", "--commit")
    assert r.code == 0, r.err
    assert "1 file changed, +1 -0 (t.py)" in r.out

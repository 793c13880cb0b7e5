"""A journal git cannot read vouches for nothing: a crash, a disk fault, or an agent that deletes
the journal's newest commit from .git/objects to get a hand-edited task.json past the integrity
check. Every door refuses the task (journal-corrupt), doctor reports it without stopping at the
corrupt object, and its repair gives the journal its readable history back, keeping the
task.json it cannot vouch for aside.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.errors import Untrusted
from taskproto.state import journal
from tests.conftest import git, run_taskproto
from tests.hooks.agents.conftest import Hook
from tests.integrity.test_integrity import (
    AS_OWNER,
    SESSION,
    findings,
    fix,
    forge,
    git_blob,
    history,
    refused,
    work_refused,
)

CORRUPT = "journal-corrupt"


def object_file(engine: Engine, sha: str) -> Path:
    return engine.config.repo / ".git" / "objects" / sha[:2] / sha[2:]


def spoil(engine: Engine, sha: str, how: str) -> None:
    """What a crash (an empty object file) or an agent (`rm`) leaves of one object."""
    path = object_file(engine, sha)
    if how == "deleted":
        path.unlink()
    else:
        os.chmod(path, 0o644)
        path.write_bytes(b"")


@pytest.mark.parametrize("how", ["deleted", "emptied"])
def test_an_unreadable_journal_head_lets_no_forged_state_through_any_door(
    t1: Engine, hook: Hook, how: str
) -> None:
    t1.fire("t1", "classify", session=SESSION)
    spoil(t1, history(t1)[0], how)
    forge(t1, {"state": "IMPLEMENTATION"})  # would allow commits and edits
    forged = t1.config.task_file("t1").read_bytes()
    dev = t1.config.agent_worktree("t1", "dev")

    for env in (AS_OWNER, {**AS_OWNER, "TASKPROTO_QUICK": "0"}):  # the quick path and the engine
        refused(
            run_taskproto("transition", "t1", "VALIDATION", cwd=t1.config.repo, env=env), CORRUPT
        )
    refused(run_taskproto("task", "show", "t1", cwd=t1.config.repo), CORRUPT)
    with pytest.raises(Untrusted, match=CORRUPT):
        Engine(load_config(t1.config.repo)).fire("t1", "implement", session=SESSION)
    work_refused(dev, hook, CORRUPT)  # the git hooks and the agent client's hook
    assert t1.config.task_file("t1").read_bytes() == forged  # the refusals wrote nothing


def test_doctor_reports_it_past_the_corrupt_object_and_restores_the_readable_history(
    t1: Engine,
) -> None:
    t1.fire("t1", "classify", session=SESSION)
    t1.fire("t1", "gather_requirements", session=SESSION)
    t1.create_task("t2", ["dev"])  # asked of git after t1's corrupt commit
    t1.fire("t2", "classify")
    commits = history(t1)
    before = t1.config.task_file("t1").read_bytes()
    spoil(t1, commits[0], "emptied")  # what a crash can leave of the last save's commit

    assert findings(t1) == {CORRUPT}  # t2's journal was read too: nothing else is reported
    fix(t1)
    task = t1.load("t1")
    assert task.state == "CLASSIFIED"  # the newest state a readable journal commit vouches for
    assert "journal-corrupt" in (task.transition_log[-1].note or "")
    assert commits[0] in (task.transition_log[-1].note or "")  # the unreadable commit is named
    assert history(t1)[1:] == commits[1:]  # its readable history, plus the repair commit
    kept = [
        p
        for p in t1.config.task_dir("t1").iterdir()
        if p.name.startswith("task.json.journal-corrupt-")
    ]
    assert len(kept) == 1 and kept[0].read_bytes() == before  # nothing lost
    assert findings(t1) == set()
    assert t1.load("t2").state == "CLASSIFIED"
    # the corrupt object file is kept in the task's folder, out of git's way: gc runs again
    objs = [p for p in t1.config.task_dir("t1").iterdir() if p.name.startswith("journal-object-")]
    assert [p.name.split(".")[0] for p in objs] == [f"journal-object-{commits[0]}"]
    assert objs[0].read_bytes() == b"" and not object_file(t1, commits[0]).exists()
    git(t1.config.repo, "gc", "-q")
    t1.fire("t1", "gather_requirements", session=SESSION)
    assert json.loads(git_blob(t1, journal.ref_for("t1")))["state"] == "REQUIREMENTS"


def test_with_no_readable_history_the_current_task_json_starts_a_journal_for_review(
    t1: Engine,
) -> None:
    for sha in history(t1):
        spoil(t1, sha, "deleted")
    assert CORRUPT in findings(t1)
    fix(t1)
    task = t1.load("t1")
    assert task.needs_review and task.state == "INIT"
    assert len(history(t1)) == 1
    assert findings(t1) == {"needs-review"}

"""The user's corrections (rollback, ack) and one bad task never stopping the others.

Real repositories, the real CLI as a subprocess (the way a person or an agent runs it).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taskproto.board.snapshot import board
from taskproto.config import load_config
from taskproto.doctor import run as doctor
from taskproto.engine import Engine
from taskproto.state import journal
from taskproto.state.models import utcnow
from tests.conftest import git, run_taskproto
from tests.hooks.agents.conftest import move_to

USER = {"TASKPROTO_SESSION": "s1"}
AGENT = {"TASKPROTO_SESSION": "s1", "CLAUDECODE": "1"}


def commits(engine: Engine, name: str = "t1") -> list[str]:
    return git(engine.config.repo, "rev-list", journal.ref_for(name)).split()


def findings(engine: Engine) -> set[str]:
    return {f.check for f in doctor(load_config(engine.config.repo), ()).findings}


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.fixture
def t1(engine: Engine) -> Engine:
    engine.create_task("t1", ["dev"])
    engine.claim("t1", "s1")
    move_to(engine, "t1", "IMPLEMENTATION")  # the plan approval is recorded on the way
    assert engine.load("t1").checkpoint.plan_approval is not None
    return engine


def test_rollback_is_a_new_journaled_step_that_revokes_later_approvals(t1: Engine) -> None:
    before = commits(t1)
    result = run_taskproto("rollback", "t1", "--to", "SYNTHESIS", "--json", cwd=t1.config.repo)
    assert result.code == 0, result.err
    assert json.loads(result.out)["revoked"] == ["plan"]
    task = t1.load("t1")
    assert task.state == "SYNTHESIS" and task.checkpoint.plan_approval is None
    assert [a.kind for a in task.checkpoint.revoked] == ["plan"]
    assert task.checkpoint.revoked[0].revoked_reason
    assert commits(t1)[1:] == before  # history kept, one step added
    log = run_taskproto("log", "t1", cwd=t1.config.repo)
    assert "rollback" in log.out.splitlines()[-1] and "SYNTHESIS" in log.out.splitlines()[-1]
    assert findings(t1) == set()  # a rollback is a legal step of the log
    # the revoked approval no longer counts: IMPLEMENTATION needs a new one
    again = run_taskproto("transition", "t1", "IMPLEMENTATION", cwd=t1.config.repo, env=USER)
    assert again.code == 1 and "approv" in one_line(again.err)


def test_rollback_to_a_revision(t1: Engine) -> None:
    result = run_taskproto("rollback", "t1", "--revision", "3", cwd=t1.config.repo)
    assert result.code == 0, result.err
    state_at_3 = json.loads(git(t1.config.repo, "show", f"{commits(t1)[-3]}:task.json") or "{}")[
        "state"
    ]
    assert t1.load("t1").state == state_at_3


def test_rollback_refusals_write_nothing(t1: Engine) -> None:
    before, data = commits(t1), t1.config.task_file("t1").read_bytes()
    cases = [
        (["rollback", "t1", "--to", "COMPLETE"], {}, "was never in COMPLETE"),
        (["rollback", "t1", "--to", "IMPLEMENTATION"], {}, "already"),
        (["rollback", "t1", "--revision", "99"], {}, "--revision must be an earlier one"),
        (["rollback", "t1", "--to", "INIT"], AGENT, "is the user's to do"),
    ]
    for args, env, message in cases:
        result = run_taskproto(*args, cwd=t1.config.repo, env=env)
        assert result.code == 1, result
        assert message in one_line(result.err), result.err
    usage = run_taskproto("rollback", "t1", cwd=t1.config.repo)
    assert usage.code == 2
    assert commits(t1) == before and t1.config.task_file("t1").read_bytes() == data


def test_ack_clears_needs_review_journaled_and_only_for_the_user(engine: Engine) -> None:
    engine.create_task("t1")
    path = engine.config.task_file("t1")
    path.unlink()  # lost, and no journal to rebuild from either
    git(
        engine.config.repo,
        "-c",
        "core.hooksPath=/dev/null",
        "update-ref",
        "-d",
        journal.ref_for("t1"),
    )
    git(engine.config.repo, "gc", "-q", "--prune=now")
    doctor(load_config(engine.config.repo), (), fix=True)
    assert engine.load("t1").needs_review
    refused = run_taskproto("ack", "t1", cwd=engine.config.repo, env=AGENT)
    assert refused.code == 1 and "is the user's to do" in one_line(refused.err)
    before = commits(engine)
    done = run_taskproto("ack", "t1", "--json", cwd=engine.config.repo)
    assert done.code == 0, done.err and json.loads(done.out)["needs_review"] is False
    assert not engine.load("t1").needs_review and len(commits(engine)) == len(before) + 1
    again = run_taskproto("ack", "t1", cwd=engine.config.repo)
    assert again.code == 1 and "nothing to acknowledge" in one_line(again.err)


def plant(engine: Engine, name: str, **fields: str) -> None:
    """A task.json that names a state or workflow that does not exist, journaled (as an older
    version or a removed user workflow would leave it): only the unknown name is wrong."""
    path = engine.config.task_file(name)
    data = json.loads(path.read_text())
    if "state" in fields:
        data["transition_log"].append(
            {
                "from": data["state"],
                "to": fields["state"],
                "trigger": "old",
                "time": utcnow().isoformat(),
                "kind": "transition",
            }
        )
    data.update(fields)
    data["revision"] += 1
    path.write_text(json.dumps(data, indent=2))
    files = {journal.TASK_FILE: path.read_bytes()}
    journal.append(engine.git, engine.config.layout.dirs, name, files, "planted", data["revision"])


@pytest.mark.parametrize(
    ("fields", "finding"),
    [({"state": "LIMBO"}, "state-unknown"), ({"workflow": "gone-flow"}, "workflow-unknown")],
)
def test_one_task_in_an_unknown_state_or_workflow_never_stops_the_others(
    engine: Engine, fields: dict[str, str], finding: str
) -> None:
    for name in ("a1", "bad", "c3"):
        engine.create_task(name)
    plant(engine, "bad", **fields)
    repo: Path = engine.config.repo
    listed = run_taskproto("task", "list", "--json", cwd=repo)
    assert listed.code == 0, listed.err
    rows = {r["name"]: r for r in json.loads(listed.out)}
    assert rows["a1"]["state"] == "INIT" and rows["c3"]["state"] == "INIT"
    assert "manual intervention required" in rows["bad"]["error"]
    for args in (["task", "show", "bad"], ["claim", "bad"], ["transition", "bad", "CLASSIFIED"]):
        before = commits(engine, "bad")
        result = run_taskproto(*args, cwd=repo, env=USER)
        assert result.code == 1, result  # never an internal error (exit 3)
        assert "manual intervention required" in one_line(result.err)
        assert commits(engine, "bad") == before  # journals nothing
    found = findings(engine)
    assert finding in found
    shown = board(engine)
    assert {t["name"] for t in shown["tasks"]} == {"a1", "bad", "c3"}
    assert "error" in next(t for t in shown["tasks"] if t["name"] == "bad")
    if finding == "state-unknown":  # the user's way out: back to a state the log reached
        result = run_taskproto("rollback", "bad", "--to", "INIT", cwd=repo)
        assert result.code == 0, result.err
        assert engine.load("bad").state == "INIT"
        # the planted step stays in the history (nothing is rewritten), named for what it is
        assert findings(engine) == {"log-illegal-transition"}

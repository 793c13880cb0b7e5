"""An escalation (`taskproto escalate`) is a request for the user: recorded in task.json and its
journal, shown by `task show` and `task list` (the quick path and the full command alike), and the
task is not offered by `ready` nor taken by an unnamed `claim` until the user resumes it.
tests/board/test_escalations.py: the board; tests/hooks/agents/test_events.py: SessionStart's
offer."""

from __future__ import annotations

import json
from pathlib import Path

from taskproto.engine import Engine
from taskproto.state import journal
from tests.conftest import git, run_taskproto

AGENT = {"TASKPROTO_AGENT": "1", "TASKPROTO_SESSION": "agent-1"}


def both(repo: Path, *args: str) -> str:
    """The output of a read command, the quick path's and the full command's, which must agree."""
    quick = run_taskproto(*args, cwd=repo)
    full = run_taskproto(*args, cwd=repo, env={"TASKPROTO_QUICK": "0"})
    assert quick.code == full.code == 0, quick.err + full.err
    assert quick.out == full.out
    return quick.out


def escalated(engine: Engine, repo: Path) -> None:
    engine.create_task("blocked", [])
    engine.create_task("other", [], priority=3)
    r = run_taskproto(
        "escalate",
        "blocked",
        "--reason",
        "external-dependency",
        "--detail",
        "the staging database is down",
        "--tried",
        "retried twice",
        cwd=repo,
        env=AGENT,
    )
    assert r.code == 0, r.err
    assert "`taskproto resume blocked`" in r.out  # the message names the user's way out


def test_an_escalation_is_recorded_and_shown(engine: Engine, repo: Path) -> None:
    escalated(engine, repo)
    recorded = json.loads(git(repo, "show", f"{journal.ref_for('blocked')}:task.json"))
    (e,) = recorded["escalations"]  # journaled, not only a log note
    assert (e["reason"], e["detail"], e["tried"], e["session"]) == (
        "external-dependency",
        "the staging database is down",
        ["retried twice"],
        "agent-1",
    )
    text = both(repo, "task", "show", "blocked")
    assert (
        "  ESCALATED  external-dependency: the staging database is down (" in text
        and "by agent-1); waits for the user: `taskproto resume blocked` once it is settled" in text
    )
    assert "tried: retried twice" in text
    shown = json.loads(both(repo, "task", "show", "blocked", "--json"))
    assert [x["reason"] for x in shown["escalations"]] == ["external-dependency"]
    listed = both(repo, "task", "list")
    line = next(x for x in listed.splitlines() if x.startswith("blocked"))
    assert line.endswith("ESCALATED (external-dependency)")
    assert "ESCALATED" not in next(x for x in listed.splitlines() if x.startswith("other"))
    rows = {r["name"]: r for r in json.loads(both(repo, "task", "list", "--json"))}
    assert rows["blocked"]["escalations"][0]["detail"] == "the staging database is down"
    assert rows["other"]["escalations"] == []


def test_an_escalated_task_is_not_ready_until_the_user_resumes_it(
    engine: Engine, repo: Path
) -> None:
    escalated(engine, repo)
    ready = json.loads(run_taskproto("ready", "--all", "--json", cwd=repo).out)
    assert [e["name"] for e in ready["ready"]] == ["other"]  # blocked is more urgent, but waits
    (waiting,) = ready["not_ready"]
    assert waiting["name"] == "blocked" and "escalated to the user" in waiting["not_ready"]
    # an unnamed claim passes it by, and says why when nothing else is left
    r = run_taskproto("claim", cwd=repo, env={"TASKPROTO_SESSION": "s1"})
    assert r.code == 0 and "task other" in r.out, r.err
    r = run_taskproto("claim", cwd=repo, env={"TASKPROTO_SESSION": "s2"})
    assert r.code == 1 and "no task is ready" in r.err
    assert engine.load("blocked").owner is None
    # the clearing is the user's: an agent is refused, and nothing is written
    before = engine.load("blocked").revision
    r = run_taskproto("resume", "blocked", cwd=repo, env=AGENT)
    assert r.code == 1 and "the user's to do" in r.err
    assert engine.load("blocked").revision == before
    r = run_taskproto("resume", "blocked", cwd=repo)
    assert r.code == 0, r.err
    task = engine.load("blocked")
    assert task.escalations == []
    assert task.transition_log[-1].trigger == "resolve"
    assert "escalation resolved (external-dependency)" in (task.transition_log[-1].note or "")
    r = run_taskproto("claim", cwd=repo, env={"TASKPROTO_SESSION": "s2"})
    assert r.code == 0 and "task blocked" in r.out, r.err
    assert "ESCALATED" not in both(repo, "task", "list")

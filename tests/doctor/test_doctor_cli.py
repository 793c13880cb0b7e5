"""The CLI: table grouped by task, --json fields, exit codes, escalation template override,
recover."""

from __future__ import annotations

import json
import shutil
from datetime import timedelta
from pathlib import Path
from typing import Any

from doctor_helpers import Env, commit_file

from taskproto.state.models import AgentState, utcnow

JSON_FINDING = {
    "fix_refused",
    "check",
    "severity",
    "task",
    "agent",
    "path",
    "message",
    "fix",
    "fix_needs",
    "escalation",
}


def test_table_json_and_exit_codes(env: Env, cli: Any) -> None:
    r = cli("doctor")
    assert r.code == 0 and "healthy" in r.out
    shutil.rmtree(env.worktree("a"))
    r = cli("doctor")
    assert r.code == 1
    assert r.out.splitlines()[0].startswith("summary: 1 task(s) checked, 1 error(s)")  # first
    assert r.out.splitlines()[1].startswith("  t: agent-worktree-missing")
    assert "\nt\n" in r.out  # the details after
    assert "agent-worktree-missing" in r.out and "summary: 1 task(s) checked" in r.out
    assert "finding(s) remain" in r.err
    data = json.loads(cli("doctor", "--json").out)
    assert set(data) == {"version", "healthy", "tasks_checked", "summary", "findings", "fixes"}
    assert all(set(f) == JSON_FINDING for f in data["findings"])
    r = cli("doctor", "--fix", "--json")
    data = json.loads(r.out)
    assert r.code == 0 and data["healthy"] and data["summary"]["fixed"] >= 1
    assert {x["status"] for x in data["fixes"]} == {"applied"}
    assert set(data["fixes"][0]) == {"check", "task", "agent", "path", "status", "action", "error"}


def test_the_last_line_offers_fix_only_when_a_finding_has_a_safe_fix(env: Env, cli: Any) -> None:
    env.set_status("b", status=AgentState.ERROR, retry_count=3)  # no safe fix: a decision
    r = cli("doctor")
    assert r.code == 1 and len(r.err.strip().splitlines()) == 1
    assert "--fix" not in r.err, r.err
    assert "no safe fix" in r.err and "decision" in r.err
    env.set_status("a", status=AgentState.ERROR, retry_count=0)  # repaired with the flag only
    r = cli("doctor")
    assert "run `taskproto doctor --fix --retry-agents` to repair 1 of them" in r.err, r.err
    shutil.rmtree(env.worktree("a"))
    r = cli("doctor")
    assert "run `taskproto doctor --fix` to repair" in r.err, r.err
    r = cli("doctor", "--fix")
    assert r.code == 1
    assert "run `taskproto doctor --fix --retry-agents` to repair 1 of them" in r.err, r.err
    r = cli("doctor", "--fix", "--retry-agents")
    assert r.code == 1 and "--fix" not in r.err and "no safe fix" in r.err, r.err


def test_named_tasks_only(env: Env, cli: Any) -> None:
    env.engine.create_task("u")
    shutil.rmtree(env.worktree(name="u"))
    assert cli("doctor", "t").code == 0
    assert cli("doctor", "u").code == 1


def test_a_named_task_that_does_not_exist_is_refused_not_healthy(env: Env, cli: Any) -> None:
    r = cli("doctor", "nosuch")  # a typo is not a healthy task
    assert r.code == 1 and r.out == "", r.out
    assert r.err.strip().splitlines() == [
        "taskproto: no task named 'nosuch' (see `taskproto task list`; create one with "
        "`taskproto task create nosuch`)"
    ]
    assert cli("doctor", "t", "nosuch", "--json").code == 1  # nothing is checked, nothing fixed
    shutil.rmtree(env.config.task_dir("t"))  # its folder gone, its journal kept: doctor's to fix
    r = cli("doctor", "t", "--fix")
    assert r.code == 0 and env.config.task_file("t").is_file(), r.out + r.err


def test_escalation_template_can_be_overridden(env: Env, cli: Any) -> None:
    env.set_status("b", status=AgentState.ERROR, retry_count=3)
    r = cli("doctor")
    assert "Task 't' encountered a recovery scenario requiring user guidance" in r.out
    assert "**Current State**: INIT" in r.out and "Pros:" in r.out
    custom = env.config.root / "templates" / "escalation.md.j2"
    custom.parent.mkdir(parents=True)
    custom.write_text("ESCALATE {{ task }} / {{ check }} / {{ options | length }} options\n")
    r = cli("doctor")
    assert "ESCALATE t / agent-retries-exhausted / 4 options" in r.out


def test_list_checks(cli: Any) -> None:
    data = json.loads(cli("doctor", "--list-checks", "--json").out)
    assert "lock-invalid-json" in {c["check"] for c in data}


def test_recover_resume_instructions(env: Env, cli: Any) -> None:
    e = env.engine
    for trigger in ("classify", "gather_requirements", "synthesize"):
        e.fire("t", trigger)
    r = cli("recover", "t")
    assert r.code == 0
    assert "re-present the plan" in r.out and "approve t --plan" in r.out
    e.approve("t", "plan", "user")
    assert "The plan is approved" in cli("recover", "t").out


def test_recover_requeues_incomplete_agents_and_escalates_at_the_max(env: Env, cli: Any) -> None:
    e = env.engine
    for trigger in ("classify", "gather_requirements"):
        e.fire("t", trigger)
    e.set_agent_status("t", "a", AgentState.ERROR, "boom")
    env.set_status("b", status=AgentState.WORKING, updated_at=utcnow() - timedelta(hours=2))
    data = json.loads(cli("recover", "t", "--json").out)
    agents = next(s for s in data["steps"] if s["procedure"] == "agents")
    assert agents["found"][0] == "Summary: 0/2 complete, 1 error(s), 1 timeout(s), 0 missing"
    assert len(agents["did"]) == 2
    for agent in ("a", "b"):
        status = e.agent_status("t", agent)
        assert (
            status is not None and status.status == AgentState.PENDING and status.retry_count == 1
        )
    env.set_status("a", status=AgentState.ERROR, retry_count=3)
    r = cli("recover", "t")
    assert (
        r.code == 1 and "encountered a recovery scenario" in r.out and "needs a decision" in r.err
    )
    assert e.agent_status("t", "a").retry_count == 3  # type: ignore[union-attr]


def test_recover_repairs_corruption_first(env: Env, cli: Any) -> None:
    e = env.engine
    e.fire("t", "classify")
    env.task_file().write_text("{")
    r = cli("recover", "t")
    assert r.code == 0, r.out + r.err
    assert "[corruption]" in r.out and "rebuilt from journal" in r.out
    assert "state CLASSIFIED" in r.out


def test_recover_awaiting_approval_represents_the_commit(
    env: Env, cli: Any, tmp_path: Path
) -> None:
    e = env.engine
    for trigger in ("classify", "gather_requirements", "synthesize"):
        e.fire("t", trigger)
    e.approve("t", "plan", "user")
    e.fire("t", "implement")
    for agent in ("a", "b"):
        e.set_agent_status("t", agent, AgentState.COMPLETE)
    for trigger in ("validate", "review", "request_approval"):
        e.fire("t", trigger)
    sha = str(e.load("t").checkpoint.commit_sha)
    out = cli("recover", "t").out
    assert f"(commit {sha[:12]})" in out
    commit_file(env.worktree(), "more.txt")
    assert "has moved to" in cli("recover", "t").out


def test_recover_reports_a_recorded_build_failure(env: Env, cli: Any) -> None:
    env.edit(
        lambda d: d["context"].update(
            builds=[{"argv": ["make"], "exit_code": 2, "kind": "unknown"}]
        )
    )
    r = cli("recover", "t")
    assert "[build]" in r.out and "unknown error type" in r.out and r.code == 1


def test_a_healthy_report_ends_with_its_summary(repo: Path) -> None:
    """Nothing found, nothing fixed: the summary is the whole report, with no blank line after."""
    from tests.conftest import run_taskproto

    r = run_taskproto("doctor", cwd=repo)
    assert r.code == 0, r.err
    assert r.out.startswith("summary: ") and r.out.endswith("; healthy\n") and "\n\n" not in r.out

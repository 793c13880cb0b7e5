"""The task protocol's procedures 2 and 3 and its escalation policy: agent summary counts,
IN_PROGRESS read as WORKING, `agent wait`, the unknown build log kept next to the task, and the
escalations no check can see (`taskproto escalate`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from datetime import timedelta
from typing import Any

from doctor_helpers import Env

from taskproto.state.models import AgentState, utcnow


def _in_requirements(env: Env) -> None:
    for trigger in ("classify", "gather_requirements"):
        env.engine.fire("t", trigger)


def test_agent_summary_counts_complete_error_timeout_missing(env: Env, cli: Any) -> None:
    env.engine.create_task("u", ["a", "b", "c", "d"])
    for trigger in ("classify", "gather_requirements"):
        env.engine.fire("u", trigger)
    e = env.engine
    e.set_agent_status("u", "a", AgentState.COMPLETE)
    e.set_agent_status("u", "b", AgentState.ERROR, "boom")
    path = env.config.status_file("u", "c")
    data = json.loads(path.read_text())
    data.update(status="IN_PROGRESS", updated_at=(utcnow() - timedelta(hours=2)).isoformat())
    path.write_text(json.dumps(data))  # what the protocol's own scripts write
    env.config.status_file("u", "d").unlink()
    out = json.loads(cli("recover", "u", "--dry-run", "--json").out)
    agents = next(s for s in out["steps"] if s["procedure"] == "agents")
    assert agents["found"][0] == "Summary: 1/4 complete, 1 error(s), 1 timeout(s), 1 missing"
    assert any(line.startswith("c: TIMEOUT") for line in agents["found"])  # IN_PROGRESS = WORKING
    r = cli("recover", "u", "--dry-run")
    assert "  would: re-queue b" in r.out and "did:" not in r.out


def test_in_progress_is_accepted_and_read_as_working(env: Env, cli: Any) -> None:
    _in_requirements(env)
    r = cli("agent", "set", "t", "a", "--status", "IN_PROGRESS")
    assert r.code == 0, r.err
    assert env.engine.agent_status("t", "a").status == AgentState.WORKING  # type: ignore[union-attr]


def _wait(env: Env, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "taskproto", "agent", "wait", "t", "--interval", "0.1", *args],
        cwd=env.repo,
        env=dict(os.environ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_agent_wait_returns_when_every_agent_is_complete(env: Env) -> None:
    _in_requirements(env)
    proc = _wait(env, "--timeout", "60")
    time.sleep(0.5)
    assert proc.poll() is None  # still waiting
    env.engine.set_agent_status("t", "a", AgentState.COMPLETE)
    env.engine.set_agent_status("t", "b", AgentState.COMPLETE)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "Summary: 2/2 complete, 0 error(s), 0 timeout(s), 0 missing" in out


def test_agent_wait_stops_at_an_error_and_at_its_timeout(env: Env) -> None:
    _in_requirements(env)
    env.engine.set_agent_status("t", "b", AgentState.WORKING)
    proc = _wait(env, "--timeout", "0.3")
    out, err = proc.communicate(timeout=60)
    # one line: that it timed out, and which agents are not COMPLETE (no "0 timeout(s)" summary)
    assert proc.returncode == 1 and out == ""
    assert err == (
        "taskproto: timed out after 0.3s: agent(s) a (PENDING), b (WORKING) of task t not "
        "COMPLETE; run `taskproto agent wait t` again, or `taskproto recover t`\n"
    )
    env.engine.set_agent_status("t", "b", AgentState.ERROR, "boom")
    proc = _wait(env, "--timeout", "60")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1 and "b of task t failed" in err and "recover t" in err


def test_an_unknown_build_failure_keeps_its_log_next_to_the_task(env: Env, cli: Any) -> None:
    _in_requirements(env)
    r = cli(
        "build",
        "run",
        "--task",
        "t",
        "--",
        sys.executable,
        "-c",
        "print('the flux capacitor is misaligned'); raise SystemExit(3)",
    )
    assert r.code == 1 and "log saved to" in r.err
    logs = list(env.config.task_dir("t").glob("build-failure-*.log"))
    assert len(logs) == 1 and "flux capacitor" in logs[0].read_text()
    r = cli("recover", "t")
    assert str(logs[0]) in r.out and "encountered a recovery scenario" in r.out
    assert "taskproto recover t --check build-failure-unknown" in r.out
    assert "`taskproto build run --task t -- COMMAND`" in r.out  # the real task, no placeholder
    # option 1 is a person's; option 2 is a command taskproto runs itself (a dry run first)
    person = cli("recover", "t", "--check", "build-failure-unknown", "--option", "1")
    assert person.code == 1 and "for a person" in person.err
    dry = cli("recover", "t", "--check", "build-failure-unknown", "--option", "2", "--dry-run")
    assert dry.code == 0 and "would run: taskproto rollback t --to IMPLEMENTATION" in dry.out
    assert env.engine.load("t").state == "REQUIREMENTS"
    # the kept log does not stop the task from being removed
    assert cli("task", "remove", "t", "--force").code == 0


def test_escalate_renders_the_same_template_and_logs_it(env: Env, cli: Any) -> None:
    _in_requirements(env)
    r = cli(
        "escalate",
        "t",
        "--reason",
        "external-dependency",
        "--detail",
        "the staging database is down",
        "--tried",
        "retried twice",
    )
    assert r.code == 0, r.err
    assert r.out.startswith("Task 't' encountered a recovery scenario requiring user guidance")
    assert "the staging database is down" in r.out and "retried twice" in r.out
    assert "`taskproto release t`" in r.out and "TASK" not in r.out
    assert "3. Abandon the task" in r.out
    log = env.engine.load("t").transition_log
    assert log[-1].trigger == "escalate" and "staging database" in (log[-1].note or "")
    r = cli("escalate", "t", "--reason", "conflicting-requirements", "--detail", "x", "--json")
    assert json.loads(r.out)["reason"] == "conflicting-requirements"
    assert cli("escalate", "t", "--reason", "bogus", "--detail", "x").code == 2

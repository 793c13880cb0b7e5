"""`taskproto agent start|ps|stop|pause|resume|logs` with a stand-in client: the supervisor
starts, restarts within the budget, escalates past it, stops leaving nothing, and comes back."""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

import pytest

from tests.agents.conftest import (
    kill_supervisor,
    pid_alive,
    standin_client,
    start_headless,
    supervisor_pid,
    wait_until,
)
from tests.agents.conftest import ps as _ps


def _runs(tmp_path: Path, agent: str) -> list[dict]:
    folder = tmp_path / "standin-runs" / agent
    count = len(list(folder.glob("run-*.json")))
    try:
        return [json.loads((folder / f"run-{i}.json").read_text()) for i in range(count)]
    except ValueError:  # the stand-in is still writing its record: none yet, look again
        return []


def test_three_agents_of_one_task_run_in_their_worktrees_with_their_sessions_and_stop_clean(
    agents_repo: Path, cli, standin: Path, tmp_path: Path
) -> None:
    (agents_repo / ".taskproto.toml").write_text("[worktree]\nports = { base = 4000 }\n")
    assert cli("task", "create", "t1", "--agents", "a,b,c").code == 0
    started = {}
    for agent in "abc":
        started[agent] = start_headless(cli, standin, agent, f"work, {agent}")
    rows = {r["agent"]: r for r in _ps(cli)}
    assert {r["state"] for r in rows.values()} == {"running"}
    pids = {r["pid"] for r in rows.values()}
    assert len(pids) == 3 and all(pid_alive(p) for p in pids)
    ports = set()
    for agent in "abc":
        run = wait_until(lambda a=agent: _runs(tmp_path, a), what=f"{agent}'s stand-in")[0]
        folder = agents_repo / ".taskproto" / "tasks" / "t1" / "agents" / agent
        assert run["cwd"] == str(folder / "code")
        session = started[agent]["session"]
        assert run["env"]["TASKPROTO_SESSION"] == session == rows[agent]["session"]
        assert run["env"]["TASKPROTO_SESSION_PID"] == str(rows[agent]["pid"])
        assert run["env"]["TASKPROTO_PROMPT"] == f"work, {agent}"
        ports.add(run["env"]["TASKPROTO_PORT"])
    assert len(ports) == 3
    wait_until(
        lambda: "stand-in run 0 says 'work, a'" in cli("agent", "logs", "t1", "a").out,
        what="the log",
    )
    shown = json.loads(cli("agent", "logs", "t1", "a", "-n", "1", "--json").out)
    log = agents_repo / ".taskproto" / "tasks" / "t1" / "agents" / "a" / "agent.log"
    assert shown == {
        "task": "t1", "agent": "a", "source": "log", "file": str(log),
        "lines": ["stand-in run 0 says 'work, a'"],
    }  # fmt: skip
    refused = cli("agent", "logs", "t1", "a", "-f", "--json")
    assert (refused.code, refused.out) == (1, "")
    assert [json.loads(line) for line in refused.err.splitlines()] == [
        {
            "error": "--json prints the lines once and --follow keeps printing: use one of them",
            "kind": "TaskprotoError",
            "exit_code": 1,
        }
    ]
    before = json.loads(cli("task", "show", "t1", "--json").out)["state"]
    for agent in "abc":
        result = cli("agent", "stop", "t1", agent)
        assert result.code == 0, result.err
        assert result.out.startswith(f"stopped t1/{agent}: stopped")
    assert not any(pid_alive(p) for p in pids)
    assert {r["state"] for r in _ps(cli)} == {"stopped"}
    again = cli("agent", "stop", "t1", "a")  # stopped already: said so, exit 0
    assert (again.code, again.out) == (0, "t1/a: not running (stopped); nothing to stop\n")
    assert json.loads(cli("agent", "stop", "t1", "a", "--json").out)["was_running"] is False
    assert json.loads(cli("task", "show", "t1", "--json").out)["state"] == before


def test_a_killed_agent_is_restarted_and_journaled(agents_repo: Path, cli, standin: Path) -> None:
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    first = start_headless(cli, standin)
    os.killpg(first["pid"], signal.SIGKILL)
    row = wait_until(
        lambda: [r for r in _ps(cli) if r["restarts"] == 1 and r["pid"]], what="the restart"
    )[0]
    assert row["pid"] != first["pid"] and row["state"] == "running"
    assert row["session"] == first["session"]
    log = cli("log", "t1").out
    assert "restart 1/3 of agent dev: it was killed" in log


def test_four_crashes_escalate_the_task(agents_repo: Path, cli, standin: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    (agents_repo / ".taskproto.toml").write_text("[agents]\nrestart_delay_seconds = 0.05\n")
    monkeypatch.setenv("STANDIN_MODE", "crash")
    start_headless(cli, standin)
    row = wait_until(
        lambda: [r for r in _ps(cli) if r["state"] == "escalated"], what="the escalation"
    )[0]
    assert row["restarts"] == 3 and row["pid"] is None
    log = cli("log", "t1").out
    for n in (1, 2, 3):
        assert f"restart {n}/3 of agent dev: it exited with 5" in log
    assert "restart 4/3" not in log
    task = json.loads((agents_repo / ".taskproto/tasks/t1/task.json").read_text())
    assert task["escalations"][-1]["reason"] == "agent-retries-exhausted"
    status = json.loads((agents_repo / ".taskproto/tasks/t1/agents/dev/status.json").read_text())
    assert status["status"] == "ERROR" and status["retry_count"] == 3
    doctor = cli("doctor", "t1").out
    assert "3. Start the agent again as taskproto last ran it" in doctor
    # recover's "retry" option relaunches it, with a new budget (and it crashes again here)
    result = cli("recover", "t1", "--option", "3")
    assert result.code == 0, result.err
    assert "ran: taskproto agent restart t1 dev" in result.out
    wait_until(lambda: cli("log", "t1").out.count("restart 1/3 of agent dev") == 2, what="again")
    assert "agent dev started again by the user after 3 retries" in cli("log", "t1").out


def test_a_finished_headless_agent_is_not_restarted(  # type: ignore[no-untyped-def]
    agents_repo: Path, cli, standin: Path, monkeypatch
) -> None:
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    monkeypatch.setenv("STANDIN_MODE", "done")
    start_headless(cli, standin)
    row = wait_until(lambda: [r for r in _ps(cli) if r["state"] == "exited"], what="the exit")[0]
    assert row["restarts"] == 0


def test_agent_wait_says_at_once_that_an_agent_ended_without_saying_it_was_done(  # type: ignore[no-untyped-def]
    agents_repo: Path, cli, standin: Path, monkeypatch
) -> None:
    # a headless client that exits 0 is finished and not restarted; if it never reported COMPLETE
    # (its shell calls refused, a model that forgot), waiting would last until the timeout
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    monkeypatch.setenv("STANDIN_MODE", "done")
    start_headless(cli, standin)
    wait_until(lambda: [r for r in _ps(cli) if r["state"] == "exited"], what="the exit")
    result = cli("agent", "wait", "t1", "--timeout", "30")
    assert result.code == 1
    assert result.err.strip().splitlines() == [
        "taskproto: agent(s) dev (PENDING) of task t1 ended (exited) without saying they are "
        "done; read `taskproto agent logs t1 dev`, then `taskproto agent set t1 dev --status "
        "complete` if its work is done, or `taskproto agent restart t1 dev`"
    ]


def test_the_supervisor_killed_comes_back_and_knows_its_agents(
    agents_repo: Path, cli, standin: Path
) -> None:
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    first = start_headless(cli, standin)
    root = agents_repo / ".taskproto"
    old = kill_supervisor(root)
    row = _ps(cli)[0]  # any command that reads the agents starts it again
    assert row["pid"] == first["pid"] and row["state"] == "running"
    new = supervisor_pid(root)
    assert new != old and pid_alive(new)
    os.killpg(first["pid"], signal.SIGKILL)  # the new one adopted it: it restarts it
    wait_until(lambda: [r for r in _ps(cli) if r["restarts"] == 1 and r["pid"]], what="restart")


def test_pause_and_resume_stop_and_continue_its_process_group(
    agents_repo: Path, cli, standin: Path
) -> None:
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    pid = start_headless(cli, standin)["pid"]

    def state() -> bytes:
        return Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]

    assert cli("agent", "pause", "t1", "dev").code == 0
    assert state() == b"T" and _ps(cli)[0]["state"] == "paused"
    assert cli("agent", "resume", "t1", "dev").code == 0
    assert state() in (b"S", b"R") and _ps(cli)[0]["state"] == "running"
    assert cli("agent", "stop", "t1", "dev").code == 0
    assert not pid_alive(pid)


def test_starting_an_agent_is_refused_to_an_agent(agents_repo: Path, cli, standin: Path) -> None:
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    result = cli(
        "agent",
        "start",
        "t1",
        "dev",
        "--client",
        standin_client(standin),
        "--headless",
        "--prompt",
        "go",
        env={"CLAUDECODE": "1"},
    )
    assert result.code == 1
    assert "starting agent dev of task 't1' is the user's to do" in result.err
    assert len(result.err.strip().splitlines()) == 1
    assert not (agents_repo / ".taskproto/tasks/t1/agents/dev/run.json").exists()
    assert not (agents_repo / ".taskproto/supervisor.json").exists()


def test_a_client_not_on_path_is_refused_before_anything_runs(agents_repo: Path, cli) -> None:
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    result = cli(
        "agent",
        "start",
        "t1",
        "dev",
        "--client",
        "no-such-client --flag",
        "--headless",
        "--prompt",
        "go",
    )
    assert result.code == 1
    assert result.err.strip() == (
        "taskproto: 'no-such-client' is not found on PATH; check the command line, or pass "
        "another --client"
    )
    assert not (agents_repo / ".taskproto/tasks/t1/agents/dev/run.json").exists()


@pytest.mark.parametrize(
    ("client", "missing"),
    [
        ("./agent.sh --fast", "'./agent.sh', the program, is not there"),
        (f"{sys.executable} agent.py", "'agent.py', the script "),
    ],
)
def test_a_client_missing_from_the_worktree_is_refused_before_anything_runs(
    agents_repo: Path, cli, client: str, missing: str
) -> None:
    """Before: found from the folder `agent start` ran in (the main worktree, where the file is
    but not committed), then crashed in the agent's worktree through its whole retry budget."""
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    for name in ("agent.sh", "agent.py"):
        (agents_repo / name).write_text("#!/bin/sh\nexit 0\n")
        (agents_repo / name).chmod(0o755)
    result = cli("agent", "start", "t1", "dev", "--client", client, "--headless", "--prompt", "go")
    assert result.code == 1, result.err
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and missing in lines[0], lines
    worktree = agents_repo / ".taskproto/tasks/t1/agents/dev/code"
    assert f"in the agent's worktree {worktree}" in lines[0]
    assert "commit it to the agent's branch t1-dev" in lines[0]
    assert not (agents_repo / ".taskproto/tasks/t1/agents/dev/run.json").exists()
    assert not (agents_repo / ".taskproto/supervisor.json").exists()


def test_a_running_agent_started_or_restarted_again_is_refused_saying_what_to_do(
    agents_repo: Path, cli, standin: Path
) -> None:
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    first = start_headless(cli, standin)
    again = ("--client", standin_client(standin), "--headless", "--prompt", "go")
    for args in (("start", "t1", "dev", *again), ("restart", "t1", "dev")):
        result = cli("agent", *args)
        assert result.code == 1
        assert result.err.strip().splitlines() == [
            f"taskproto: agent dev of task 't1' already runs (pid {first['pid']}); stop it "
            "first (`taskproto agent stop t1 dev`)"
        ], result.err
    assert cli("agent", "stop", "t1", "dev").code == 0


def test_a_wrong_task_or_agent_name_is_named_as_such_not_as_an_agent_never_started(
    agents_repo: Path, cli
) -> None:
    assert cli("task", "create", "t1", "--agents", "dev,qa").code == 0
    no_task = (
        "taskproto: no task named 'nosuch' (see `taskproto task list`; create one with "
        "`taskproto task create nosuch`)"
    )
    no_agent = "taskproto: task 't1' has no agent 'nope' (its agents: dev, qa)"
    for verb in ("stop", "pause", "resume", "restart", "logs"):
        for task, agent, line in (("nosuch", "dev", no_task), ("t1", "nope", no_agent)):
            result = cli("agent", verb, task, agent)
            assert result.code == 1 and result.out == ""
            assert result.err.strip().splitlines() == [line], (verb, result.err)
    # a right name, never started: not running, so stopped already (before: exit 1)
    result = cli("agent", "stop", "t1", "dev")
    assert (result.code, result.err) == (0, ""), result.err
    assert result.out == "t1/dev: not running (never started); nothing to stop\n"
    data = json.loads(cli("agent", "stop", "t1", "dev", "--json").out)
    assert (data["state"], data["was_running"]) == ("never started", False)
    assert not list((agents_repo / ".taskproto" / "tasks").glob("*/agents/*/run.json"))


def test_a_task_with_a_running_agent_is_not_removed_and_is_once_it_stopped(
    agents_repo: Path, cli, standin: Path
) -> None:
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    start_headless(cli, standin)
    result = cli("task", "remove", "t1", "--force")
    assert result.code == 1
    assert "its agent dev is running; stop it first (`taskproto agent stop t1 dev`)" in result.err
    assert cli("agent", "stop", "t1", "dev").code == 0
    result = cli("task", "remove", "t1")  # run.json, agent.log, exit-status are taskproto's own
    assert result.code == 0, result.err
    assert not (agents_repo / ".taskproto/tasks/t1").exists()


def test_a_headless_agent_without_hook_activity_for_stall_minutes_is_restarted(
    agents_repo: Path, cli, standin: Path
) -> None:
    (agents_repo / ".taskproto.toml").write_text("[agents]\nstall_minutes = 0.01\n")  # 0.6 s
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    first = start_headless(cli, standin)
    wait_until(lambda: [r for r in _ps(cli) if r["restarts"] >= 1], what="the stall's restart")
    assert not pid_alive(first["pid"])
    assert "restart 1/3 of agent dev: it had no hook activity for 0.01 min" in cli("log", "t1").out


def test_doctor_reports_agents_whose_supervisor_is_gone_and_fix_brings_it_back(
    agents_repo: Path, cli, standin: Path
) -> None:
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    first = start_headless(cli, standin)
    root = agents_repo / ".taskproto"
    old = kill_supervisor(root)
    report = cli("doctor", "t1")
    assert (
        "agent dev of task t1 (" in report.out
        and f"runs (pid {first['pid']}) with no supervisor" in report.out
    )
    fixed = cli("doctor", "--fix")
    assert "it adopted agent dev" in fixed.out, fixed.out
    new = supervisor_pid(root)
    assert new != old and pid_alive(new) and pid_alive(first["pid"])


def test_a_headless_agents_log_is_rotated_past_a_megabyte_losing_no_line(  # type: ignore[no-untyped-def]
    agents_repo: Path, cli, standin: Path, monkeypatch
) -> None:
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    monkeypatch.setenv("STANDIN_MODE", "chatty")
    start_headless(cli, standin)
    folder = agents_repo / ".taskproto/tasks/t1/agents/dev"
    wait_until(
        lambda: "line 14999" in cli("agent", "logs", "t1", "dev", "-n", "1").out,
        what="the last line",
    )
    kept, log = (folder / "agent.log.1").read_text(), (folder / "agent.log").read_text()
    assert len(kept.encode()) <= 1 << 20 and len(log.encode()) <= 1 << 20
    lines = (kept + log).splitlines()
    assert lines[0] == "stand-in run 0 says 'go'"
    assert lines[1:] == [f"line {i:05d} " + "x" * 90 for i in range(15000)]


def test_a_pid_taken_by_another_process_is_not_the_agent(
    agents_repo: Path, cli, standin: Path
) -> None:
    import subprocess

    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    first = start_headless(cli, standin)
    assert cli("agent", "stop", "t1", "dev").code == 0
    # after a reboot the recorded pid may name someone else's process: never signalled as ours
    other = subprocess.Popen(["sleep", "30"], start_new_session=True)
    try:
        run = agents_repo / ".taskproto/tasks/t1/agents/dev/run.json"
        record = json.loads(run.read_text())
        record.update(pid=other.pid, want="running", state="running")
        record["pid_started"] = first["pid_started"]  # the agent's start, not this process's
        run.write_text(json.dumps(record))
        row = wait_until(
            lambda: [r for r in _ps(cli) if r["pid"] != other.pid and r["pid"]], what="the restart"
        )[0]
        assert other.poll() is None  # left alone, not stopped or killed
        assert row["restarts"] == 1
        assert cli("agent", "stop", "t1", "dev").code == 0
        assert other.poll() is None
    finally:
        other.kill()
        other.wait()


def test_say_is_refused_to_a_headless_agent_and_to_an_agent(
    agents_repo: Path, cli, standin: Path
) -> None:
    assert (
        cli("agent", "ps").out == "no agents (start one with `taskproto agent start TASK AGENT`)\n"
    )
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    start_headless(cli, standin)
    result = cli("agent", "say", "t1", "dev", "hello")
    assert result.code == 1
    assert "is headless and reads no input; stop it and start it again with --prompt" in result.err
    result = cli("agent", "stop", "t1", "dev", env={"GEMINI_CLI": "1"})
    assert result.code == 1 and "stopping agent dev of task 't1' is the user's to do" in result.err
    assert _ps(cli)[0]["state"] == "running"
    task = json.loads((agents_repo / ".taskproto/tasks/t1/task.json").read_text())
    assert task["interruptions"] == []  # nothing recorded for a refused say


def test_the_retry_budget_is_max_retries_as_the_settings_say_at_the_crash(
    agents_repo: Path, cli, standin: Path
) -> None:
    assert cli("task", "create", "t1", "--agents", "dev").code == 0
    first = start_headless(cli, standin)
    (agents_repo / ".taskproto.toml").write_text("max_retries = 1\n")  # the supervisor runs
    os.killpg(first["pid"], signal.SIGKILL)
    row = wait_until(lambda: [r for r in _ps(cli) if r["restarts"] == 1 and r["pid"]], what="1")[0]
    assert row["max_restarts"] == 1
    assert "restart 1/1 of agent dev: it was killed" in cli("log", "t1").out
    os.killpg(row["pid"], signal.SIGKILL)
    row = wait_until(lambda: [r for r in _ps(cli) if r["state"] == "escalated"], what="escalated")[
        0
    ]
    assert row["restarts"] == 1 and row["pid"] is None
    assert "restart 2/" not in cli("log", "t1").out
    items = json.loads(cli("inbox", "--json").out)["items"]
    assert ("agent-retries", "agent dev failed after 1 retries") in {
        (i["reason"], i["text"]) for i in items
    }


def test_the_agents_own_hooks_make_its_status_working_and_ps_shows_what_they_saw(
    agents_repo: Path, cli, standin: Path, tmp_path: Path
) -> None:
    assert cli("task", "create", "t1", "--agents", "dev,qa").code == 0
    status = agents_repo / ".taskproto/tasks/t1/agents/dev/status.json"
    assert json.loads(status.read_text())["status"] == "PENDING"
    client = f"{standin_client(standin)} hook"
    result = cli("agent", "start", "t1", "dev", "--client", client, "--headless", "--prompt", "go")
    assert result.code == 0, result.err  # the stand-in runs a prompt's hook and a tool call's
    wait_until(lambda: "hooks ran" in cli("agent", "logs", "t1", "dev").out, what="its hooks")
    assert json.loads(status.read_text())["status"] == "WORKING"
    qa = agents_repo / ".taskproto/tasks/t1/agents/qa/status.json"
    assert json.loads(qa.read_text())["status"] == "PENDING"  # another agent's stays
    row = _ps(cli)[0]
    assert row["hook_activity"]["status"] == "working" and row["hook_activity"]["tool"] == "Read"
    assert row["activity"].startswith("working (PreToolUse, last tool Read), WORKING since ")
    log = cli("log", "t1").out
    assert log.count("agent dev: WORKING, seen by its hooks") == 1  # journaled once


def test_a_client_with_an_unclosed_quote_is_refused_in_one_line(agents_repo: Path, cli) -> None:  # type: ignore[no-untyped-def]
    r = cli("agent", "start", "t1", "dev", "--client", "sh -c 'echo", "--headless")
    assert r.code == 1, r.err
    assert r.err.count("\n") == 1 and "close its quotes" in r.err
    assert not list(agents_repo.glob(".taskproto/tasks/t1/agents/dev/run.json"))


def test_a_headless_agent_of_a_workflow_with_no_prompt_of_its_state_gets_the_agents_prompt(
    agents_repo: Path, cli, standin: Path, tmp_path: Path
) -> None:
    """task-protocol, the default workflow, has no prompt templates: `agent start --headless`
    without --prompt was refused ("pass --prompt TEXT"); it starts with agent.md.j2's, which a
    repository may override."""
    assert cli("task", "create", "t1", "--agents", "dev,qa", "-d", "add the widget").code == 0
    r = cli("agent", "start", "t1", "dev", "--client", standin_client(standin), "--headless")
    assert r.code == 0, r.err
    run = wait_until(lambda: _runs(tmp_path, "dev"), what="the stand-in")[0]
    prompt = run["env"]["TASKPROTO_PROMPT"]
    assert prompt.startswith("You are agent dev of task t1 (task-protocol workflow, state INIT)")
    assert "The task: add the widget" in prompt and "branch t1-dev" in prompt
    assert "taskproto agent set t1 dev --status complete" in prompt and "qa" in prompt
    own = agents_repo / ".taskproto" / "templates"
    own.mkdir(parents=True)
    (own / "agent.md.j2").write_text("{{ agent }} of {{ task.name }}: {{ undefined_name }}\n")
    r = cli("agent", "start", "t1", "qa", "--client", standin_client(standin), "--headless")
    assert r.code == 1 and "agent.md.j2 cannot be rendered" in r.err, r.err
    (own / "agent.md.j2").write_text("{{ agent }} of {{ task.name }}, yours\n")
    r = cli("agent", "start", "t1", "qa", "--client", standin_client(standin), "--headless")
    assert r.code == 0, r.err
    run = wait_until(lambda: _runs(tmp_path, "qa"), what="the stand-in")[0]
    assert run["env"]["TASKPROTO_PROMPT"] == "qa of t1, yours\n"

"""`taskproto whoami`: the session taskproto would use, where it came from, its owner pid, agent or
not, the host and the tasks it owns. A terminal's session: tests/clients/test_terminal_sessions.py.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from taskproto.sessions import hostname


def test_whoami_names_the_session_given_and_the_tasks_it_owns(cli, repo: Path) -> None:  # type: ignore[no-untyped-def]
    assert cli("task", "create", "t1").code == 0
    assert cli("task", "create", "t2").code == 0
    assert cli("--session", "s1", "claim", "t2").code == 0

    r = cli("--session", "s1", "whoami", "--json")
    assert r.code == 0 and r.err == ""
    assert json.loads(r.out) == {
        "session": "s1",
        "from": "--session",
        "why_none": None,
        "terminal": None,
        "pid": None,
        "pid_from": None,
        "pid_alive": None,
        "agent": False,
        "client": None,
        "agent_why": None,
        "host": hostname(),
        "tasks": [{"task": "t2", "state": "INIT", "error": None}],
    }
    r = cli("--session", "s1", "whoami")
    assert r.out == (
        "session   s1 (from --session)\n"
        "pid       none: only the heartbeat can show the session gone\n"
        "agent     no\n"
        f"host      {hostname()}\n"
        "tasks     t2 (INIT)\n"
    )


def test_whoami_of_an_agent_names_its_client_and_the_hook_that_set_its_session(
    cli, repo: Path
) -> None:  # type: ignore[no-untyped-def]
    env = {
        "TASKPROTO_SESSION": "c1",
        "TASKPROTO_AGENT": "1",
        "CLAUDECODE": "1",
        "TASKPROTO_SESSION_PID": str(os.getpid()),
    }
    data = json.loads(cli("whoami", "--json", env=env).out)
    assert data["session"] == "c1"
    assert data["from"] == "TASKPROTO_SESSION, set by the SessionStart hook of Claude Code"
    assert (data["pid"], data["pid_from"], data["pid_alive"]) == (
        os.getpid(),
        "TASKPROTO_SESSION_PID",
        True,
    )
    assert (data["agent"], data["client"]) == (True, "Claude Code")
    assert data["agent_why"] == "TASKPROTO_AGENT is set (taskproto's SessionStart hook)"
    assert data["tasks"] == []


def test_whoami_without_a_session_says_why_and_what_to_do(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    r = cli("whoami", cwd=tmp_path)  # outside a repository; the suite turns terminal sessions off
    assert r.code == 0
    assert r.out.splitlines()[:2] == [
        "session   none: terminal sessions are off (TASKPROTO_TERMINAL_SESSION=0)",
        "          pass `taskproto --session ID COMMAND` or set TASKPROTO_SESSION",
    ]
    assert r.out.splitlines()[-1] == "tasks     - (not in a repository)"

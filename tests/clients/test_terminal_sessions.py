"""A person at a terminal exports nothing: the session is the terminal's (clients/terminal.py),
owned by the shell that leads it. Real shells on real pseudo-terminals, typed into."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from taskproto.engine import Engine
from taskproto.sessions import hostname, process_start
from tests.conftest import _UNDER_AGENT
from tests.ptyshell import Shell, shell_env

pytestmark = pytest.mark.skipif(
    not os.path.exists("/proc/self/stat"), reason="terminal sessions are read from /proc here"
)


@pytest.fixture
def terminals(repo: Path) -> Iterator[list[Shell]]:
    """Open terminals: each a `bash -i` on its own pseudo-terminal, in the repository."""
    opened: list[Shell] = []
    yield opened
    for shell in opened:
        shell.kill()


def open_terminal(terminals: list[Shell], repo: Path, **env: str) -> Shell:
    shell = Shell(
        ["bash", "--norc", "--noprofile", "-i"],
        repo,
        shell_env(PS1="$ ", TERM="dumb", HISTFILE="/dev/null", **env),
    )
    terminals.append(shell)
    return shell


def whoami(shell: Shell, prefix: str = "") -> dict[str, object]:
    code, out, err = shell.run(f"{prefix}taskproto whoami --json")
    assert code == 0, err
    data: dict[str, object] = json.loads(out)
    return data


def owner(repo: Path, task: str) -> dict[str, object]:
    """task.json's owner record ({} when the task has none)."""
    data = json.loads((repo / ".taskproto" / "tasks" / task / "task.json").read_text())
    return data["owner"] or {}


def test_commands_typed_in_one_terminal_share_its_session_and_its_claim_outlives_them(
    cli, repo: Path, terminals: list[Shell]
) -> None:  # type: ignore[no-untyped-def]
    assert cli("task", "create", "t1").code == 0
    a = open_terminal(terminals, repo)

    first = whoami(a)
    session = first["session"]
    assert isinstance(session, str) and session.startswith("tty-pts")
    assert session == f"{first['terminal']}".replace("/dev/", "tty-").replace("/", "") + (
        f"-{a.pid}-{process_start(a.pid)}"
    )
    assert first["from"] == f"terminal {first['terminal']}"
    assert (first["pid"], first["pid_alive"], first["agent"]) == (a.pid, True, False)
    assert first["tasks"] == []

    code, out, err = a.run("taskproto claim t1")
    assert (code, out, err) == (0, "task t1 (INIT): claimed\n", "")
    # the claim names the terminal's shell, which outlives the command that made it
    assert (owner(repo, "t1")["session"], owner(repo, "t1")["pid"]) == (session, a.pid)
    second = whoami(a)
    assert (second["session"], second["pid_alive"]) == (session, True)
    assert second["tasks"] == [{"task": "t1", "state": "INIT", "error": None}]

    # a script run from that terminal is the same session: it moves the task the terminal owns
    (repo.parent / "step.sh").write_text(
        'taskproto whoami --json > "$1"\ntaskproto transition t1 CLASSIFIED\n'
    )
    code, out, err = a.run(f"bash {repo.parent / 'step.sh'} {repo.parent / 'script.json'}")
    assert (code, out, err) == (0, "t1: INIT -> CLASSIFIED\n", "")
    assert json.loads((repo.parent / "script.json").read_text())["session"] == session
    assert owner(repo, "t1")["session"] == session


def test_another_terminal_takes_the_claim_only_once_the_first_terminal_shell_is_gone(
    cli, repo: Path, terminals: list[Shell]
) -> None:  # type: ignore[no-untyped-def]
    assert cli("task", "create", "t1").code == 0
    a, b = open_terminal(terminals, repo), open_terminal(terminals, repo)
    assert a.run("taskproto claim t1")[0] == 0
    mine, theirs = whoami(a)["session"], whoami(b)["session"]
    assert isinstance(theirs, str) and theirs.startswith("tty-pts") and theirs != mine

    code, out, err = b.run("taskproto claim t1")
    assert code == 1 and out == ""
    assert f"task 't1' is owned by session {mine} on {hostname()} since" in err
    assert len(err.splitlines()) == 1
    assert owner(repo, "t1")["session"] == mine

    a.exit()  # the terminal is closed: its shell is gone, and so provably is the claim's owner
    with pytest.raises(ProcessLookupError):
        os.kill(a.pid, 0)
    code, out, err = b.run("taskproto claim t1 --json")
    assert code == 0, err
    taken = json.loads(out)
    assert (taken["outcome"], taken["previous_owner"], taken["session"]) == (
        "takeover",
        mine,
        theirs,
    )
    assert taken["reason"] == f"its process {a.pid} on {hostname()} no longer exists"
    assert (owner(repo, "t1")["session"], owner(repo, "t1")["pid"]) == (theirs, b.pid)


def test_without_a_controlling_terminal_there_is_no_session(
    cli, repo: Path, terminals: list[Shell]
) -> None:  # type: ignore[no-untyped-def]
    assert cli("task", "create", "t1").code == 0
    # cron, CI, a service: started in a session of its own, with no terminal
    detached = subprocess.run(
        [sys.executable, "-m", "taskproto", "whoami", "--json"],
        cwd=repo,
        env=shell_env(),
        capture_output=True,
        text=True,
        start_new_session=True,
        check=True,
    )
    data = json.loads(detached.stdout)
    assert (data["session"], data["pid"], data["terminal"]) == (None, None, None)
    assert data["why_none"] == "no controlling terminal (cron, CI, setsid, a service)"
    claim = subprocess.run(
        [sys.executable, "-m", "taskproto", "claim", "t1"],
        cwd=repo,
        env=shell_env(),
        capture_output=True,
        text=True,
        start_new_session=True,
        check=False,
    )
    assert claim.returncode == 1 and claim.stdout == ""
    assert claim.stderr.startswith(
        "taskproto: claim needs a session id: `taskproto --session ID claim ...` (before the"
    )

    # and `setsid` typed in a terminal leaves it
    if shutil.which("setsid"):
        a = open_terminal(terminals, repo)
        assert whoami(a, "setsid -w ")["session"] is None
        assert isinstance(whoami(a)["session"], str)


def test_an_agent_is_never_given_its_terminal_session(
    cli, repo: Path, terminals: list[Shell], tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    assert cli("task", "create", "t1").code == 0
    a = open_terminal(terminals, repo)
    data = whoami(a, "CLAUDE_CODE_SESSION_ID=c1 ")
    assert (data["session"], data["pid"], data["agent"], data["client"]) == (
        None,
        None,
        True,
        "Claude Code",
    )
    assert data["why_none"] == (
        "an agent's session comes from its client, not its terminal "
        "(CLAUDE_CODE_SESSION_ID is set (Claude Code))"
    )
    code, _, err = a.run("CLAUDE_CODE_SESSION_ID=c1 taskproto claim t1")
    assert code == 1 and "claim needs a session id" in err
    assert owner(repo, "t1") == {}

    if _UNDER_AGENT:
        return  # the suite's own processes descend from an agent: no ancestry check to test here
    # a client's descendant that dropped its variables (a program named `claude` runs the command)
    client = tmp_path / "bin" / "claude"
    client.parent.mkdir()
    client.write_text('#!/bin/sh\n"$@"\n')  # stays the command's parent
    client.chmod(0o755)
    data = whoami(a, f"{client} ")
    assert (data["session"], data["client"]) == (None, "Claude Code")
    assert "(it runs under Claude Code (pid " in str(data["why_none"])


def test_a_terminal_session_whose_shell_pid_was_given_again_is_gone(
    cli, engine: Engine, repo: Path
) -> None:  # type: ignore[no-untyped-def]
    engine.create_task("t1")
    other = subprocess.Popen(["sleep", "60"])  # a live process holding the pid the claim names
    try:
        started = process_start(other.pid)
        assert started is not None
        engine.claim("t1", f"tty-pts9-{other.pid}-{started}", other.pid)
        refused = cli("--session", "s2", "claim", "t1")
        assert refused.code == 1 and "is owned by session tty-pts9-" in refused.err

        engine.claim("t1", f"tty-pts9-{other.pid}-{started + 1}", other.pid, force=True)
        taken = cli("--session", "s2", "claim", "t1", "--json")
        assert taken.code == 0, taken.err
        assert json.loads(taken.out)["reason"] == (
            f"its terminal's shell {other.pid} on {hostname()} has exited (that pid is now "
            "another process's)"
        )
    finally:
        other.kill()
        other.wait()


def test_without_proc_the_terminal_is_read_through_ps(
    repo: Path, terminals: list[Shell]
) -> None:  # macOS's way, run here
    a = open_terminal(terminals, repo)
    probe = (
        "from taskproto.clients import terminal as t; p, q = t.from_proc(), t.from_ps(); "
        "print(p.tty, p.pid, q.tty, q.pid, q.started > 0)"
    )
    code, out, err = a.run(f"{sys.executable} -c '{probe}'")
    assert code == 0, err
    tty, pid, tty2, pid2, started = out.split()
    assert (tty, int(pid), tty2, int(pid2), started) == (tty2, a.pid, tty, a.pid, "True")


def test_the_terminal_session_is_read_without_starting_a_process(
    repo: Path, terminals: list[Shell]
) -> None:  # the CLI resolves it on every command that needs a session
    a = open_terminal(terminals, repo)
    probe = (
        "import sys; from taskproto.clients.terminal import resolve; r = resolve(); "
        "print(r.session, r.origin, 'subprocess' in sys.modules)"
    )
    code, out, err = a.run(f'{sys.executable} -c "{probe}"')
    assert code == 0, err
    session, word, tty, started_one = out.split()
    assert (word, tty, started_one) == ("terminal", os.path.realpath(tty), "False")
    assert (
        session
        == f"tty-{tty.removeprefix('/dev/').replace('/', '')}-{a.pid}-{process_start(a.pid)}"
    )

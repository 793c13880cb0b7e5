"""Issue #39, identity: an agent acts only as its client's own session, however it set
TASKPROTO_SESSION. The tool guard refuses `export TASKPROTO_SESSION=...`, but not the indirect
forms below; the CLI refuses the session itself. Real subprocesses, real shells."""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from taskproto.engine import Engine

OWN, VICTIM = "agent-own", "victim"
INDIRECT = [
    "V=TASKPROTO_SESSION; export $V={victim}; {tp} release t1",
    "for v in TASKPROTO_SESSION; do export $v={victim}; done; {tp} release t1",
    "printf 'export TASKPROTO_SESSION={victim}\\n' > s.sh; . ./s.sh; {tp} release t1",
    'eval "$(echo {encoded} | base64 -d)"; {tp} release t1',
    "V=TASKPROTO_SESSION; export $V={victim}; {tp} transition t1 CLASSIFIED",
    "{tp} --session {victim} release t1",
]
CLIENT_ENVS = {
    "claude": {"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": OWN},
    "codex": {"CODEX_SESSION_ID": OWN, "CODEX_THREAD_ID": OWN},
}


def clean_env(**extra: str) -> dict[str, str]:
    """This test's environment without any agent client's variables (the suite may run in one)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CLAUDE", "CODEX", "GEMINI", "TASKPROTO_"))
    }
    return {**env, "TASKPROTO_TERMINAL_SESSION": "0", **extra}


def shell(cwd: Path, line: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    tp = f"{sys.executable} -m taskproto"
    encoded = base64.b64encode(f"export TASKPROTO_SESSION={VICTIM}".encode()).decode()
    text = line.format(tp=tp, victim=VICTIM, encoded=encoded)
    return subprocess.run(
        ["bash", "-c", text], cwd=cwd, env=env, capture_output=True, text=True, timeout=60
    )


@pytest.fixture
def victims(engine: Engine) -> Engine:
    """t1 owned by the victim session; t2 by the agent's own."""
    engine.create_task("t1", [])
    engine.claim("t1", VICTIM)
    engine.create_task("t2", [])
    engine.claim("t2", OWN)
    return engine


@pytest.mark.parametrize("client", sorted(CLIENT_ENVS))
@pytest.mark.parametrize("line", INDIRECT, ids=range(len(INDIRECT)))
def test_an_indirect_export_does_not_make_an_agent_another_session(
    victims: Engine, client: str, line: str
) -> None:
    """Before: each of these released (or moved) the victim's task, journaled as the victim."""
    before = victims.config.task_file("t1").read_bytes()
    env = clean_env(
        TASKPROTO_SESSION=OWN,
        TASKPROTO_AGENT="1",
        TASKPROTO_IGNORE_AGENT_ANCESTRY="1",
        **CLIENT_ENVS[client],
    )
    proc = shell(victims.config.repo, line, env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"acting as session '{VICTIM}'" in proc.stderr, proc.stderr
    assert f"this agent's own session is '{OWN}'" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert victims.config.task_file("t1").read_bytes() == before
    assert victims.load("t1").owner is not None and victims.load("t1").owner.session == VICTIM


def test_the_agents_own_session_still_works(victims: Engine) -> None:
    env = clean_env(
        TASKPROTO_SESSION=OWN, TASKPROTO_IGNORE_AGENT_ANCESTRY="1", **CLIENT_ENVS["claude"]
    )
    proc = shell(victims.config.repo, "{tp} task list && {tp} release t2", env)
    assert proc.returncode == 0, proc.stderr
    assert victims.load("t2").owner is None


@pytest.fixture
def live_pid() -> Iterator[int]:
    """A live process that is no ancestor of the commands the test runs (another client's)."""
    proc = subprocess.Popen(["sleep", "60"])
    try:
        yield proc.pid
    finally:
        proc.kill()
        proc.wait()


def test_a_forged_client_variable_is_caught_by_the_claims_process(
    engine: Engine, tmp_path: Path, live_pid: int
) -> None:
    """Both variables forged (or a client that gives no session id, as Gemini CLI's shell): the
    victim's claim names its client process, which is no ancestor of this agent's command."""
    engine.create_task("t1", [])
    engine.claim("t1", VICTIM, pid=live_pid)
    before = engine.config.task_file("t1").read_bytes()
    fake = tmp_path / "bin" / "claude"  # an agent client among the ancestors, by its name
    fake.parent.mkdir()
    fake.write_text('#!/bin/sh\n"$@"\n')
    fake.chmod(0o755)
    forged = clean_env(TASKPROTO_SESSION=VICTIM, CLAUDECODE="1", CLAUDE_CODE_SESSION_ID=VICTIM)
    proc = subprocess.run(
        [str(fake), sys.executable, "-m", "taskproto", "release", "t1"],
        cwd=engine.config.repo,
        env=forged,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"its task is owned by process {live_pid}" in proc.stderr, proc.stderr
    assert engine.config.task_file("t1").read_bytes() == before
    # the user, at no agent client, may still act as that session
    user = clean_env(TASKPROTO_SESSION=VICTIM)
    proc = subprocess.run(
        [sys.executable, "-m", "taskproto", "release", "t1"],
        cwd=engine.config.repo,
        env=user,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert engine.load("t1").owner is None


def test_the_mcp_server_serves_no_other_session_than_its_clients(victims: Engine) -> None:
    env = clean_env(TASKPROTO_IGNORE_AGENT_ANCESTRY="1", **CLIENT_ENVS["claude"])
    proc = subprocess.run(
        [sys.executable, "-m", "taskproto", "mcp", "--session", VICTIM],
        cwd=victims.config.repo,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"acting as session '{VICTIM}'" in proc.stderr, proc.stderr

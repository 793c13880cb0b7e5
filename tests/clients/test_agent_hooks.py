"""taskproto's own hooks, installed with `taskproto init --<client>`, driven by the real clients
in an agent worktree: context at session start, prompts recorded, edits guarded, /clear handover."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from taskproto.config import load_config
from taskproto.engine import Engine
from tests.conftest import GIT_ENV, run_taskproto
from tests.hooks.agents.conftest import move_to

from .runners import CLIENTS, ClientResult, find_client, missing_reason, write_codex_config
from .standin import Request, Text, ToolCall, Turn

pytestmark = pytest.mark.clients

PROMPT = "What architecture pattern are you using?"
SESSION = "0b5e0c53-5a53-4d43-9a4c-6d0a4f1d2e01"


def require(name: str) -> None:
    if find_client(name) is None:
        pytest.skip(missing_reason(name))


def setup(project: Path, client: str, state: str, own: bool) -> tuple[Engine, Path]:
    r = run_taskproto("init", f"--{client}", cwd=project)
    assert r.code == 0, r.err
    engine = Engine(load_config(project))
    engine.create_task("t1", ["dev"], description="add the widget")
    if own:
        engine.claim("t1", SESSION)
    move_to(engine, "t1", state)
    return engine, engine.config.agent_worktree("t1", "dev")


def shell(client: str, command: str) -> ToolCall:
    return CLIENTS[client].shell_call(command)


def run(
    client: str,
    project: Path,
    home: Path,
    cwd: Path,
    script: list[Turn],
    prompt: str = PROMPT,
    resume: bool = False,
    relaunch: bool = False,
) -> tuple[ClientResult, list[Request]]:
    """One prompt through the real client; ``resume``: Claude Code's next prompt in the same
    session (``--resume``), as a user's second message is; ``relaunch``: Gemini's launcher
    starts its child, as a user's does (runners.run_gemini)."""
    spec = CLIENTS[client]
    env = dict(GIT_ENV)
    args: tuple[str, ...] = ()
    with spec.server(script) as server:
        if client == "claude":
            session = ("--resume",) if resume else ("--session-id",)
            args = ("--permission-mode", "acceptEdits", *session, SESSION)
            result = spec.run(prompt, cwd, server, home, args=args, env=env)
        elif client == "codex":
            write_codex_config(home / ".codex", server, trusted=[cwd])
            result = spec.run(prompt, cwd, server, home, env=env)
        else:
            result = spec.run(prompt, cwd, server, home, env=env, relaunch=relaunch)
        turns = server.turns
    assert result.returncode == 0, result.describe()
    return result, turns


def tool_outputs(turns: list[Request]) -> str:
    return "\n".join(json.dumps(t.body) for t in turns[1:])


@pytest.mark.parametrize("client", ["claude", "codex", "gemini"])
def test_requirements_state_context_interruption_and_denies(
    client: str, project: Path, home: Path
) -> None:
    require(client)
    engine, wt = setup(project, client, "REQUIREMENTS", own=client == "claude")
    target = wt / "widget.py"
    task_json = engine.config.task_file("t1")
    before = task_json.read_bytes()
    write = CLIENTS[client].write_call(target)
    script: list[Turn] = [
        write,
        shell(client, f"printf '{{}}' > {shlex.quote(str(task_json))}"),
        shell(client, "taskproto approve t1 --plan"),
        Text("I will wait."),
    ]
    # Gemini as a user's starts it, launcher and relaunched child: the hooks `init` installed
    # (the launcher, hook.sh, Python) and the CLI's refusal of an agent's `taskproto approve`
    # run under that tree here; the other Gemini runs of this file start one node
    result, turns = run(client, project, home, wt, script, relaunch=True)

    # SessionStart's context reached the model: the task and its state are in the first request.
    first = json.dumps(turns[0].body)
    assert "t1" in first and "REQUIREMENTS" in first, first[:2000]
    # The prompt was recorded as an interruption; the state did not move.
    task = engine.load("t1")
    assert task.state == "REQUIREMENTS"
    assert [(i.type, i.text) for i in task.interruptions] == [("QUESTION", PROMPT)]
    # The write was denied: no file; the model read why.
    assert not target.exists(), result.describe()
    outputs = tool_outputs(turns)
    assert "does not allow edits" in outputs
    assert "taskproto's own state" in outputs
    assert "own terminal" in outputs
    # task.json was not touched by the agent (only by taskproto's own record of the prompt).
    assert json.loads(task_json.read_text())["name"] == "t1" and task_json.read_bytes() != b"{}"
    assert before != task_json.read_bytes()
    if client == "claude":
        denied = [(d["tool_name"], d["tool_input"]) for d in result.json["permission_denials"]]
        assert denied == [(s.name, s.input) for s in script[:3]]  # type: ignore[union-attr]
        owner = task.owner
        assert owner is not None and owner.session == SESSION and owner.pid is not None


@pytest.mark.parametrize("client", ["claude", "codex", "gemini"])
def test_implementation_state_allows_the_write(client: str, project: Path, home: Path) -> None:
    """The user tells the agent to go on: its write in IMPLEMENTATION, in its worktree, passes."""
    require(client)
    _engine, wt = setup(project, client, "IMPLEMENTATION", own=client == "claude")
    target = wt / "widget.py"
    script = [CLIENTS[client].write_call(target), Text("Done.")]
    result, _ = run(client, project, home, wt, script, prompt="Please continue with the task.")
    assert target.read_text() == "hello\n", result.describe()
    if client == "claude":
        assert result.json["permission_denials"] == []


@pytest.mark.parametrize("client", ["claude", "codex", "gemini"])
def test_a_question_pauses_the_agents_edits_until_the_user_says_to_go_on(
    client: str, project: Path, home: Path
) -> None:
    """The seed's rule: after a question the agent answers and waits; the write is denied."""
    require(client)
    engine, wt = setup(project, client, "IMPLEMENTATION", own=client == "claude")
    target = wt / "widget.py"
    script = [CLIENTS[client].write_call(target), Text("Answered; waiting.")]
    _result, turns = run(client, project, home, wt, script, prompt=PROMPT)
    assert not target.exists()
    assert "waits for the user: they interrupted with a QUESTION" in tool_outputs(turns)
    assert engine.load("t1").paused_by() is not None


def test_claude_session_id_reaches_the_agents_commands(project: Path, home: Path) -> None:
    """CLAUDE_ENV_FILE: the agent's `taskproto claim` knows its session and its client's pid."""
    require("claude")
    engine, wt = setup(project, "claude", "INIT", own=False)
    claim = f"{shlex.quote(sys.executable)} -m taskproto claim t1"
    spec = CLIENTS["claude"]
    env = dict(GIT_ENV) | {"PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    with spec.server([shell("claude", claim), Text("Claimed.")]) as server:
        result = spec.run(
            PROMPT,
            wt,
            server,
            home,
            args=(
                "--permission-mode",
                "acceptEdits",
                "--allowedTools",
                "Bash",
                "--session-id",
                SESSION,
            ),
            env=env,
        )
    assert result.returncode == 0, result.describe()
    owner = engine.load("t1").owner
    assert owner is not None and owner.session == SESSION, result.describe()
    assert owner.pid is not None and owner.pid != os.getpid()


@pytest.mark.parametrize("client", ["claude", "codex", "gemini"])
def test_clear_in_the_same_client_process_inherits_the_claim(client: str, project: Path) -> None:
    """/clear: SessionStart with source clear, from the installed hook command, child of the same
    process."""
    engine, wt = setup(project, client, "IMPLEMENTATION", own=False)
    engine.claim(
        "t1", "session-before-clear", pid=os.getpid()
    )  # this test process plays the client
    settings = {
        "claude": wt / ".claude" / "settings.local.json",
        "codex": wt / ".codex" / "hooks.json",
        "gemini": wt / ".gemini" / "settings.json",
    }[client]
    command = json.loads(settings.read_text())["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    payload = {
        "session_id": "session-after-clear",
        "cwd": str(wt),
        "hook_event_name": "SessionStart",
        "source": "clear",
        "transcript_path": "/dev/null",
    }
    proc = subprocess.run(
        shlex.split(command),
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env={**{k: os.environ[k] for k in ("PATH", "HOME", "XDG_STATE_HOME")}, **GIT_ENV},
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "took over the claim of t1" in proc.stdout
    task = engine.load("t1")
    assert task.owner is not None and task.owner.session == "session-after-clear"
    assert task.transition_log[-1].trigger == "clear_handover"


@pytest.mark.parametrize(
    ("client", "question", "go"),
    [
        ("claude", "Wie funktioniert der Rollback eigentlich?", "passt, weiter machen bitte"),
        ("codex", "ロールバックはどう動くの？", "わかった、続けて"),
        ("gemini", "回滚是怎么实现的？", "好的，继续吧"),
    ],
    ids=["claude-de", "codex-ja", "gemini-zh"],
)
def test_a_question_and_a_go_in_the_users_own_language_through_the_real_client(
    client: str, question: str, go: str, project: Path, home: Path
) -> None:
    """Issue #45's user: a German, Japanese or Chinese question typed into the real client pauses
    the agent's edits; a go in the same language, typed next, lets the same write through."""
    require(client)
    engine, wt = setup(project, client, "IMPLEMENTATION", own=client == "claude")
    target = wt / "widget.py"
    _result, turns = run(
        client, project, home, wt, [CLIENTS[client].write_call(target), Text("Waiting.")], question
    )
    assert not target.exists()
    assert "waits for the user: they interrupted with a QUESTION" in tool_outputs(turns)
    assert engine.load("t1").paused_by() is not None

    script = [CLIENTS[client].write_call(target), Text("Done.")]
    result, _ = run(client, project, home, wt, script, go, resume=True)
    assert target.read_text() == "hello\n", result.describe()
    task = engine.load("t1")
    assert [i.type for i in task.interruptions] == ["QUESTION", "RESUMPTION"]
    assert task.paused_by() is None

"""The harness works: each real client, run offline against its stand-in
server, fires our hooks with real payloads and honours their answers.

Set TASKPROTO_CAPTURE_PAYLOADS=1 to (re)write tests/clients/payloads/ from
the runs; otherwise the saved payloads are checked to still have every field
they had when captured.
"""

from __future__ import annotations

import json
import os
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import DENY_REASON, DENY_WORD, MARKER, Record, RecordingHook, git, make_project
from .runners import (
    CLIENTS,
    Client,
    ClientResult,
    find_client,
    install_claude_hooks,
    install_codex_hooks,
    install_gemini_hooks,
    missing_reason,
    run_claude,
    run_codex,
    run_gemini,
    write_codex_config,
)
from .standin import (
    AnthropicServer,
    GeminiServer,
    OpenAIResponsesServer,
    Request,
    Text,
    ToolCall,
    Turn,
)

pytestmark = pytest.mark.clients

PAYLOADS = Path(__file__).parent / "payloads"
PROMPT = "Please create the file the task needs."
SHELLS = {"sh", "dash", "bash", "zsh"}


def require(name: str) -> None:
    if find_client(name) is None:
        pytest.skip(missing_reason(name))


def client_param() -> list[str]:
    return list(CLIENTS)


def writing_call(client: Client, kind: str, target: Path) -> ToolCall:
    """A tool call that creates `target`: the file-writing tool, or the shell."""
    if kind == "shell":
        return client.shell_call(f"printf 'hello\\n' > {shlex.quote(str(target))}")
    return client.write_call(target)


def run_write(
    client: Client,
    project: Path,
    home: Path,
    hook: RecordingHook,
    calls: list[ToolCall],
    *flags: str,
    relaunch: bool = False,
) -> tuple[ClientResult, list[Request]]:
    """Hooks on every event, then the scripted tool calls, one a turn (``relaunch``: Gemini's
    launcher starts its child, as a user's does; runners.run_gemini)."""
    client.install_hooks(project, home, hook.commands(client.name, client.all_events, *flags))
    tree = {"relaunch": True} if relaunch and client.name == "gemini" else {}
    with client.server([*calls, Text("All done")]) as server:
        result = client.run(PROMPT, project, server, home, **tree)
        turns = server.turns
    assert result.returncode == 0, result.describe()
    return result, turns


def context_flags(client: Client) -> tuple[str, ...]:
    # Gemini passes on only the JSON additionalContext form; the others take plain stdout.
    return ("--json-context",) if client.name == "gemini" else ()


def check_payload(client: str, record: Record, suffix: str = "") -> None:
    """Save (capture mode) or check a real payload against the saved one."""
    path = PAYLOADS / client / f"{record.event}{suffix}.json"
    if os.environ.get("TASKPROTO_CAPTURE_PAYLOADS") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record.payload, indent=2, sort_keys=True) + "\n")
        return
    if path.exists():
        saved = json.loads(path.read_text())
        missing = sorted(set(saved) - set(record.payload))
        assert not missing, f"{client} {record.event} payload lost fields {missing}"


@dataclass
class AllowedWrite:
    """One client's run with hooks on every event, an allowed write of `target`, then (but for
    Codex, whose one writing tool is its shell) an allowed shell command writing `shell_target`."""

    name: str
    project: Path
    hook: RecordingHook
    target: Path
    shell_target: Path
    result: ClientResult
    turns: list[Request]


@pytest.fixture(scope="module", params=client_param())
def allowed_write(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> AllowedWrite:
    """A client's allowed-write run, made once for the tests that read it (each checks what it is
    about on the same run: a client's start is seconds of CPU). Module-scoped and parametrized,
    so pytest puts the tests of one client next to each other."""
    name = request.param
    require(name)
    client = CLIENTS[name]
    base = tmp_path_factory.mktemp(f"allowed-write-{name}")
    project, home = make_project(base / "project"), base / "home"
    home.mkdir()
    hook, target = RecordingHook(base / "hook"), project / "allowed.txt"
    calls = [writing_call(client, "write", target)]
    shell_target = target if name == "codex" else project / "shell.txt"
    if name != "codex":
        calls.append(writing_call(client, "shell", shell_target))
    # Gemini's launcher and its relaunched child, as a user's: the one real Gemini run whose hook
    # chain test_hook_runs_under_the_long_lived_client_process reads (the walk common.client_pid
    # and hook.sh's client_pid make); the other Gemini runs here start one node
    flags = context_flags(client)
    result, turns = run_write(client, project, home, hook, calls, *flags, relaunch=True)
    return AllowedWrite(name, project, hook, target, shell_target, result, turns)


def test_hooks_fire_and_an_allowed_write_happens(allowed_write: AllowedWrite) -> None:
    run = allowed_write
    name, client = run.name, CLIENTS[run.name]
    project, hook, target, result, turns = run.project, run.hook, run.target, run.result, run.turns

    # (a) SessionStart fired, and its output reached the model on the first turn.
    start = hook.first(client.session_start)
    assert start.payload["source"] == "startup"
    assert MARKER in json.dumps(turns[0].body), f"{name}: SessionStart output not sent to model"
    # (b) the prompt hook saw the prompt. Gemini's headless run prepends the
    # SessionStart context to the prompt, and BeforeAgent sees it so.
    prompt = hook.first(client.prompt_event).payload["prompt"]
    if name == "gemini":
        assert prompt == f"<hook_context>{MARKER}</hook_context>\n\n{PROMPT}"
    else:
        assert prompt == PROMPT
    # (c) the pre-tool hook saw the tool and its input.
    pre = hook.first(client.pre_tool).payload
    assert pre["tool_name"] == {"claude": "Write", "codex": "Bash", "gemini": "write_file"}[name]
    assert "allowed.txt" in json.dumps(pre["tool_input"])
    # (d) allowed: the file is there.
    assert target.read_text() == "hello\n", result.describe()
    # Every payload names the session, its folder and its event.
    for record in hook.records():
        assert {"session_id", "cwd", "hook_event_name", "transcript_path"} <= set(record.payload)
        assert record.payload["hook_event_name"] == record.event
        assert Path(record.payload["cwd"]) == project
    assert len({r.payload["session_id"] for r in hook.records()}) == 1
    for event in client.all_events:
        check_payload(name, hook.first(event))


def test_an_allowed_shell_command_runs(allowed_write: AllowedWrite) -> None:
    """The shell tool, as the hooks see it: the second call of the allowed-write run (Codex's
    one tool is its shell: its write is that run's one call)."""
    run = allowed_write
    name, client, hook, target = run.name, CLIENTS[run.name], run.hook, run.shell_target

    assert target.read_text() == "hello\n", run.result.describe()
    shell = 0 if name == "codex" else 1  # the shell call's place among the run's tool calls
    pre = [r for r in hook.records() if r.event == client.pre_tool][shell].payload
    assert (
        pre["tool_name"] == {"claude": "Bash", "codex": "Bash", "gemini": "run_shell_command"}[name]
    )
    assert pre["tool_input"]["command"] == f"printf 'hello\\n' > {shlex.quote(str(target))}"
    if name == "codex":
        return  # its one tool's payloads: test_hooks_fire_and_an_allowed_write_happens
    for event in client.all_events:
        if "Tool" in event:
            record = [r for r in hook.records() if r.event == event][shell]
            check_payload(name, record, f".{pre['tool_name']}")


# Codex's file-writing call is its shell tool, so its run makes one call; the others' runs make
# both, the file-writing tool's and the shell's, each denied (one client start for the two).
DENY_KINDS = {"claude": ("write", "shell"), "gemini": ("write", "shell"), "codex": ("shell",)}


@pytest.mark.parametrize("name", list(DENY_KINDS))
@pytest.mark.parametrize("how", ["exit2", "json"])
def test_pre_tool_hook_denies_the_write(
    name: str, how: str, project: Path, home: Path, hook: RecordingHook
) -> None:
    """Each writing call of one run is denied: the file-writing tool's, then the shell's."""
    require(name)
    client = CLIENTS[name]
    kinds = DENY_KINDS[name]
    targets = {kind: project / f"{DENY_WORD}-{kind}.txt" for kind in kinds}
    calls = [writing_call(client, kind, targets[kind]) for kind in kinds]
    client.install_hooks(
        project,
        home,
        hook.commands(client.name, client.all_events, *(("--json-deny",) if how == "json" else ())),
    )
    with client.server([*calls, Text("All done")]) as server:
        result = client.run(PROMPT, project, server, home)
        turns = server.turns
    assert result.returncode == 0, result.describe()

    seen = [r.payload for r in hook.records() if r.event == client.pre_tool]
    assert len(seen) == len(kinds), (hook.events(), result.describe())
    for kind, payload in zip(kinds, seen, strict=True):
        assert str(targets[kind]) in json.dumps(payload["tool_input"]), (kind, payload)
        assert not targets[kind].exists(), f"{name} wrote the file despite the hook's deny ({kind})"
    # Each reason is what the model reads as that call's result: the turn after the Nth call
    # carries N of them (the conversation so far).
    for n in range(1, len(kinds) + 1):
        assert json.dumps(turns[n].body).count(DENY_REASON) == n, (n, result.describe())
    if name == "claude":
        assert result.json["permission_denials"] == [
            {"tool_name": call.name, "tool_use_id": f"toolu_standin_{i}", "tool_input": call.input}
            for i, call in enumerate(calls)
        ]


def test_hook_runs_under_the_long_lived_client_process(allowed_write: AllowedWrite) -> None:
    """The first ancestor of a hook that is not a shell is the client itself (read from the run
    test_hooks_fire_and_an_allowed_write_happens checks)."""
    name, hook = allowed_write.name, allowed_write.hook

    pids = set()
    for record in hook.records():
        at, owner = next(
            (i, p) for i, p in enumerate(record.chain) if Path(p["cmdline"][0]).name not in SHELLS
        )
        # The executable, or for node the script, names the client.
        assert name in " ".join(owner["cmdline"][:3]), record.chain
        if name == "gemini":
            # the relaunched child under Gemini's launcher, as a user's (allowed_write keeps it)
            assert "gemini" in " ".join(record.chain[at + 1]["cmdline"][:3]), record.chain
        pids.add(owner["pid"])
    assert len(pids) == 1, "every hook of one session runs under the same client process"
    if name == "claude":
        # Claude runs hooks through `/bin/sh -c`, and tells them its pid.
        for record in hook.records():
            assert Path(record.chain[0]["cmdline"][0]).name in SHELLS
            assert record.chain[1]["pid"] == int(record.env["CLAUDE_PID"])


# -- Claude Code ------------------------------------------------------------


def test_claude_session_start_gets_env_file_in_print_mode(
    project: Path, home: Path, hook: RecordingHook
) -> None:
    """CLAUDE_ENV_FILE is given to SessionStart under -p, and what it exports
    is in the environment of the Bash tool's later commands."""
    require("claude")
    install_claude_hooks(project, hook.commands("claude", ("SessionStart", "PreToolUse")))
    script: list[Turn] = [
        ToolCall("Bash", {"command": 'echo "$TASKPROTO_TEST_ENV" > env-seen.txt'}),
        Text("All done"),
    ]
    with AnthropicServer(script) as server:
        result = run_claude(PROMPT, project, server, home, args=("--allowedTools", "Bash"))
    assert result.returncode == 0, result.describe()
    env_file = hook.first("SessionStart").env.get("CLAUDE_ENV_FILE")
    assert env_file, "SessionStart got no CLAUDE_ENV_FILE"
    assert "CLAUDE_ENV_FILE" not in hook.first("PreToolUse").env
    assert (project / "env-seen.txt").read_text() == "from-session-start\n"


def test_claude_linked_worktree_reads_only_its_own_settings(
    project: Path, home: Path, hook: RecordingHook
) -> None:
    require("claude")
    # The main worktree's settings are not committed (as taskproto's are not).
    git("config", "user.name", "t", cwd=project)
    git("config", "user.email", "t@example.invalid", cwd=project)
    (project / ".git" / "info" / "exclude").write_text(".taskproto/\n.claude/\n")
    install_claude_hooks(project, {"SessionStart": hook.command("claude", "main-SessionStart")})
    code = project / ".taskproto" / "tasks" / "x" / "agents" / "dev" / "code"
    git("worktree", "add", "-q", "-b", "x-dev", str(code), cwd=project)

    with AnthropicServer([Text("hi")]) as server:
        bare = run_claude(PROMPT, code, server, home)
    assert bare.returncode == 0, bare.describe()
    assert hook.events() == [], "the main worktree's settings applied inside the worktree"

    install_claude_hooks(code, {"SessionStart": hook.command("claude", "wt-SessionStart")})
    with AnthropicServer([Text("hi")]) as server:
        own = run_claude(PROMPT, code, server, home)
    assert own.returncode == 0, own.describe()
    assert hook.events() == ["wt-SessionStart"]
    assert Path(hook.first("wt-SessionStart").payload["cwd"]) == code


# -- Codex CLI --------------------------------------------------------------


@pytest.mark.parametrize("trusted", [True, False])
def test_codex_project_hooks_need_a_trusted_project(
    trusted: bool, project: Path, home: Path, hook: RecordingHook
) -> None:
    require("codex")
    install_codex_hooks(project / ".codex", hook.commands("codex", ("SessionStart",)))
    with OpenAIResponsesServer([Text("hi")]) as server:
        write_codex_config(home / ".codex", server, trusted=[project] if trusted else [])
        result = run_codex(PROMPT, project, server, home)
        seen = server.seen(MARKER)
    assert result.returncode == 0, result.describe()
    assert hook.events() == (["SessionStart"] if trusted else [])
    assert seen is trusted


# -- Gemini CLI -------------------------------------------------------------


def test_gemini_plain_session_start_stdout_does_not_reach_the_model(
    project: Path, home: Path, hook: RecordingHook
) -> None:
    require("gemini")
    install_gemini_hooks(home, hook.commands("gemini", ("SessionStart",)), user_settings=True)
    with GeminiServer([Text("hi")]) as server:
        result = run_gemini(PROMPT, project, server, home)
        seen = server.seen(MARKER)
    assert result.returncode == 0, result.describe()
    assert hook.events() == ["SessionStart"]
    assert not seen
    # It is shown to the user instead.
    assert f"Hook system message: {MARKER}" in result.stderr


def test_gemini_project_settings_hooks_fire(project: Path, home: Path, hook: RecordingHook) -> None:
    require("gemini")
    install_gemini_hooks(project, hook.commands("gemini", ("SessionStart", "BeforeAgent")))
    with GeminiServer([Text("hi")]) as server:
        result = run_gemini(PROMPT, project, server, home)
    assert result.returncode == 0, result.describe()
    assert hook.events() == ["SessionStart", "BeforeAgent"]
    assert hook.first("SessionStart").env["GEMINI_PROJECT_DIR"] == str(project)

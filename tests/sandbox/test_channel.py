"""The agent's channel (docs/sandbox.md, "The channel"): inside its sandbox, taskproto's CLI and
the clients' hooks reach the protocol as that agent only. A forged identity, the user's commands,
a flood, a connection held open and garbage all fail closed; a pause is lifted only from outside."""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import taskproto
from taskproto.engine import Engine
from taskproto.sandbox.channel import LIMIT
from taskproto.sandbox.serve import MAX_OPEN, Channel
from tests.conftest import git, run_taskproto
from tests.sandbox.conftest import SESSION, needs_bwrap

INSIDE_SESSION = "agent-t-dev"


def inside(repo: Path, script: str) -> tuple[int, str, str]:
    """`sh -c script` in agent dev's sandbox of task t."""
    r = run_taskproto("agent", "exec", "t", "dev", "--", "sh", "-c", script, cwd=repo)
    return r.code, r.out, r.err


@needs_bwrap
def test_taskproto_inside_answers_as_the_agent_and_refuses_the_users_commands(
    sandboxed: Engine, repo: Path
) -> None:
    journal = git(repo, "rev-parse", "refs/taskproto/tasks/t")
    code, out, err = inside(
        repo,
        "taskproto whoami --json; echo; taskproto task show t --json; echo;"
        " TASKPROTO_SESSION=s1 taskproto release t; echo release=$?;"
        " taskproto --session s1 release t; echo session=$?;"
        " taskproto release t --session=s1; echo session2=$?;"
        " taskproto approve t plan; echo approve=$?;"
        " taskproto land t; echo land=$?; taskproto resume t; echo resume=$?",
    )
    assert code == 0, err
    decoder = json.JSONDecoder()
    whoami, end = decoder.raw_decode(out)
    shown, _ = decoder.raw_decode(out, out.index("{", end))
    assert whoami["session"] == INSIDE_SESSION, whoami
    assert whoami["from"] == "TASKPROTO_SESSION, set by the sandbox channel of agent t/dev"
    assert shown["name"] == "t" and shown["state"] == "IMPLEMENTATION"
    for word in ("release", "session", "session2", "approve", "land", "resume"):
        assert f"{word}=1" in out, out + err
    assert "--session is not the agent's: the channel acts as this agent only" in err
    assert "`taskproto approve` is the user's; an agent in its sandbox cannot run it" in err
    assert "`taskproto land` is the user's" in err and "`taskproto resume` is the user's" in err
    task = sandboxed.load("t")
    assert task.owner is not None and task.owner.session == SESSION  # the claim is the user's still
    assert git(repo, "rev-parse", "refs/taskproto/tasks/t") == journal


@needs_bwrap
def test_a_pause_is_lifted_only_from_outside(sandboxed: Engine, repo: Path, cli) -> None:
    r = cli(
        "interrupt", "record", "t", "what does the retry do?", env={"TASKPROTO_SESSION": SESSION}
    )
    assert r.code == 0, r.err
    assert sandboxed.load("t").paused_by() is not None
    dev = sandboxed.config.agent_worktree("t", "dev")
    entry = Path(taskproto.__file__).parent / "hooks" / "agents" / "entry.py"
    prompt = json.dumps(
        {
            "session_id": SESSION,  # the owner's, forged
            "hook_event_name": "UserPromptSubmit",
            "prompt": "continue",
            "cwd": str(dev),
        }
    )
    code, out, err = inside(
        repo,
        f"echo '{prompt}' | {sys.executable} -I -S {entry} claude UserPromptSubmit; "
        f"echo '{prompt}' | TASKPROTO_SESSION={SESSION} taskproto hook claude UserPromptSubmit; "
        "taskproto resume t; echo resume=$?",
    )
    assert code == 0, err
    assert "resume=1" in out
    assert err.count("a prompt inside the agent's sandbox does not resume task t") == 2, err
    assert "`taskproto resume` is the user's; an agent in its sandbox cannot run it" in err
    assert sandboxed.load("t").paused_by() is not None  # still waits for the user
    r = cli("resume", "t", env={"TASKPROTO_SESSION": SESSION})
    assert r.code == 0, r.err
    assert sandboxed.load("t").paused_by() is None


# --- the socket itself, as an agent that wants out would use it ----------------------------------


@pytest.fixture
def channel(sandboxed: Engine) -> Iterator[Channel]:
    dev = sandboxed.config.agent_worktree("t", "dev")
    with Channel(task="t", agent="dev", session=INSIDE_SESSION, worktree=str(dev)) as made:
        made.read_seconds = 0.5
        yield made


def send(path: str, data: bytes) -> dict[str, object]:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(10)
        sock.connect(path)
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        return json.loads(b"".join(iter(lambda: sock.recv(65536), b"")))  # type: ignore[no-any-return]


def test_a_forged_session_in_a_hook_payload_acts_as_the_channels_agent(
    channel: Channel, sandboxed: Engine, repo: Path
) -> None:
    root = sandboxed.config.root
    payload = {
        "session_id": SESSION,  # the owner's
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": str(repo / "main.txt"), "content": "x"},
        "cwd": str(repo),  # the main worktree: not the agent's
    }
    request = {"kind": "hook", "client": "claude", "event": "PreToolUse"}
    answer = send(channel.path, json.dumps({**request, "payload": json.dumps(payload)}).encode())
    assert answer["code"] == 2, answer  # the write outside its worktree is denied
    activity = json.loads((root / "activity" / f"{INSIDE_SESSION}.json").read_text())
    assert activity["cwd"] == str(sandboxed.config.agent_worktree("t", "dev"))
    assert not (root / "activity" / f"{SESSION}.json").exists()


REFUSED = [
    ["approve", "t", "plan"],
    ["land", "t"],
    ["ack", "t"],
    ["resume", "t"],
    ["doctor", "--fix"],
    ["agent", "stop", "t", "qa"],
    ["--session", SESSION, "release", "t"],
    ["release", "t", f"--session={SESSION}"],
    ["--root", "/tmp", "task", "list"],
    ["task", "create", "u"],
    ["claim", "t"],
    ["release", "t"],
    ["-C", "/tmp", "task", "list"],
    ["-C/tmp", "task", "list"],
    ["fire", "t", "x", "--force"],
    ["task", "list", "--watch"],
    ["handoff", "t", "--to", "REVIEW", "--decision", "NO", "--results", "/etc/passwd"],
    ["submit", "t", "--artifact=../../../../task.json"],
    [],
]


def test_the_users_commands_and_other_identities_are_refused(
    channel: Channel, sandboxed: Engine, repo: Path
) -> None:
    journal = git(repo, "rev-parse", "refs/taskproto/tasks/t")
    for argv in REFUSED:
        answer = send(channel.path, json.dumps({"kind": "cli", "argv": argv}).encode())
        assert answer["code"] == 1 and answer["out"] == "", (argv, answer)
        err = str(answer["err"])
        assert err.startswith("taskproto: ") and err.count("\n") == 1, (argv, err)
    assert git(repo, "rev-parse", "refs/taskproto/tasks/t") == journal


GARBAGE = [
    b"",
    b"\xff\xfe garbage",
    b"[1, 2]",
    b'{"kind": "shell", "argv": ["sh"]}',
    b'{"kind": "hook", "client": "../../bin/sh", "event": "x", "payload": "{}"}',
    b'{"kind": "hook", "client": "claude", "event": "../x", "payload": "{}"}',
    b'{"kind": "cli", "argv": "whoami"}',
    b'{"kind": "cli", "argv": ' + b"[" + b'"x",' * 300_000 + b'"x"]}',  # over 1 MiB
]


def test_garbage_is_refused_in_one_line(channel: Channel) -> None:
    for data in GARBAGE:
        try:
            answer = send(channel.path, data)
        except (ConnectionResetError, BrokenPipeError):
            assert len(data) > LIMIT  # the channel stopped reading and dropped it
            continue
        assert answer["code"] == 1 and answer["out"] == "", (data[:80], answer)
        assert str(answer["err"]).startswith("taskproto: ")


def test_a_flood_and_held_connections_are_refused_and_the_channel_still_answers(
    channel: Channel,
) -> None:
    held = []
    for _ in range(MAX_OPEN):  # each says nothing and stays open
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(channel.path)
        held.append(sock)
    try:
        deadline = time.monotonic() + 3
        answer: dict[str, object] = {}
        while time.monotonic() < deadline:  # the ninth is refused at once (once all are taken)
            try:
                answer = send(channel.path, b'{"kind": "cli", "argv": ["whoami", "--json"]}')
            except ConnectionResetError:  # refused before it was read: dropped, as fail-closed
                continue
            if "busy" in str(answer["err"]):
                break
        assert answer["code"] == 1 and "the channel is busy" in str(answer["err"])
        for sock in held:  # each held one is dropped with a refusal after read_seconds
            sock.settimeout(5)
            dropped = json.loads(b"".join(iter(lambda s=sock: s.recv(65536), b"")))
            assert dropped["code"] == 1 and "did not arrive whole within" in dropped["err"]
    finally:
        for sock in held:
            sock.close()
    answer = send(channel.path, b'{"kind": "cli", "argv": ["whoami", "--json"]}')
    assert answer["code"] == 0, answer
    assert json.loads(str(answer["out"]))["session"] == INSIDE_SESSION


def test_a_channel_that_does_not_answer_denies_a_tool_call(tmp_path: Path) -> None:
    from taskproto.sandbox.channel import hook

    os.environ["TASKPROTO_CHANNEL"] = str(tmp_path / "none")
    try:
        code, _, err = hook("claude", "PreToolUse", b"{}")
        assert code == 2 and "so this tool call is denied" in err
        code, _, err = hook("claude", "Stop", b"{}")
        assert code == 0 and "nothing done" in err
    finally:
        del os.environ["TASKPROTO_CHANNEL"]


def test_a_file_an_option_names_is_read_only_from_the_agents_worktree_and_never_through_a_link(
    channel: Channel, sandboxed: Engine, tmp_path: Path
) -> None:
    dev = sandboxed.config.agent_worktree("t", "dev")
    secret = tmp_path / "secret.txt"
    secret.write_text("the user's secret\n")
    (dev / "link.md").symlink_to(secret)
    (dev / "sub").mkdir()
    (dev / "sub" / "up").symlink_to(tmp_path)
    (dev / "plan.md").write_text("# plan\n")
    for value in ("link.md", "sub/up/secret.txt", str(secret)):
        argv = ["submit", "t", f"--artifact={value}"]
        answer = send(channel.path, json.dumps({"kind": "cli", "argv": argv}).encode())
        assert answer["code"] == 1, answer
        assert "--artifact names a file outside the agent's worktree" in str(answer["err"])
    # a file of its own goes through (to the command, which judges the rest)
    argv = ["submit", "t", "--artifact", "plan.md"]
    answer = send(channel.path, json.dumps({"kind": "cli", "argv": argv, "cwd": str(dev)}).encode())
    assert "the agent's worktree" not in str(answer["err"]) and "link" not in str(answer["err"])
    assert "secret" not in json.dumps(answer)


def test_the_folder_of_a_channel_nobody_serves_is_swept_and_a_served_one_kept(
    channel: Channel, sandboxed: Engine
) -> None:
    import tempfile

    stale = Path(tempfile.mkdtemp(prefix="taskproto-ch-", dir="/tmp"))
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.bind(str(stale / "s"))  # a supervisor killed: its socket file stays, bound by nobody
    assert (stale / "s").exists()
    os.utime(stale, (time.time() - 120, time.time() - 120))  # not one being made now
    dev = sandboxed.config.agent_worktree("t", "dev")
    with Channel(task="t", agent="qa", session="agent-t-qa", worktree=str(dev)):
        assert not stale.exists()
        assert Path(channel.path).exists()  # the one that is served stays


def test_agent_set_through_the_channel_is_its_own_agents_only() -> None:
    from taskproto.sandbox.serve import refusal

    own = ("t", "dev")
    assert refusal(["agent", "set", "t", "dev", "--status", "complete"], own=own) is None
    for argv in (
        ["agent", "set", "t", "qa", "--status", "complete"],
        ["agent", "set", "u", "dev", "--status", "complete"],
        ["agent", "set", "--status", "complete", "t", "dev"],
        ["agent", "start", "t", "dev"],
        ["agent", "set", "t", "dev", "--status", "complete", "--force"],
    ):
        assert refusal(argv, own=own) is not None, argv
    assert refusal(["agent", "set", "t", "dev", "--status", "complete"]) is not None  # no channel

"""Notifications: exactly the moments that need the user, once each, through a logging command, a
real webhook receiver on 127.0.0.1 and a notify-send stand-in; never for an agent's Stop."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from taskproto.doctor.escalate import escalate
from taskproto.engine import Engine
from taskproto.ops import interrupts
from taskproto.ops import review as actions
from taskproto.state.models import AgentState
from tests.conftest import commit_file, git, run_taskproto
from tests.hooks.agents.conftest import move_to, payload

SESSION = "s1"


class Receiver:
    """A webhook on 127.0.0.1: records every JSON body; answers 503 while `down`."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []
        self.down = False
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                data = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if receiver.down:
                    self.send_response(503)
                    self.end_headers()
                    return
                receiver.bodies.append(json.loads(data))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver()
    try:
        yield found
    finally:
        found.close()


@pytest.fixture
def channels(
    repo: Path, receiver: Receiver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """A logging command and the webhook in .taskproto.toml; no detached delivery in this process
    (the tests flush)."""
    log = tmp_path / "notified.jsonl"
    script = tmp_path / "log-event"
    script.write_text(f"#!/bin/sh\ncat >> '{log}'\necho >> '{log}'\n")
    script.chmod(0o755)
    (repo / ".taskproto.toml").write_text(
        f'[notify]\ncommand = "{script}"\nwebhook = "{receiver.url}"\n'
    )
    monkeypatch.setenv("TASKPROTO_NOTIFY_DETACH", "0")
    return log


def logged(log: Path) -> list[tuple[str, str]]:
    if not log.exists():
        return []
    return [
        (e["task"], e["reason"])
        for e in (json.loads(x) for x in log.read_text().splitlines() if x.strip())
    ]


def flush(cli: Any) -> dict[str, Any]:
    result = cli("notify", "flush", "--json")
    return dict(json.loads(result.out))


def to_approval(engine: Engine, name: str, agent: str, file: str, session: str = SESSION) -> str:
    """Work by `agent`, merged, the task at AWAITING_USER_APPROVAL; the task branch's head."""
    if engine.load(name).state != "IMPLEMENTATION":
        move_to(engine, name, "IMPLEMENTATION")
    commit_file(engine.config.agent_worktree(name, agent), file, f"{file}\n")
    engine.merge(name, session=session)
    move_to(engine, name, "AWAITING_USER_APPROVAL")
    return git(engine.config.repo, "rev-parse", name)


def test_a_scripted_day_notifies_exactly_what_needs_the_user(
    engine: Engine, repo: Path, cli: Any, channels: Path, receiver: Receiver
) -> None:
    engine.create_task("t1", ["dev"], description="the widget")
    engine.create_task("t2", ["qa"], description="the tests")
    engine.claim("t1", SESSION)
    engine.claim("t2", "s2")
    move_to(engine, "t2", "IMPLEMENTATION")

    # a question of the user's pauses t2; the answer (resume) needs nobody
    interrupts.record(engine, "t2", "wait, should this use the new parser?", "s2")
    actions.resume(engine, "t2", "user")
    # an escalation on t2
    escalate(engine, "t2", "external-dependency", "the staging database is down", [], "s2")
    actions.resume(engine, "t2", "user")

    # t1 waits for its approval; approved; a new commit makes the approval stale
    head = to_approval(engine, "t1", "dev", "widget.py")
    actions.approve(engine, "t1", "user", "commit", head)
    commit_file(engine.config.task_worktree("t1"), "late.py")
    engine.mark_approval_stale("t1", "the branch moved", "user")

    # t2: approval, a revision, the revision answered
    to_approval(engine, "t2", "qa", "test_a.py", "s2")
    actions.request_revision(engine, "t2", "user", "cover the empty input too")
    to_approval(engine, "t2", "qa", "test_b.py", "s2")

    report = flush(cli)
    expected = [
        ("t2", "plan-approval"),  # SYNTHESIS: the plan waits for the user
        ("t2", "question"),
        ("t2", "escalation"),
        ("t1", "plan-approval"),
        ("t1", "commit-approval"),
        ("t1", "stale-approval"),
        ("t2", "commit-approval"),
        ("t2", "revision-answered"),
    ]
    assert logged(channels) == expected
    assert [(b["task"], b["reason"]) for b in receiver.bodies] == expected
    assert len(report["delivered"]) == 16 and report["failed"] == []
    # every event names the command that acts on it
    t1_head = git(repo, "rev-parse", "t1")[:12]
    assert receiver.bodies[5]["command"] == f"taskproto approve t1 --commit {t1_head}"
    assert receiver.bodies[1]["command"] == "taskproto resume t2"
    # flushed again (a restart, another command): nothing is sent twice
    assert flush(cli)["delivered"] == []
    assert len(logged(channels)) == 8 and len(receiver.bodies) == 8


def test_fifty_agent_stops_notify_nobody(
    engine: Engine, repo: Path, cli: Any, channels: Path, receiver: Receiver
) -> None:
    from taskproto.hooks.agents.runner import run_agent_hook

    engine.create_task("t1", ["dev"])
    engine.claim("t1", SESSION, pid=os.getpid())
    move_to(engine, "t1", "IMPLEMENTATION")
    flush(cli)
    before = logged(channels)  # the plan's approval, on the way
    outbox = engine.config.root / "notify" / "outbox.jsonl"
    lines = outbox.read_text()
    env = {k: os.environ.get(k, "") for k in ("PATH", "HOME", "XDG_STATE_HOME")}
    cwd = str(engine.config.agent_worktree("t1", "dev"))
    for _ in range(50):
        stop = payload("claude", "Stop", session_id=SESSION, cwd=cwd)
        assert run_agent_hook("claude", "Stop", stop, env, pid=os.getpid())[0] == 0
    engine.set_agent_status("t1", "dev", AgentState.WORKING, session=SESSION)
    engine.heartbeat("t1", SESSION)
    assert flush(cli)["delivered"] == []
    assert before == [("t1", "plan-approval")] and logged(channels) == before
    assert len(receiver.bodies) == 1
    assert outbox.read_text() == lines


def test_a_webhook_that_was_down_gets_its_events_once_when_it_returns(
    engine: Engine, repo: Path, cli: Any, channels: Path, receiver: Receiver
) -> None:
    engine.create_task("t1", ["dev"])
    engine.claim("t1", SESSION)
    move_to(engine, "t1", "IMPLEMENTATION")
    flush(cli)  # the plan's approval, on the way
    channels.unlink()
    receiver.bodies.clear()
    receiver.down = True
    interrupts.record(engine, "t1", "stop: is this the right table?", SESSION)
    escalate(engine, "t1", "external-dependency", "no database", [], SESSION)
    result = cli("notify", "flush", "--json")
    assert result.code == 1
    failed = json.loads(result.out)["failed"]
    assert [f["channel"] for f in failed] == ["webhook", "webhook"]
    assert "503" in failed[0]["error"] and failed[1]["error"] == "not tried: down"
    assert logged(channels) == [("t1", "question"), ("t1", "escalation")]  # the command took them
    assert receiver.bodies == []
    receiver.down = False
    assert [d["channel"] for d in flush(cli)["delivered"]] == ["webhook", "webhook"]
    assert flush(cli)["delivered"] == []
    expected = [("t1", "question"), ("t1", "escalation")]
    assert [(b["task"], b["reason"]) for b in receiver.bodies] == expected
    assert logged(channels) == expected


def test_webhook_bodies_for_slack_and_ntfy(
    engine: Engine, repo: Path, cli: Any, receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TASKPROTO_NOTIFY_DETACH", "0")
    engine.create_task("t1", ["dev"])
    engine.claim("t1", SESSION)
    move_to(engine, "t1", "IMPLEMENTATION")
    interrupts.record(engine, "t1", "hold on, which API version?", SESSION)
    for fmt, keys in (("slack", ["text"]), ("ntfy", ["message", "tags", "title", "topic"])):
        (repo / ".taskproto.toml").write_text(
            f'[notify]\nwebhook = "{receiver.url}"\nformat = "{fmt}"\ntopic = "mine"\n'
        )
        (engine.config.root / "notify" / "delivered.jsonl").unlink(missing_ok=True)
        flush(cli)
        body = receiver.bodies.pop()
        assert sorted(body) == keys
        assert "taskproto resume t1" in (body.get("text") or body["message"])
    assert body["topic"] == "mine"


def test_desktop_notifications_through_notify_send(
    engine: Engine, repo: Path, cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TASKPROTO_NOTIFY_DETACH", "0")
    calls = tmp_path / "notify-send.log"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    stand_in = bin_dir / "notify-send"
    stand_in.write_text(f'#!/bin/sh\nprintf "%s|" "$@" >> "{calls}"\necho >> "{calls}"\n')
    stand_in.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    engine.create_task("t1", ["dev"])
    engine.claim("t1", SESSION)
    move_to(engine, "t1", "IMPLEMENTATION")
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "taskproto" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[notify]\ndesktop = true\n")  # the user's own config
    flush(cli)  # the plan's approval, on the way
    calls.unlink()
    interrupts.record(engine, "t1", "wait, why this library?", SESSION)
    assert flush(cli)["failed"] == []
    args = calls.read_text().splitlines()
    assert len(args) == 1
    assert args[0].startswith("--app-name=taskproto|taskproto: t1 needs you (question)|")
    assert "taskproto resume t1" in args[0]


def test_the_command_that_causes_an_event_returns_and_a_detached_flush_delivers(
    repo: Path, tmp_path: Path
) -> None:
    log = tmp_path / "notified.jsonl"
    script = tmp_path / "log-event"
    script.write_text(f"#!/bin/sh\ncat >> '{log}'\necho >> '{log}'\n")
    script.chmod(0o755)
    (repo / ".taskproto.toml").write_text(f'[notify]\ncommand = "{script}"\n')
    env = {"TASKPROTO_SESSION": SESSION}
    for args in (("task", "create", "t1"), ("claim", "t1")):
        assert run_taskproto(*args, cwd=repo, env=env).code == 0
    result = run_taskproto("interrupt", "record", "t1", "wait, is this right?", cwd=repo, env=env)
    assert result.code == 0, result.err
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not logged(log):
        time.sleep(0.05)
    assert logged(log) == [("t1", "question")]
    # the detached flush recorded the delivery: a flush now sends nothing
    flushed = run_taskproto("notify", "flush", "--json", cwd=repo)
    assert json.loads(flushed.out)["delivered"] == [], sys.executable


def test_a_long_running_process_starts_the_delivery_at_once(
    engine: Engine, repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The board or the MCP server may run for hours: what they note is sent without their exit."""
    from taskproto.engine import attention

    log = tmp_path / "notified.jsonl"
    script = tmp_path / "log-event"
    script.write_text(f"#!/bin/sh\ncat >> '{log}'\necho >> '{log}'\n")
    script.chmod(0o755)
    engine.create_task("t1", ["dev"])
    engine.claim("t1", SESSION)
    (repo / ".taskproto.toml").write_text(f'[notify]\ncommand = "{script}"\n')
    monkeypatch.setattr(attention, "_STARTED", time.monotonic() - 3600)
    monkeypatch.setattr(attention, "_pending", [])
    interrupts.record(engine, "t1", "wait, is this the right table?", SESSION)
    assert attention._pending == []  # started, not left for this process's exit
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not logged(log):
        time.sleep(0.05)
    assert logged(log) == [("t1", "question")]
    # the detached flush recorded the delivery: waiting for it, a flush sends nothing more
    flushed = run_taskproto("notify", "flush", "--json", cwd=repo)
    assert json.loads(flushed.out)["delivered"] == []


def test_notify_test_sends_a_made_up_event_to_each_channel(
    repo: Path, cli: Any, channels: Path, receiver: Receiver
) -> None:
    result = cli("notify", "test", "--json")
    assert result.code == 0, result.err
    assert [d["channel"] for d in json.loads(result.out)["delivered"]] == ["command", "webhook"]
    assert logged(channels) == [("example", "test")]
    assert receiver.bodies[0]["command"] == "taskproto inbox"
    receiver.down = True
    result = cli("notify", "test")
    assert result.code == 1 and "webhook: test: HTTP Error 503" in result.out

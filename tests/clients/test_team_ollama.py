"""`round run` with the ollama backend (HTTP, called directly) against a stand-in on 127.0.0.1,
and the checks `round run` and `task create` make before any backend is called."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from taskproto.ops import phone_a_team as team
from taskproto.state import journal

from .standin import Drop, Fail, Hang, OllamaServer, Text
from .test_team_backends import HOLD_LOCK, answer

DESCRIPTION = "Speed up the parser"


@pytest.fixture
def ollama(repo: Path):
    servers: list[OllamaServer] = []

    def start(*script, model: str = "qwen2.5-coder") -> OllamaServer:
        server = OllamaServer(list(script))
        server.start()
        servers.append(server)
        (repo / ".taskproto.toml").write_text(
            f'[phone_a_team]\nollama_url = "{server.url}"\nollama_model = "{model}"\n'
        )
        return server

    yield start
    for s in servers:
        s.stop()


def create(cli, rounds: int = 2, description: str = DESCRIPTION) -> None:
    r = cli(
        "task", "create", "t", "--workflow", "phone-a-team", "-d", description,
        "--backend", "ollama", "--max-rounds", str(rounds),
    )  # fmt: skip
    assert r.code == 0, r.err


def run(cli, *args, code: int = 0):
    r = cli("round", "run", "t", "--json", *args)
    assert r.code == code, r.err
    return json.loads(r.out) if code == 0 else r


def snapshot(engine):
    return (engine.config.task_file("t").read_bytes(), journal.head(engine.git, "t"))


def test_ollama_answers_over_http_and_converges(cli, engine, ollama):
    server = ollama(answer())
    create(cli)
    data = run(cli)
    assert (data["outcome"], data["rounds"][0]["calls"][0]["format"]) == ("converged", "ok")
    turn, review = server.turns  # the round's answer, then the lead's review of it
    assert "# How to review" in review.body["prompt"]
    assert turn.path == "/api/generate"
    assert turn.body["model"] == "qwen2.5-coder" and turn.body["stream"] is False
    assert DESCRIPTION in turn.body["prompt"] and "## REVIEW" in turn.body["prompt"]


def test_ollama_429_timeout_and_dropped_connection(cli, engine, ollama):
    server = ollama(Fail(429), Hang(), Drop(), answer())
    create(cli, rounds=4)
    started = time.monotonic()
    data = run(cli, "--timeout", "1")
    calls = [r["calls"][0] for r in data["rounds"]]
    assert [c["outcome"] for c in calls] == ["rate-limited", "timeout", "crash", "answered"]
    assert calls[0]["detail"].startswith("HTTP 429")
    assert calls[1]["detail"] == "no answer within 1 s; connection closed"
    assert 1 <= calls[1]["seconds"] < 3
    assert "RemoteDisconnected" in calls[2]["detail"] or "Connection" in calls[2]["detail"]
    assert data["outcome"] == "converged" and time.monotonic() - started < 15
    rounds = engine.load("t").context["rounds"]
    assert [r["outcome"] for r in rounds] == [
        "round_failed", "round_failed", "round_failed", "converged",
    ]  # fmt: skip
    assert len(server.turns) == 5  # the last round's answer, then the lead's review


def test_no_ollama_listening_is_a_crash(cli, engine, ollama):
    server = ollama()
    create(cli, rounds=1)
    server.stop()  # nothing listens on the port any more
    data = run(cli)
    [call] = data["rounds"][0]["calls"]
    assert call["outcome"] == "crash" and "ConnectionRefused" in call["detail"]
    assert data["outcome"] == "round_failed_at_last_round"


def test_an_empty_description_is_refused_without_a_terminal_and_can_be_given(cli, engine, ollama):
    server = ollama(answer())
    context, counters, _ = team.creation(engine, 2, "ollama")
    engine.create_task("t", workflow="phone-a-team", context=context, counters=counters)
    before = snapshot(engine)
    r = cli("round", "run", "t")
    assert r.code == 1 and r.out == ""
    assert r.err == (
        "taskproto: round run t needs a task description and none was given: "
        "pass --description TEXT, or run it in a terminal to be asked\n"
    )
    assert snapshot(engine) == before and server.turns == []
    data = run(cli, "--description", "  Cache the   token table ")
    assert data["outcome"] == "converged"
    task = engine.load("t")
    assert task.description == "Cache the token table"
    assert [e.trigger for e in task.transition_log][:2] == ["create", "describe"]
    assert "Cache the token table" in server.turns[0].body["prompt"]
    r = cli("round", "run", "t", "--description", "something else")
    assert r.code == 1 and "already has a description" in r.err


def test_task_create_refuses_an_empty_description_without_a_terminal(cli, engine):
    r = cli("task", "create", "t", "--workflow", "phone-a-team", "--backend", "ollama")
    assert r.code == 1 and "needs a task description and none was given" in r.err
    r = cli("task", "create", "t", "--workflow", "phone-a-team", "--backend", "ollama", "-d", " ")
    assert r.code == 1
    assert not engine.config.task_dir("t").exists() and journal.head(engine.git, "t") is None


def _read_until(fd: int, needle: bytes, timeout: float = 20) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while needle not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return seen


def test_task_create_in_a_terminal_asks_for_the_description(repo, engine):
    main, secondary = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "taskproto", "task", "create", "t", "--workflow", "phone-a-team",
         "--backend", "ollama"],
        cwd=repo, stdin=secondary, stdout=secondary, stderr=secondary, close_fds=True,
    )  # fmt: skip
    os.close(secondary)
    try:
        asked = _read_until(main, b"What should the team do?")
        assert b"What should the team do? (the task description)" in asked, asked
        os.write(main, b"Cache the token table\r")
        rest = _read_until(main, b"created task t")
        assert proc.wait(timeout=30) == 0, rest
    finally:
        proc.kill() if proc.poll() is None else None
        os.close(main)
    assert engine.load("t").description == "Cache the token table"


def test_a_second_round_run_of_the_same_task_is_refused(cli, engine, ollama):
    server = ollama(answer())
    create(cli)
    lock = engine.config.task_dir("t") / "round.lock"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(lock)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        before = snapshot(engine)
        r = cli("round", "run", "t")
        assert r.code == 1
        assert "a round of 't' is already running in another process" in r.err
        assert snapshot(engine) == before and server.turns == []
    finally:
        holder.communicate("")
    assert run(cli)["outcome"] == "converged"


def test_another_sessions_loop_is_not_run_and_synthesis_is_final(cli, engine, ollama):
    server = ollama(answer())
    create(cli)
    assert cli("claim", "t", env={"TASKPROTO_SESSION": "s1"}).code == 0
    before = snapshot(engine)
    r = cli("round", "run", "t", env={"TASKPROTO_SESSION": "s2"})
    assert r.code == 1 and "is owned by session s1" in r.err
    assert snapshot(engine) == before and server.turns == []
    assert cli("round", "run", "t", env={"TASKPROTO_SESSION": "s1"}).code == 0
    r = cli("round", "run", "t", env={"TASKPROTO_SESSION": "s1"})
    assert r.code == 1 and "is in SYNTHESIS: the loop has ended (converged)" in r.err


def test_a_round_in_review_without_answers_is_left_to_round_decide(cli, engine, ollama):
    ollama(Text("unused"))
    create(cli)
    assert cli("round", "review", "t").code == 0
    r = cli("round", "run", "t")
    assert r.code == 1 and "decide it with `taskproto round decide t --rubric ...`" in r.err


def test_answers_of_a_round_the_task_left_meanwhile_are_not_recorded(cli, engine, ollama, repo):
    server = ollama(Hang(), answer())
    create(cli)
    # `round run` as a real, separate process; the backend hangs until its deadline.
    runner = subprocess.Popen(
        [sys.executable, "-m", "taskproto", "round", "run", "t", "--timeout", "3"],
        cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 20
    while not server.turns and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.turns, "round run never called the backend"
    assert cli("round", "review", "t").code == 0  # the user moves the round on by hand
    out, err = runner.communicate(timeout=60)
    assert runner.returncode == 1, (out, err)
    assert "moved on while the backends ran (now REVIEW, round 1)" in err
    task = engine.load("t")
    assert task.state == "REVIEW" and "calls" not in task.context["round_state"]
    assert [e.trigger for e in task.transition_log] == ["create", "review"]


def test_a_payload_over_a_cap_is_refused_before_any_call(cli, engine, ollama):
    server = ollama(answer())
    create(cli)
    worktree = engine.config.task_worktree("t")
    (worktree / "README.md").write_text("".join(f"line {i:06d}\n" for i in range(25_000)))
    before = snapshot(engine)
    r = cli("round", "run", "t")
    assert r.code == 1 and "relay payload of t refused: diff is" in r.err
    assert "over the 300 KB diff cap" in r.err
    assert server.turns == [] and snapshot(engine) == before


def test_the_lead_grades_the_round_not_the_backend_its_own_answer(cli, engine, ollama):
    """Issue #39: the backend passes its own answer on every item; the lead's review, one more
    call over all the round's answers, finds a critical risk: the round does not converge."""
    server = ollama(
        answer(do="Cache the token table globally."),
        answer(risks="fail - the global cache is shared between threads"),
        answer(),
        answer(),
    )
    create(cli, rounds=2)
    data = run(cli, "--once")
    assert data["rounds"][0]["rubric"]["risks"] == "fail"
    task = engine.load("t")
    assert task.state == "DO" and task.counters.round == 2
    review = server.turns[1].body["prompt"]
    assert "# How to review" in review and "## Answer of ollama" in review
    assert "Cache the token table globally." in review
    note = next(e.note for e in reversed(task.transition_log) if e.trigger == "decide")
    assert note is not None and note.startswith("rubric by the lead (ollama) over the answers")
    assert "the global cache is shared between threads" in note

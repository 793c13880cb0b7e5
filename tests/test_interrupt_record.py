"""Recording interruptions: the state never moves; only a resumption resumes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from taskproto.engine import Engine
from taskproto.ops.interrupts import record
from taskproto.state.models import AgentState


def at_state(engine: Engine, state: str, agents: tuple[str, ...] = ("architect",)) -> str:
    engine.create_task("t1", list(agents))
    path = ["CLASSIFIED", "REQUIREMENTS", "SYNTHESIS", "IMPLEMENTATION", "VALIDATION", "REVIEW"]
    for s in path:
        if engine.load("t1").state == state:
            break
        if s == "IMPLEMENTATION":
            engine.approve("t1", "plan", "user")
        if s == "VALIDATION":
            for a in agents:
                engine.set_agent_status("t1", a, AgentState.COMPLETE)
        engine.fire("t1", target=s)
    assert engine.load("t1").state == state
    return "t1"


def test_seed_example_1_question_audit_question_resume(engine: Engine) -> None:
    at_state(engine, "IMPLEMENTATION")
    expected = ["QUESTION", "AUDIT", "QUESTION", "RESUMPTION"]
    messages = [
        "What architecture pattern are you using?",
        "/audit-session",
        "Can you explain why you chose that pattern?",
        "Continue working",
    ]
    for text, want in zip(messages, expected, strict=True):
        rec = record(engine, "t1", text)
        assert rec.classification.type == want
        assert engine.load("t1").state == "IMPLEMENTATION"
    assert rec.resume is not None and "IMPLEMENTATION" in rec.resume and "architect" in rec.resume
    assert [i.type for i in engine.load("t1").interruptions] == expected
    assert all(i.state == "IMPLEMENTATION" for i in engine.load("t1").interruptions)


def test_seed_example_2_status_audit_resume_in_review(engine: Engine) -> None:
    at_state(engine, "REVIEW")
    types = [
        record(engine, "t1", t).classification.type
        for t in [
            "Where are we in the process?",
            "Run audit to verify everything is correct",
            "Proceed with review",
        ]
    ]
    assert types == ["STATUS_REQUEST", "AUDIT", "RESUMPTION"]
    assert engine.load("t1").state == "REVIEW"


def test_seed_example_3_four_questions_then_resume_in_synthesis(engine: Engine) -> None:
    at_state(engine, "SYNTHESIS")
    for q in [
        "How will you handle error cases?",
        "What about thread safety?",
        "Will this work with existing code?",
        "Can you explain the testing strategy?",
    ]:
        rec = record(engine, "t1", q)
        assert rec.classification.type == "QUESTION" and not rec.approval_like
    rec = record(engine, "t1", "Continue with the implementation plan")
    assert rec.classification.type == "RESUMPTION"
    assert "re-present the plan" in (rec.resume or "")
    assert engine.load("t1").state == "SYNTHESIS"


def test_checkpoint_approval_like_is_reported_never_recorded(engine: Engine, cli) -> None:
    at_state(engine, "SYNTHESIS")
    rec = record(engine, "t1", "Looks good, proceed with implementation")
    assert rec.approval_like
    task = engine.load("t1")
    assert task.state == "SYNTHESIS" and task.checkpoint.plan_approval is None
    r = cli("interrupt", "record", "t1", "lgtm, approved", "--json")
    data = json.loads(r.out)
    assert data["approval_like"] and data["state"] == "SYNTHESIS" and data["state_unchanged"]
    r = cli("interrupt", "record", "t1", "lgtm, approved")
    assert "taskproto approve t1 --plan" in r.out


@pytest.mark.parametrize(
    ("text", "approval"),
    [
        ("passt, freigegeben", True),
        ("承認します", True),
        ("c'est validé", True),
        ("noch nicht freigegeben", False),
        ("まだ承認しません", False),
    ],
)
def test_checkpoint_approval_in_other_languages_is_reported(
    engine: Engine, cli, text: str, approval: bool
) -> None:
    at_state(engine, "SYNTHESIS")
    data = json.loads(cli("interrupt", "record", "t1", text, "--json").out)
    assert data["approval_like"] is approval and data["state"] == "SYNTHESIS"
    assert engine.load("t1").checkpoint.plan_approval is None  # reported, never recorded
    if approval:
        assert "taskproto approve t1 --plan" in cli("interrupt", "record", "t1", text).out


def test_cli_classify_stdin_one_answer_per_line(
    cli, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    lines = (
        "Continue.\nDon't continue yet — how does the rollback work?\nPlease don't continue "
        "yet.\n/audit-session\n"
    )
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(lines.encode())))
    r = cli("interrupt", "classify", "-")
    assert r.out.split() == ["RESUMPTION", "QUESTION", "OTHER", "AUDIT"]


@pytest.mark.parametrize(
    "text",
    ["", "   \n\t", "x" * 1_000_000, "\x00\x01\x1b[31mred\x7f", "caf\udcff"],
    ids=["empty", "whitespace", "1MB", "control", "surrogate"],
)
def test_malformed_messages_answered_without_crash(engine: Engine, text: str) -> None:
    engine.create_task("t1")
    rec = record(engine, "t1", text)
    assert rec.classification.type in {"RESUMPTION", "AUDIT", "QUESTION", "STATUS_REQUEST", "OTHER"}
    assert engine.load("t1").state == "INIT"


def test_invalid_utf8_through_the_cli(repo: Path, engine: Engine) -> None:
    engine.create_task("t1")
    proc = subprocess.run(
        [sys.executable, "-m", "taskproto", "interrupt", "record", "t1", "-", "--json"],
        cwd=repo,
        input=b"\xff\xfe continue \xc3",
        capture_output=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["state"] == "INIT"


RECORDER = """
import sys, time
from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.ops.interrupts import record
start, n, me = float(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
engine = Engine(load_config())
while time.time() < start:
    time.sleep(0.001)
msgs = ["what is this?", "status?", "/audit-session", "nice work", "keep going"]
for i in range(n):
    record(engine, "t1", f"{msgs[i % 5]} ({me}-{i})", session=me)
"""


def test_thousand_interruptions_from_several_processes(engine: Engine, repo: Path) -> None:
    at_state(engine, "IMPLEMENTATION")
    start = str(time.time() + 1.5)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", RECORDER, start, "250", f"p{i}"],
            cwd=repo,
            env=dict(os.environ),
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(4)
    ]
    for p in procs:
        assert p.wait(timeout=600) == 0, p.stderr.read()  # type: ignore[union-attr]
    task = engine.load("t1")
    assert task.state == "IMPLEMENTATION"
    assert task.interruption_count == 1000
    every = engine.whole_log("t1")[1]  # task.json holds the tail: the journal has them all
    for i in range(4):
        mine = [x.text for x in every if x.session == f"p{i}"]
        assert len(mine) == 250 and mine == sorted(
            mine, key=lambda t: int(t.rsplit("-", 1)[1].rstrip(")"))
        )
    counts = {t: sum(1 for x in every if x.type == t) for t in {x.type for x in every}}
    assert counts["RESUMPTION"] == 200 and counts["AUDIT"] == 200


@pytest.mark.parametrize("text", ["", "  \n"])
def test_an_empty_message_is_refused_and_nothing_is_recorded(engine: Engine, cli, text) -> None:  # type: ignore[no-untyped-def]
    at_state(engine, "IMPLEMENTATION")
    before = engine.load("t1").revision
    r = cli("interrupt", "record", "t1", text)
    assert r.code == 1 and r.out == ""
    assert r.err == (
        "taskproto: the message is empty: nothing was recorded on task 't1'; pass the user's "
        "words as TEXT (or '-' to read them from stdin)\n"
    )
    task = engine.load("t1")
    assert task.revision == before and task.interruptions == [] and task.paused_by() is None


def test_resume_with_nothing_to_resume_is_refused_and_writes_nothing(
    engine: Engine, cli: Any, repo: Path
) -> None:
    """`taskproto resume` uses the board's rule: no open interruption or escalation, nothing to
    resume: exit 1, one line with what to do, task.json and its journal untouched."""
    at_state(engine, "IMPLEMENTATION")
    before = (engine.load("t1").revision, engine.load("t1").interruptions)
    r = cli("resume", "t1")
    assert r.code == 1, r
    assert r.out == ""
    lines = r.err.strip().splitlines()
    assert len(lines) == 1
    assert "no open interruption or escalation" in lines[0]
    assert "taskproto next t1" in lines[0]
    assert (engine.load("t1").revision, engine.load("t1").interruptions) == before
    # after a real interruption it resumes, once
    record(engine, "t1", "What pattern are you using?")
    assert cli("resume", "t1").code == 0
    assert engine.load("t1").interruptions[-1].type == "RESUMPTION"
    assert cli("resume", "t1").code == 1

"""Approvals carry the approving process's context (issue #39): a terminal or not, its ancestry's
command names, the client variables seen; doctor flags an approval recorded as the owner's session
by a process with no terminal (a detached `setsid -f env -i ...`)."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from taskproto.config import load_config
from taskproto.doctor import run
from taskproto.engine import Engine
from tests.hooks.agents.conftest import move_to

needs_tools = pytest.mark.skipif(
    not (shutil.which("setsid") and shutil.which("script")), reason="setsid and script needed"
)


def _approve_argv() -> list[str]:
    return [sys.executable, "-m", "taskproto", "approve", "t1", "--plan"]


def _findings(repo: Path) -> list[str]:
    report = run(load_config(repo), ())
    return [f.message for f in report.findings if f.check == "approval-no-terminal"]


@needs_tools
def test_a_detached_approval_as_the_owners_session_is_flagged(engine: Engine, repo: Path) -> None:
    engine.create_task("t1", ["dev"], description="the widget")
    engine.claim("t1", "agent-s1")
    move_to(engine, "t1", "SYNTHESIS")
    env = {"PATH": os.environ["PATH"], "TASKPROTO_SESSION": "agent-s1"}
    env |= {k: v for k, v in os.environ.items() if k.startswith(("PYTHON", "TASKPROTO_IGNORE"))}
    # `setsid -w env -i ...`: a new session, no terminal, a clean environment
    proc = subprocess.run(
        ["setsid", "-w", "env", "-i", *(f"{k}={v}" for k, v in env.items()), *_approve_argv()],
        cwd=repo,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    seen = engine.load("t1").checkpoint.plan_approval.seen  # type: ignore[union-attr]
    assert seen is not None and seen.terminal is False
    assert seen.processes[0].startswith("python") and seen.variables == ["TASKPROTO_SESSION"]
    (message,) = _findings(repo)
    assert "owner's session agent-s1 by a process with no terminal" in message
    assert "taskproto rollback t1" in message


def _detached_approval(repo: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """`argv` (default: the plan approval) as the owner's session agent-s1 from a process with no
    terminal and a clean environment (`setsid -w env -i ...`)."""
    env = {"PATH": os.environ["PATH"], "TASKPROTO_SESSION": "agent-s1"}
    env |= {k: v for k, v in os.environ.items() if k.startswith(("PYTHON", "TASKPROTO_IGNORE"))}
    return subprocess.run(
        ["setsid", "-w", "env", "-i", *(f"{k}={v}" for k, v in env.items()), *argv],
        cwd=repo,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
        check=False,
    )


@needs_tools
def test_an_approval_the_user_keeps_with_ack_is_no_longer_named(engine: Engine, repo: Path) -> None:
    """Before: the finding offered "keep it" with no command, so doctor named it on every run."""
    from tests.conftest import run_taskproto

    engine.create_task("t1", ["dev"], description="the widget")
    engine.claim("t1", "agent-s1")
    move_to(engine, "t1", "SYNTHESIS")
    assert _detached_approval(repo, *_approve_argv()).returncode == 0
    (message,) = _findings(repo)
    assert message.endswith(
        "if you did, keep it with `taskproto ack t1` and doctor no longer names it"
    )
    shown = run_taskproto("doctor", cwd=repo)
    assert "taskproto ack t1" in shown.out + shown.err
    offered = run_taskproto("recover", "t1", "--option", "2", "--dry-run", cwd=repo)
    assert offered.code == 0 and "taskproto ack t1" in offered.out, offered.out + offered.err
    revision = engine.load("t1").revision
    done = run_taskproto("ack", "t1", "--json", cwd=repo)
    assert done.code == 0, done.err
    assert json.loads(done.out)["kept_approvals"] == [
        f"plan@{engine.load('t1').checkpoint.plan_approval.at.isoformat()}"  # type: ignore[union-attr]
    ]
    task = engine.load("t1")
    assert task.revision == revision + 1 and task.state == "SYNTHESIS"
    assert task.transition_log[-1].trigger == "ack"
    assert _findings(repo) == []
    assert run_taskproto("doctor", cwd=repo).code == 0
    again = run_taskproto("ack", "t1", cwd=repo)  # kept already: nothing more to acknowledge
    assert again.code == 1 and "nothing to acknowledge" in again.err


@needs_tools
def test_an_approval_typed_in_a_terminal_is_not_flagged(engine: Engine, repo: Path) -> None:
    engine.create_task("t1", ["dev"], description="the widget")
    engine.claim("t1", "agent-s1")
    move_to(engine, "t1", "SYNTHESIS")
    command = shlex.join(_approve_argv())
    proc = subprocess.run(
        ["script", "-qec", command, "/dev/null"],
        cwd=repo,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "TASKPROTO_SESSION": "agent-s1"},
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    seen = engine.load("t1").checkpoint.plan_approval.seen  # type: ignore[union-attr]
    assert seen is not None and seen.terminal is True
    assert _findings(repo) == []


def test_migrate_down_leaves_the_approvers_context_out(engine: Engine, repo: Path) -> None:
    """Schema 1 (what an older taskproto reads, `migrate --down`) has no `seen`."""
    import json

    from tests.conftest import run_taskproto

    engine.create_task("t1", ["dev"], description="the widget")
    move_to(engine, "t1", "SYNTHESIS")
    assert run_taskproto("approve", "t1", "--plan", cwd=repo).code == 0
    assert engine.load("t1").checkpoint.plan_approval.seen is not None  # type: ignore[union-attr]
    assert run_taskproto("migrate", "--down", cwd=repo).code == 0
    data = json.loads(engine.config.task_file("t1").read_text())
    assert data["schema_version"] == 1 and "seen" not in data["checkpoint"]["plan_approval"]
    assert _findings(repo) == []

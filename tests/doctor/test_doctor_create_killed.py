"""`task create` killed with SIGKILL at several instants, on a real repository: doctor finishes the
task with every agent asked for, or `task abort` undoes it whole. Never a task with fewer agents."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from doctor_helpers import make_repo

from taskproto.config import load_config
from taskproto.doctor import run
from taskproto.engine import Engine
from taskproto.state import journal

SHIM = """#!/bin/sh
case "$*" in
*"{pattern}"*)
    n=$(cat "{count}" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > "{count}"
    if [ "$n" = "{stop_at}" ]; then touch "{ready}"; sleep 120; fi ;;
esac
exec "{real}" "$@"
"""

# (git command the create is stopped before, which occurrence): the task folder and intent only;
# the task branch made; the task and agent a made; every worktree, status and task.json, no journal.
INSTANTS = [
    ("worktree add", 1),
    ("worktree add", 2),
    ("worktree add", 3),
    ("refs/taskproto/tasks/t ", 1),
]


def _killed_create(tmp_path: Path, pattern: str, stop_at: int) -> Path:
    repo = make_repo(tmp_path / "repo")
    shim_dir = tmp_path / "shim"
    shim_dir.mkdir()
    ready = tmp_path / "ready"
    (shim_dir / "git").write_text(
        SHIM.format(
            pattern=pattern,
            count=tmp_path / "count",
            stop_at=stop_at,
            ready=ready,
            real=shutil.which("git"),
        )
    )
    (shim_dir / "git").chmod(0o755)
    if pattern.startswith("refs/"):
        # taskproto moves its journal ref in-process unless a reference-transaction hook of
        # someone else's could see the update (git/reffiles.py): with one, git moves it, and the
        # shim can stop the create at that instant
        hook = repo / ".git" / "hooks" / "reference-transaction"
        hook.write_text("#!/bin/sh\ncat >/dev/null\n")
        hook.chmod(0o755)
    env = {**os.environ, "PATH": f"{shim_dir}{os.pathsep}{os.environ['PATH']}"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "taskproto", "task", "create", "t", "--agents", "a,b,c"],
        cwd=repo,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while not ready.exists():
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert time.monotonic() < deadline
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)  # kill -9 of the whole session, shim included
    proc.wait()
    return repo


@pytest.mark.parametrize(("pattern", "stop_at"), INSTANTS)
def test_doctor_finishes_a_killed_create_with_every_agent(
    tmp_path: Path, pattern: str, stop_at: int
) -> None:
    repo = _killed_create(tmp_path, pattern, stop_at)
    config = load_config(repo)
    found = run(config)
    assert [f.check for f in found.findings] == ["task-create-interrupted"]
    assert "a, b, c" in found.findings[0].message
    # a new create of the same name is refused, with both ways out
    again = subprocess.run(
        [sys.executable, "-m", "taskproto", "task", "create", "t", "--agents", "a"],
        cwd=repo,
        capture_output=True,
        text=True,
    )
    assert again.returncode == 1
    assert "doctor --fix" in again.stderr and "task abort t" in again.stderr
    fixed = run(load_config(repo), fix=True)
    assert fixed.healthy, [(f.check, f.message) for f in fixed.findings] + [
        x.error for x in fixed.fixes
    ]
    engine = Engine(load_config(repo))
    task = engine.load("t")
    assert task.required_agents == ["a", "b", "c"]
    for agent in ("a", "b", "c"):
        assert engine.repo.branch_exists(f"t-{agent}")
        assert (engine.config.agent_worktree("t", agent) / "README.md").exists()
        assert engine.agent_status("t", agent) is not None
    assert journal.head(engine.git, "t") is not None
    assert not (engine.config.task_dir("t") / "creating.json").exists()
    assert run(load_config(repo)).healthy


@pytest.mark.parametrize(("pattern", "stop_at"), [INSTANTS[0], INSTANTS[2], INSTANTS[3]])
def test_task_abort_undoes_a_killed_create_whole(
    tmp_path: Path, pattern: str, stop_at: int
) -> None:
    repo = _killed_create(tmp_path, pattern, stop_at)

    def tp(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "taskproto", *args], cwd=repo, capture_output=True, text=True
        )

    r = tp("task", "abort", "t")
    assert r.returncode == 0, r.stderr
    branches = subprocess.run(
        ["git", "branch", "--list", "t*"], cwd=repo, capture_output=True, text=True
    ).stdout
    assert branches.strip() == ""
    assert not (repo / ".taskproto" / "tasks" / "t").exists()
    assert run(load_config(repo)).healthy
    assert tp("task", "create", "t", "--agents", "a").returncode == 0


def test_task_abort_refuses_a_finished_task(repo: Path, engine: Engine, cli: object) -> None:
    engine.create_task("t", ["a"])
    r = cli("task", "abort", "t")  # type: ignore[operator]
    assert r.code == 1 and "task remove t" in r.err
    assert engine.load("t").required_agents == ["a"]


def test_a_create_still_running_is_left_alone(repo: Path, engine: Engine) -> None:
    import json

    from taskproto.sessions import hostname

    engine.create_task("u", ["x"])
    sleeper = subprocess.Popen(["sleep", "30"])
    try:
        intent = {"task": engine.load("u").model_dump(mode="json"), "pid": sleeper.pid}
        intent["host"] = hostname()
        (engine.config.task_dir("u") / "creating.json").write_text(json.dumps(intent))
        report = run(load_config(repo), fix=True)
        assert [f.check for f in report.findings] == ["task-being-created"]
        assert report.healthy and not report.fixes
        r = subprocess.run(
            [sys.executable, "-m", "taskproto", "task", "abort", "u"],
            cwd=repo,
            capture_output=True,
            text=True,
        )
        assert r.returncode == 1 and "being created right now" in r.stderr
        assert (engine.config.task_dir("u") / "creating.json").exists()
    finally:
        sleeper.kill()
        sleeper.wait()

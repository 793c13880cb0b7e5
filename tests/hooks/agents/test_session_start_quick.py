"""SessionStart of a session that owns no task is answered before the engine is imported
(start.quick_session_start), with the same text, warnings and CLAUDE_ENV_FILE as the engine's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from taskproto.config import load_config
from taskproto.engine import Engine
from tests.conftest import make_repo

from .conftest import move_to, payload

ENTRY = (
    "import json, os, sys\n"
    "from taskproto.hooks.agents.runner import run_agent_hook\n"
    "code, out, err = run_agent_hook(sys.argv[1], sys.argv[2], sys.stdin.buffer.read(),"
    " dict(os.environ), pid=int(sys.argv[3]))\n"
    "path = 'engine' if 'taskproto.engine' in sys.modules else 'quick'\n"
    "print(json.dumps([code, out, err, path]))\n"
)


def hook(
    repo: Path, client: str, data: bytes, quick: bool = True, **env: str
) -> tuple[int, str, str, str]:
    full_env = {**os.environ, **env, **({} if quick else {"TASKPROTO_QUICK": "0"})}
    proc = subprocess.run(
        [sys.executable, "-c", ENTRY, client, "SessionStart", str(os.getpid())],
        cwd=repo,
        env=full_env,
        input=data,
        capture_output=True,
        check=True,
    )
    code, out, err, path = json.loads(proc.stdout)
    return code, out, err, path


def both(repo: Path, client: str, data: bytes, env_file: Path | None = None) -> str:
    """Run the hook both ways; assert the same answer (and env file); which path answered."""
    extra = {"CLAUDE_ENV_FILE": str(env_file)} if env_file else {}
    quick = hook(repo, client, data, **extra)
    written = env_file.read_text() if env_file else None
    if env_file:
        env_file.unlink()
    engine = hook(repo, client, data, quick=False, **extra)
    assert engine[3] == "engine"
    assert quick[:3] == engine[:3]
    if env_file:
        assert written == env_file.read_text()
        env_file.unlink()
    return quick[3]


@pytest.fixture
def queue(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "queue")
    engine = Engine(load_config(repo))
    engine.create_task("old", [], None, "task-protocol", "the oldest", None)
    engine.create_task("urgent", [], None, "task-protocol", "", None, priority=0)
    engine.create_task("later", [], None, "task-protocol", "", None, after=["old"])
    engine.create_task("taken", [], None, "task-protocol", "", None)
    engine.claim("taken", "s-live", os.getpid())
    engine.create_task("done", [], None, "task-protocol", "", None)
    engine.claim("done", "s-done", os.getpid())
    move_to(engine, "done", "AWAITING_USER_APPROVAL")
    # the state tables are cached by any full command (here: the git hooks' path)
    from taskproto.hooks.flags import state_flags

    state_flags(engine.config.layout, "task-protocol")
    return repo


@pytest.mark.parametrize("client", ["claude", "codex", "gemini"])
def test_the_offer_is_the_engines_and_needs_no_engine(queue: Path, client: str) -> None:
    data = payload(client, "SessionStart", session_id="s-new", cwd=str(queue), source="startup")
    assert both(queue, client, data, queue.parent / "env-file") == "quick"
    out = hook(queue, client, data)[1]
    assert "Free tasks: urgent (INIT, priority 0); old (INIT): the oldest" in out
    assert "later waits for old (in INIT)" in out and "taken (INIT) is taken by live" in out


def test_the_engine_answers_what_the_quick_reads_leave_to_it(queue: Path) -> None:
    data = payload("claude", "SessionStart", session_id="s-live", cwd=str(queue), source="startup")
    assert both(queue, "claude", data) == "engine"  # it owns a task: resume it
    forged = queue / ".taskproto" / "tasks" / "old" / "task.json"
    forged.write_text(forged.read_text().replace('"INIT"', '"CLASSIFIED"'))
    data = payload("claude", "SessionStart", session_id="s-new", cwd=str(queue), source="startup")
    assert both(queue, "claude", data) == "engine"
    assert "old (unreadable: " in hook(queue, "claude", data)[1]
    clear = payload("claude", "SessionStart", session_id="s-x", cwd=str(queue), source="clear")
    assert hook(queue, "claude", clear)[3] == "engine"  # a /clear handover (it takes the claims)


def test_without_tasks_nothing_is_offered_and_the_env_file_is_still_written(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "bare-repo")
    env_file = tmp_path / "env"
    data = payload("claude", "SessionStart", session_id="s1", cwd=str(repo), source="startup")
    (repo / ".taskproto").mkdir()
    assert both(repo, "claude", data, env_file) == "quick"
    Engine(load_config(repo)).create_task("t", [], None, "task-protocol", "", None)
    # a built-in's state table ships with the package: no cache is needed
    assert both(repo, "claude", data, env_file) == "quick"
    assert not (repo / ".taskproto" / "cache" / "hook-flags.json").exists()

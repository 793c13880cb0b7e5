"""Who may use the board: the token, the Host, the Origin; and agents never get in."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from taskproto.engine import Engine
from taskproto.hooks.agents.runner import run_agent_hook
from tests.board.conftest import Events
from tests.conftest import run_taskproto

PATHS = [
    ("GET", "/"),
    ("GET", "/tasks/t1"),
    ("GET", "/partial/board"),
    ("GET", "/api/tasks"),
    ("GET", "/api/tasks/t1"),
    ("GET", "/static/board.js"),
    ("POST", "/api/tasks/t1/approve"),
    ("POST", "/api/tasks/t1/resume"),
    ("POST", "/api/doctor"),
    # the task controls (board/controls.py)
    ("POST", "/api/tasks"),
    ("POST", "/api/tasks/t1/claim"),
    ("POST", "/api/tasks/t1/release"),
    ("POST", "/api/tasks/t1/complete"),
    ("POST", "/api/tasks/t1/land"),
    ("POST", "/api/tasks/t1/remove"),
]
CONTROLS = [
    (path, {"name": "t2"} if path == "/api/tasks" else {"force": True}) for _, path in PATHS[-6:]
]


@pytest.fixture
def board(board_for: Any, repo: Path, engine: Engine) -> Any:
    engine.create_task("t1", ["dev"])
    engine.fire("t1", target="CLASSIFIED")
    engine.fire("t1", target="REQUIREMENTS")
    engine.fire("t1", target="SYNTHESIS")
    return board_for(repo, "--no-doctor")


def test_every_route_needs_the_token(board: Any, engine: Engine) -> None:
    before = engine.config.task_file("t1").read_bytes()
    for method, path in PATHS:
        body = {"kind": "plan"} if method == "POST" else None
        reply = board.request(method, path, body, token=False)
        assert reply.status == 401, (method, path, reply.status)
        assert reply.body.startswith(b"taskproto board: the board needs its token")
        wrong = board.request(
            method, path, body, token=False, headers={"Authorization": "Bearer nope"}
        )
        assert wrong.status == 401, (method, path)
        cookie = {"Cookie": f"taskproto_board_{board.port}=nope"}
        assert board.request(method, path, body, token=False, headers=cookie).status == 401
    events = Events(board, token=False)
    assert events.resp.status == 401
    events.close()
    assert engine.config.task_file("t1").read_bytes() == before


def test_the_token_in_a_header_works_for_scripts(board: Any, engine: Engine) -> None:
    assert board.get("/api/tasks").status == 200
    other = board.get("/api/tasks", headers={"X-Taskproto-Token": board.token}, token=False)
    assert other.status == 200
    approve = board.post("/api/tasks/t1/approve", {"kind": "plan"})
    assert approve.status == 200, approve.body
    assert engine.load("t1").checkpoint.plan_approval is not None


def test_the_url_sets_a_strict_cookie_and_drops_the_token(board: Any) -> None:
    reply = board.get(f"/?token={board.token}", token=False)
    assert reply.status == 303
    assert reply.headers["location"] == "/"
    cookie = reply.headers["set-cookie"]
    assert cookie.startswith(f"taskproto_board_{board.port}={board.token}")
    for flag in ("HttpOnly", "SameSite=Strict", "Path=/"):
        assert flag in cookie
    page = board.get("/", token=False, headers={"Cookie": cookie.split(";")[0]})
    assert page.status == 200
    assert b"taskproto board" in page.body
    assert board.token.encode() not in page.body  # the page never shows it
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert page.headers["x-frame-options"] == "DENY"
    assert board.get("/?token=wrong", token=False).status == 401


def test_a_foreign_host_is_refused_even_with_the_token(board: Any) -> None:
    for host in ("evil.example", f"evil.example:{board.port}", "127.0.0.1:1", "localhost"):
        reply = board.get("/api/tasks", headers={"Host": host})
        assert reply.status == 403, host
        assert b"foreign Host" in reply.body
    assert board.get("/api/tasks", headers={"Host": f"localhost:{board.port}"}).status == 200


def test_a_foreign_origin_is_refused(board: Any, engine: Engine) -> None:
    before = engine.config.task_file("t1").read_bytes()
    cookie = {"Cookie": f"taskproto_board_{board.port}={board.token}"}
    for origin in ("http://evil.example", f"http://localhost:{board.port + 1}", "null"):
        for extra, token in (({}, True), (cookie, False)):
            reply = board.post(
                "/api/tasks/t1/approve",
                {"kind": "plan"},
                headers={"Origin": origin, **extra},
                token=token,
            )
            assert reply.status == 403, (origin, extra)
            assert b"foreign Origin" in reply.body
    cross = board.post(
        "/api/tasks/t1/approve", {"kind": "plan"}, headers={"Sec-Fetch-Site": "cross-site"}
    )
    assert cross.status == 403
    # a cookie alone (no Origin) cannot write: browsers always send Origin on a same-origin POST
    bare = board.post("/api/tasks/t1/approve", {"kind": "plan"}, headers=cookie, token=False)
    assert bare.status == 403
    assert engine.config.task_file("t1").read_bytes() == before
    own = board.post(
        "/api/tasks/t1/approve",
        {"kind": "plan"},
        headers={"Origin": f"http://127.0.0.1:{board.port}", **cookie},
        token=False,
    )
    assert own.status == 200, own.body


def test_the_controls_refuse_a_foreign_origin_and_a_cookie_without_origin(
    board: Any, engine: Engine
) -> None:
    before = engine.config.task_file("t1").read_bytes()
    cookie = {"Cookie": f"taskproto_board_{board.port}={board.token}"}
    for path, body in CONTROLS:
        foreign = board.post(path, body, headers={"Origin": "http://evil.example"})
        assert foreign.status == 403, path
        bare = board.post(path, body, headers=cookie, token=False)
        assert bare.status == 403, path
    assert engine.config.task_file("t1").read_bytes() == before
    assert engine.task_names() == ["t1"]
    own = board.post(
        "/api/tasks/t1/claim",
        {},
        headers={"Origin": f"http://127.0.0.1:{board.port}", **cookie},
        token=False,
    )
    assert own.status == 200, own.body


def test_the_token_is_written_nowhere(board: Any, repo: Path, engine: Engine) -> None:
    board.post("/api/tasks/t1/approve", {"kind": "plan"})
    needle = board.token.encode()
    homes = [Path(os.environ["HOME"]), repo]
    for top in homes:
        for path in top.rglob("*"):
            if path.is_file() and not path.is_symlink():
                assert needle not in path.read_bytes(), path
    refs = subprocess.run(
        ["git", "log", "--all", "-p", "--format=%B"], cwd=repo, capture_output=True, check=True
    ).stdout
    assert needle not in refs


def test_agents_cannot_start_a_board(repo: Path, engine: Engine) -> None:
    engine.create_task("t1", [])
    for var in ("CLAUDECODE", "GEMINI_CLI"):
        result = run_taskproto("board", "--no-open", "--port", "0", cwd=repo, env={var: "1"})
        assert result.code == 1
        assert "inside an agent session" in result.err and result.err.count("\n") == 1
    # and the tool guard refuses the command to an agent, whatever the state
    wt = engine.config.task_worktree("t1")
    for command in ("taskproto board --no-open", "python3 -m taskproto -C .. board --port 0"):
        payload = {
            "session_id": "s1",
            "cwd": str(wt),
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
        }
        code, _, err = run_agent_hook("claude", "PreToolUse", json.dumps(payload).encode(), {})
        assert code == 2, command
        assert "`taskproto board` serves the user's approvals" in err


def test_without_the_extra_it_says_how_to_install(repo: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "blocked" / "watchfiles"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text("raise ImportError('blocked', name='watchfiles')\n")
    env = {**os.environ, "PYTHONPATH": str(blocker.parent)}
    for args in (["board", "--no-open"], ["task", "list", "--watch"]):
        proc = subprocess.run(
            [sys.executable, "-m", "taskproto", *args],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
        assert proc.returncode == 1, proc.stderr
        assert proc.stderr.count("\n") == 1
        assert "pip install 'taskproto[board]'" in proc.stderr

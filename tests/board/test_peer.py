"""The board refuses a request whose loopback peer process descends from an agent client, even
with the token (a same-user process can read it from the board's memory), and records the
requester's context with an approval (issue #39). Linux: /proc/net/tcp, the socket's holder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from taskproto.engine import Engine

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/net/tcp"), reason="Linux /proc needed")

REQUEST = """
import http.client, json, sys
port, token = int(sys.argv[1]), sys.argv[2]
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
conn.request("POST", "/api/tasks/t1/approve", body=json.dumps({"kind": "plan"}),
             headers={"Host": f"127.0.0.1:{port}", "Authorization": f"Bearer {token}",
                      "Content-Type": "application/json"})
resp = conn.getresponse()
print(resp.status, resp.read().decode())
"""


@pytest.fixture
def board(board_for: Any, repo: Path, engine: Engine) -> Any:
    engine.create_task("t1", ["dev"])
    engine.fire("t1", target="CLASSIFIED")
    engine.fire("t1", target="REQUIREMENTS")
    engine.fire("t1", target="SYNTHESIS")
    return board_for(repo, "--no-doctor")


def _request(board: Any, tmp_path: Path, under: str | None) -> str:
    """POST an approval with the token from a python process, under a program named `under`."""
    argv = [sys.executable, "-c", REQUEST, str(board.port), board.token]
    if under is not None:
        client = tmp_path / under
        client.write_text('#!/bin/sh\n"$@"\n')  # stays the parent: the agent client's place
        client.chmod(0o755)
        argv = [str(client), *argv]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_a_request_from_under_an_agent_client_is_refused(
    board: Any, engine: Engine, tmp_path: Path
) -> None:
    before = engine.config.task_file("t1").read_bytes()
    out = _request(board, tmp_path, "claude")
    assert out.startswith("403 taskproto board: the request comes from a process under Claude Code")
    assert engine.config.task_file("t1").read_bytes() == before


def test_a_users_request_is_recorded_with_its_context(
    board: Any, engine: Engine, tmp_path: Path
) -> None:
    out = _request(board, tmp_path, "myscript")
    assert out.startswith("200 "), out
    seen = engine.load("t1").checkpoint.plan_approval.seen  # type: ignore[union-attr]
    assert seen is not None and seen.pid is not None
    assert "myscript" in seen.processes[:3] and seen.terminal is False

"""The board refuses a request whose loopback peer process descends from an agent client, even
with the token (a same-user process can read it from the board's memory), and records the
requester's context with an approval (issue #39). Linux: /proc/net/tcp, the socket's holder."""

from __future__ import annotations

import os
import socket
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


TWICE = """
import http.client, sys
port, token = int(sys.argv[1]), sys.argv[2]
for _ in range(2):  # two connections from one process: the second found among the recent peers
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/api/tasks", headers={"Host": f"127.0.0.1:{port}",
                                               "Authorization": f"Bearer {token}"})
    resp = conn.getresponse()
    print(resp.status, resp.read().decode()[:60])
    conn.close()
"""


def test_each_connection_of_a_process_is_judged_whoever_connected_before(
    board: Any, tmp_path: Path
) -> None:
    """The board looks first into the processes of the latest connections (peer.py `recent`):
    a process under an agent client is refused on every connection, and a user's process that
    connects after it is not taken for it."""
    client = tmp_path / "claude"
    client.write_text('#!/bin/sh\n"$@"\n')
    client.chmod(0o755)
    argv = [sys.executable, "-c", TWICE, str(board.port), board.token]
    under = subprocess.run([str(client), *argv], capture_output=True, text=True, timeout=60)
    assert [line[:3] for line in under.stdout.splitlines()] == ["403", "403"], under.stderr
    user = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert [line[:3] for line in user.stdout.splitlines()] == ["200", "200"], user.stderr
    again = subprocess.run([str(client), *argv], capture_output=True, text=True, timeout=60)
    assert [line[:3] for line in again.stdout.splitlines()] == ["403", "403"], again.stderr


def test_the_holder_of_a_socket_is_found_whichever_processes_are_tried_first() -> None:
    from taskproto.board.peer import diag_inode, holder, socket_inode, table_inode

    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    code = (
        f"import socket, time; s = socket.create_connection(('127.0.0.1', {port})); time.sleep(30)"
    )
    child = subprocess.Popen([sys.executable, "-c", code])
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        conn, peer = server.accept()
        inode = socket_inode(peer, ("127.0.0.1", port))
        assert inode is not None
        # the kernel asked for the one connection (sock_diag) says what /proc/net/tcp says
        assert diag_inode(peer, ("127.0.0.1", port)) == table_inode(peer, ("127.0.0.1", port))
        assert diag_inode(peer, ("127.0.0.1", port)) == inode
        assert diag_inode(("127.0.0.1", 1), ("127.0.0.1", 2)) is None  # no such connection
        assert holder(inode) == child.pid
        assert holder(inode, [child.pid]) == child.pid
        assert holder(inode, [other.pid, os.getpid()]) == child.pid  # not there: all are read
        conn.close()
    finally:
        for proc in (child, other):
            proc.kill()
            proc.wait()
        server.close()

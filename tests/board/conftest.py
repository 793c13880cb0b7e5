"""A real board: `taskproto board` started as a process on 127.0.0.1, talked to over HTTP."""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

URL = re.compile(r"http://127\.0\.0\.1:(\d+)/\?token=(\S+)")
# Chromium is cached under the real home, not the per-test one the autouse fixture sets up.
CHROMIUM_ENV = {
    "TASKPROTO_CHROMIUM_DIR": os.environ.get("TASKPROTO_CHROMIUM_DIR")
    or os.path.join(os.path.expanduser("~"), ".cache", "taskproto-chromium-153.0.0")
}


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Board:
    port: int
    token: str
    proc: subprocess.Popen[str]
    output: list[str] = field(default_factory=list)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
        token: bool = True,
    ) -> Reply:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        sent = {"Host": f"127.0.0.1:{self.port}", **(headers or {})}
        if token:
            sent.setdefault("Authorization", f"Bearer {self.token}")
        data = json.dumps(body).encode() if body is not None else None
        if data is not None:
            sent["Content-Type"] = "application/json"
        try:
            conn.request(method, path, body=data, headers=sent)
            resp = conn.getresponse()
            return Reply(resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read())
        finally:
            conn.close()

    def get(self, path: str, **kw: Any) -> Reply:
        return self.request("GET", path, **kw)

    def post(self, path: str, body: Any = None, **kw: Any) -> Reply:
        return self.request("POST", path, body if body is not None else {}, **kw)


def start_board(repo: Path, *extra: str, env: dict[str, str] | None = None) -> Board:
    proc = subprocess.Popen(
        [sys.executable, "-m", "taskproto", "board", "--port", "0", "--no-open", *extra],
        cwd=repo,
        env={**os.environ, **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    lines: list[str] = []
    found: list[re.Match[str]] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            match = URL.search(line)
            if match and not found:
                found.append(match)

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + 60
    while not found:
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError("the board did not start:\n" + "".join(lines))
        time.sleep(0.05)
    board = Board(int(found[0].group(1)), found[0].group(2), proc, lines)
    while True:  # the URL is printed before uvicorn accepts; wait until it answers
        try:
            board.get("/api/doctor")
            return board
        except OSError:
            if time.monotonic() > deadline:
                proc.kill()
                raise
            time.sleep(0.05)


def stop_board(board: Board) -> None:
    board.proc.terminate()
    try:
        board.proc.wait(10)
    except subprocess.TimeoutExpired:
        board.proc.kill()
        board.proc.wait(5)


@pytest.fixture
def board_for() -> Iterator[Any]:
    started: list[Board] = []

    def start(repo: Path, *extra: str, env: dict[str, str] | None = None) -> Board:
        board = start_board(repo, *extra, env=env)
        started.append(board)
        return board

    yield start
    for board in started:
        stop_board(board)


def wait_for(check: Any, timeout: float = 30.0, what: str = "the condition") -> Any:
    """Poll `check()` until it returns something truthy (generous: the machine is shared)."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


class Events:
    """Reads a board's event stream (server-sent events) on a thread."""

    def __init__(self, board: Board, token: bool = True) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", board.port, timeout=60)
        headers = {"Host": f"127.0.0.1:{board.port}", "Accept": "text/event-stream"}
        if token:
            headers["Authorization"] = f"Bearer {board.token}"
        self.conn.request("GET", "/events", headers=headers)
        self.resp = self.conn.getresponse()
        self.events: list[tuple[str, dict[str, Any]]] = []
        self.lock = threading.Lock()
        if self.resp.status == 200:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        kind, data = "message", ""
        try:
            for raw in self.resp:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: "):
                    data = line[6:]
                elif line == "":
                    if data:
                        with self.lock:
                            self.events.append((kind, json.loads(data)))
                    kind, data = "message", ""
        except (OSError, ValueError, AttributeError):
            return  # closed by the test (http.client drops its file on close)

    def of(self, kind: str) -> list[dict[str, Any]]:
        with self.lock:
            return [d for k, d in self.events if k == kind]

    def close(self) -> None:
        self.conn.close()


CHROME_ARGS = [
    "--no-sandbox",  # CI runs as root
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",  # no calls home on a closed network
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]


def chromium_path() -> str:
    """$CHROME_PATH, else the Chromium scripts/get_chromium.py fetches (once, then cached).

    A failure to fetch fails the test with the reason: the browser test must run, never skip.
    """
    explicit = os.environ.get("CHROME_PATH")
    if explicit:
        return explicit
    script = Path(__file__).resolve().parents[2] / "scripts" / "get_chromium.py"
    proc = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
        env={**os.environ, **CHROMIUM_ENV},
    )
    if proc.returncode != 0:
        pytest.fail(
            "headless Chromium is not available for the browser test: "
            f"{(proc.stderr or proc.stdout).strip()} (see docs/board.md: scripts/get_chromium.py "
            "fetches it from the npm registry; or set CHROME_PATH)",
            pytrace=False,
        )
    return proc.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")  # not the session's: playwright's event loop ends with the module,
def browser() -> Iterator[Any]:  # so a later test on this worker can run asyncio.run()
    from playwright.sync_api import sync_playwright

    exe = chromium_path()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, headless=True, args=CHROME_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    pg = context.new_page()
    yield pg
    context.close()

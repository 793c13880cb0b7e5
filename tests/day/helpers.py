"""What the day suite is made of: the repository a user sets up, the CLI run as each session runs
it, doctor after every step, live sessions renewing their claims while time passes, the board as
the browser talks to it, and the real agent clients in an agent's worktree."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.board.conftest import Board
from tests.clients.runners import (
    CLIENTS,
    ClientResult,
    find_client,
    missing_reason,
    write_codex_config,
)
from tests.clients.standin import Request, Turn
from tests.conftest import GIT_ENV, Result, git, run_taskproto

# Short enough that time passing is seconds of the test; long enough that on a busy two-core
# machine (CI runs the suite on every core) a round of heartbeats, one `taskproto heartbeat` per
# live task every quarter of the lease, always ends well within it.
LEASE_MINUTES = 0.15  # 9 seconds
LEASE_SECONDS = LEASE_MINUTES * 60


class Day:
    """One repository through one day. Every `step` ends with `taskproto doctor --json`, which
    must find nothing at all."""

    def __init__(self, repo: Path) -> None:
        self.repo = repo
        self.step_name = "setting up"
        self.pulse = Pulse(self)

    def tp(
        self,
        *args: str,
        session: str | None = None,
        cwd: Path | None = None,
        code: int = 0,
    ) -> Result:
        """`taskproto ARGS` as a subprocess, as `session` (None: the user's own command, which
        carries no session here), expected to exit with `code`."""
        result = run_taskproto(*args, cwd=cwd or self.repo, env=self.env(session))
        assert result.code == code, (
            f"[{self.step_name}] taskproto {' '.join(args)} (session {session}) exited "
            f"{result.code}, expected {code}\n--- stdout ---\n{result.out}\n--- stderr ---\n"
            f"{result.err}"
        )
        return result

    def lead(self, session: str, task: str, *args: str, code: int = 0) -> Result:
        """`taskproto ARGS` as the lead `session`, where a lead works: in the task's worktree."""
        return self.tp(*args, session=session, cwd=self.task_tree(task), code=code)

    def json(self, *args: str, session: str | None = None, code: int = 0) -> Any:
        return json.loads(self.tp(*args, "--json", session=session, code=code).out)

    @staticmethod
    def env(session: str | None) -> dict[str, str]:
        return {"TASKPROTO_SESSION": session} if session else {}

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        """A step of the day; afterwards doctor must say the repository is healthy."""
        self.step_name = name
        yield
        self.healthy()

    def healthy(self) -> None:
        result = run_taskproto("doctor", "--json", cwd=self.repo)
        report = json.loads(result.out)
        assert result.code == 0 and report["healthy"] and report["findings"] == [], (
            f"after [{self.step_name}] doctor found:\n{json.dumps(report['findings'], indent=2)}"
            f"\n{result.err}"
        )
        assert not self.pulse.failures, f"after [{self.step_name}]: {self.pulse.failures}"

    def git(self, *args: str, cwd: Path | None = None) -> str:
        return git(cwd or self.repo, *args)

    def task_tree(self, task: str) -> Path:
        return self.repo / ".taskproto" / "tasks" / task / "code"

    def agent_tree(self, task: str, agent: str) -> Path:
        return self.repo / ".taskproto" / "tasks" / task / "agents" / agent / "code"

    def commit(self, worktree: Path, files: dict[str, str], message: str) -> str:
        """An agent's commit in its worktree: plain git, the git hooks firing as they do."""
        for name, content in files.items():
            path = worktree / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content)
        git(worktree, "add", *files)
        git(worktree, "commit", "--quiet", "-m", message)
        return git(worktree, "rev-parse", "HEAD")

    def sleep_past_lease(self, since: float | None = None) -> None:
        """Until the lease has run out since `since` (a `time.monotonic()`; default: now)."""
        start = time.monotonic() if since is None else since
        time.sleep(max(0.0, start + LEASE_SECONDS + 1.5 - time.monotonic()))


class Pulse:
    """The sessions still alive renew their claims while time passes, every quarter of the lease,
    with `taskproto heartbeat` (what their clients' hooks do on every turn). A refused heartbeat is
    a failure of the day."""

    def __init__(self, day: Day) -> None:
        self.day = day
        self.live: dict[str, str] = {}  # task -> the session renewing it
        self.failures: list[str] = []
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, name="pulse", daemon=True)
        self.thread.start()

    def keep(self, session: str, task: str) -> None:
        with self.lock:
            self.live[task] = session

    def stop(self, task: str) -> None:
        """No heartbeat of `task` after this returns (one in flight is waited for)."""
        with self.lock:
            self.live.pop(task, None)

    def close(self) -> None:
        self.done.set()
        self.thread.join(timeout=30)

    def _run(self) -> None:
        while not self.done.wait(LEASE_SECONDS / 4):
            with self.lock:
                for task, session in self.live.items():
                    result = run_taskproto(
                        "heartbeat", task, cwd=self.day.repo, env=Day.env(session)
                    )
                    if result.code != 0:
                        self.failures.append(f"heartbeat {task} as {session}: {result.err.strip()}")


def require_clients(*names: str) -> None:
    """The day drives the real clients: missing ones skip it with the reason, as tests/clients do
    (.ci/install-clients.sh installs them wherever there is npm)."""
    for name in names:
        if find_client(name) is None:
            pytest.skip(missing_reason(name))


def run_client(
    client: str,
    cwd: Path,
    home: Path,
    script: Sequence[Turn],
    prompt: str,
    session: str | None = None,
) -> tuple[ClientResult, list[Request]]:
    """One headless run of the real client in `cwd` against a stand-in model answering `script`;
    the hooks that fire are the ones `taskproto init` installed in that worktree."""
    spec = CLIENTS[client]
    env = dict(GIT_ENV) | {"XDG_STATE_HOME": os.environ["XDG_STATE_HOME"]}
    with spec.server(list(script)) as server:
        if client == "claude":
            args: tuple[str, ...] = ("--permission-mode", "acceptEdits", "--allowedTools", "Bash")
            if session:
                args += ("--session-id", session)
            result = spec.run(prompt, cwd, server, home, args=args, env=env)
        elif client == "codex":
            write_codex_config(home / ".codex", server, trusted=[cwd])
            result = spec.run(prompt, cwd, server, home, env=env)
        else:
            result = spec.run(prompt, cwd, server, home, env=env)
        turns = server.turns
    assert result.returncode == 0, result.describe()
    return result, turns


def tool_outputs(turns: list[Request]) -> str:
    """What the model was told after its tool calls (the clients send it with the next turn)."""
    return "\n".join(json.dumps(t.body) for t in turns[1:])


class Browser:
    """The board's page as a browser holds it: the token traded for the cookie once, then every
    write with that cookie and the page's Origin."""

    def __init__(self, board: Board) -> None:
        self.board = board
        reply = board.get(f"/?token={board.token}", token=False)
        cookie = reply.headers.get("set-cookie", "")
        assert reply.status in (302, 303, 307) and cookie, (reply.status, reply.body[:300])
        self.cookie = cookie.split(";", 1)[0]

    def _headers(self) -> dict[str, str]:
        return {"Cookie": self.cookie, "Origin": self.board.base}

    def get(self, path: str) -> Any:
        reply = self.board.request("GET", path, headers=self._headers(), token=False)
        assert reply.status == 200, (path, reply.status, reply.body[:500])
        return reply.json()

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        reply = self.board.request("POST", path, body, headers=self._headers(), token=False)
        return reply.status, reply.json()

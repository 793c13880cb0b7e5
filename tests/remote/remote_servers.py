"""Real servers on this machine only: a bare repository over file://, and git daemon on 127.0.0.1.

(Not a conftest.py: a second conftest module would shadow tests/conftest.py's helpers.)"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import forkrun
from tests.conftest import git, make_repo


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class GitDaemon:
    """`git daemon` serving `base` on 127.0.0.1 with push enabled; stopped by stop()."""

    def __init__(self, base: Path) -> None:
        self.port = free_port()
        self.proc = subprocess.Popen(
            [
                "git",
                "daemon",
                "--listen=127.0.0.1",
                f"--port={self.port}",
                f"--base-path={base}",
                "--export-all",
                "--enable=receive-pack",
                "--reuseaddr",
                "--informative-errors",
                str(base),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("git daemon did not start") from None
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def seed_server(base: Path, lease_minutes: float | None = None) -> Path:
    """A bare repository holding one commit with `.taskproto.toml` turning the remote on."""
    seed = make_repo(base / "seed")
    config = 'remote = "origin"\n' + (
        f"lease_minutes = {lease_minutes}\n" if lease_minutes is not None else ""
    )
    (seed / ".taskproto.toml").write_text(config)
    git(seed, "add", ".taskproto.toml")
    git(seed, "commit", "--quiet", "-m", "taskproto config")
    bare = base / "srv" / "project.git"
    bare.parent.mkdir(parents=True)
    git(base, "clone", "--quiet", "--bare", str(seed), str(bare))
    return bare


class Server:
    """Makes seeded servers of one transport; `unreachable` is a URL of that transport nobody
    answers."""

    def __init__(self, kind: str, base: Path) -> None:
        self.kind, self.base, self.daemons = kind, base, []  # type: tuple[str, Path, list[GitDaemon]]
        self.bare: Path | None = None

    def make(self, lease_minutes: float | None = None) -> str:
        self.bare = seed_server(self.base, lease_minutes)
        if self.kind == "file":
            return self.bare.as_uri()
        daemon = GitDaemon(self.bare.parent)
        self.daemons.append(daemon)
        return f"git://127.0.0.1:{daemon.port}/{self.bare.name}"

    @property
    def unreachable(self) -> str:
        if self.kind == "file":
            return (self.base / "no-such-server" / "project.git").as_uri()
        return f"git://127.0.0.1:{free_port()}/project.git"  # a port nothing listens on

    def stop(self) -> None:
        for daemon in self.daemons:
            daemon.stop()


def clone(url: str, path: Path) -> Path:
    git(path.parent, "clone", "--quiet", url, str(path))
    git(path, "config", "commit.gpgsign", "false")
    return path


@pytest.fixture(params=["file", "daemon"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """Seeded servers over file:// or git daemon on 127.0.0.1, stopped after the test (a test
    module imports this fixture by name)."""
    srv = Server(request.param, tmp_path)
    yield srv
    srv.stop()


def tp(cwd: Path, *args: str, session: str | None = None) -> subprocess.CompletedProcess[str]:
    """`taskproto *args` in `cwd` as a process of its own, forked from an interpreter that has
    imported taskproto (tests/forkrun.py): what these tests check is what the commands do to the
    clones and the remote, and a fork spares each command Python's start and the imports."""
    env = {**os.environ, **({"TASKPROTO_SESSION": session} if session else {})}
    done = forkrun.run(list(args), cwd, env, timeout=120)
    return subprocess.CompletedProcess(
        ["taskproto", *args], done.returncode, done.stdout, done.stderr
    )


def ok(cwd: Path, *args: str, session: str | None = None) -> str:
    proc = tp(cwd, *args, session=session)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def race(
    racer: str, clones: list[Path], sessions: list[str], gate: Path, *args: str
) -> list[dict[str, object]]:
    """Start one `racer` script per clone (`python -c racer *args SESSION GATE`, it touches
    `GATE/ready-SESSION`, waits for `GATE/go`, prints one JSON line), let them all go at once,
    return each one's result."""
    gate.mkdir()
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", racer, *args, s, str(gate)],
            cwd=c,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for c, s in zip(clones, sessions, strict=True)
    ]
    deadline = time.monotonic() + 120
    while not all((gate / f"ready-{s}").exists() for s in sessions):
        assert all(p.poll() is None for p in procs), [p.communicate() for p in procs]
        assert time.monotonic() < deadline
        time.sleep(0.01)
    (gate / "go").touch()
    results = []
    for p in procs:
        out, err = p.communicate(timeout=180)
        assert p.returncode == 0, err
        results.append(json.loads(out.strip().splitlines()[-1]))
    return results


def remote_claim(bare: Path, task: str) -> dict[str, object] | None:
    proc = subprocess.run(
        ["git", "cat-file", "blob", f"refs/taskproto/claims/{task}:claim.json"],
        cwd=bare,
        capture_output=True,
        text=True,
        check=False,
    )
    return json.loads(proc.stdout) if proc.returncode == 0 else None

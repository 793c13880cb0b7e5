"""The installed agent hook script run both ways on a real repository: as installed, and with
TASKPROTO_HOOK_FASTPATH=0 (Python decides every run), through a recording interpreter."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from taskproto.clients.settings import SCRIPT
from taskproto.engine import Engine
from taskproto.hooks.agents import activity

from .conftest import payload

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))
from strace_exec import traced  # noqa: E402

OWNER, NOBODY = "owner-1", "nobody-1"


@dataclass
class Run:
    answer: tuple[int, str, str]
    started: bool
    stdin: bytes | None


@dataclass
class Fast:
    engine: Engine
    base: Path
    python: Path

    @property
    def root(self) -> Path:
        return self.engine.config.root

    def run(
        self,
        client: str,
        event: str,
        data: bytes,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
    ) -> Run:
        log, seen = self.base / "python-started", self.base / "python-stdin"
        log.unlink(missing_ok=True)
        seen.unlink(missing_ok=True)
        base_env = {
            k: v
            for k, v in os.environ.items()
            if k
            not in ("CLAUDE_PID", "CLAUDE_PROJECT_DIR", "GEMINI_CWD", "TASKPROTO_HOOK_FASTPATH")
        }
        proc = subprocess.run(
            ["/bin/sh", str(SCRIPT), str(self.python), client, event],
            input=data,
            capture_output=True,
            env={**base_env, **(env or {})},
            cwd=cwd or self.engine.config.repo,
            check=False,
            timeout=60,
        )
        answer = (proc.returncode, proc.stdout.decode(), proc.stderr.decode())
        return Run(answer, log.exists(), seen.read_bytes() if seen.exists() else None)

    def state(self, session: str) -> dict[str, object]:
        """What a hook may change: the session's activity record (less its time), every task.json
        and heartbeat.json."""
        found: dict[str, object] = {}
        record = activity.read_all(str(self.root)).get(session)  # sh's or Python's, the newer
        if record is not None:
            found["activity"] = {k: v for k, v in record.items() if k != "time"}
        for path in sorted(self.root.glob("tasks/*/*.json")):
            found[str(path.relative_to(self.root))] = path.read_bytes()
        return found

    def both(
        self,
        client: str,
        event: str,
        data: bytes,
        session: str,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
    ) -> Run:
        """Run as installed, then with Python deciding: they must agree. Returns the first run."""
        fast = self.run(client, event, data, env, cwd)
        after_fast = self.state(session)
        slow = self.run(client, event, data, {**(env or {}), "TASKPROTO_HOOK_FASTPATH": "0"}, cwd)
        assert slow.started, "with the fast path off, Python decides"
        assert fast.answer == slow.answer, f"sh and Python disagree on {client} {event}"
        if fast.started:
            assert fast.stdin == data, "Python must get the payload exactly as it came"
        else:
            assert self.state(session) == after_fast, f"Python would have acted on {event}"
        return fast


def make_fast(engine: Engine, tmp_path: Path) -> Fast:
    """t1 (agent a) owned by OWNER from this process; t2 free; a recording interpreter."""
    base = tmp_path / "fast"
    base.mkdir()
    python = base / "python"
    python.write_text(
        "#!/bin/sh\n"
        f": > {base / 'python-started'}\n"
        f"cat > {base / 'python-stdin'}\n"
        f'exec {sys.executable} "$@" < {base / "python-stdin"}\n'
    )
    python.chmod(0o755)
    engine.create_task("t1", ["a"], description="the widget")
    engine.create_task("t2")
    engine.claim("t1", OWNER, os.getpid())
    # the first event of a repository goes to Python, which makes the activity folder
    (engine.config.root / "activity").mkdir()
    return Fast(engine, base, python)


def sh_record(root: Path, session: str) -> Path:
    """The newest of `sh`'s activity records of `session` (`<session>.sh`, `<session>+<n>.sh`)."""
    folder = root / "activity"
    found = [folder / f"{session}{activity.SH}"]
    found += folder.glob(f"{session}+*{activity.SH}")
    return max((p for p in found if p.exists()), key=lambda p: p.stat().st_mtime_ns)


def stop(session: str, cwd: Path | str, client: str = "claude", **extra: object) -> bytes:
    event = {"claude": "Stop", "codex": "Stop", "gemini": "AfterAgent"}[client]
    return payload(client, event, session_id=session, cwd=str(cwd), **extra)


def line(**fields: object) -> bytes:
    return json.dumps(fields).encode() + b"\n"


def programs(event: str, data: bytes, trace: Path) -> list[str]:
    """The programs one run of the installed hook script starts (their names), with this process
    as the client."""
    argv = ["/bin/sh", str(SCRIPT), sys.executable, "claude", event]
    env = {**os.environ, "CLAUDE_PID": str(os.getpid())}  # the client is us, not strace
    return [os.path.basename(p) for p in traced(argv, trace, input=data, env=env)]

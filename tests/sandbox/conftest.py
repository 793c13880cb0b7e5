"""An agent in a sandbox: a repository with taskproto's hooks, task t (agents dev, qa) in
IMPLEMENTATION; skipped, saying why, where bubblewrap cannot run."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from taskproto.engine import Engine
from taskproto.git.command import Git
from taskproto.hooks.git import install
from tests.hooks.agents.conftest import move_to

SESSION = "s1"


def bwrap_problem() -> str | None:
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return "bubblewrap (bwrap) is not installed (Debian: apt-get install bubblewrap)"
    proc = subprocess.run(
        [
            bwrap,
            "--unshare-user",
            "--unshare-pid",
            "--ro-bind",
            "/",
            "/",
            "--proc",
            "/proc",
            "--",
            "true",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        return f"bwrap cannot make its namespaces here: {proc.stderr.strip()}"
    return None


needs_bwrap = pytest.mark.skipif((problem := bwrap_problem()) is not None, reason=problem or "")


@pytest.fixture
def sandboxed(engine: Engine, repo: Path) -> Engine:
    install.install(Git(repo))
    engine.create_task("t", ["dev", "qa"], description="sandboxed")
    engine.claim("t", SESSION)
    move_to(engine, "t", "IMPLEMENTATION")
    return engine

"""The throwaway worktrees of the merge queue's workers (ops/queue.py): `[land] checks` run in one
of the merged tree, and the ones killed workers left, swept."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from taskproto.engine import Engine
from taskproto.errors import GitError
from taskproto.sessions import pid_alive

OUTPUT_CHARS = 4000  # of the failing checks' output sent back to the agent
SCRATCH = "taskproto-queue-"  # the throwaway worktrees' folders: <tmp>/taskproto-queue-<pid>-...


def run_checks(engine: Engine, commit: str) -> str | None:
    """Run `[land] checks` in a throwaway worktree of `commit`; None when all pass, else the
    failing check's output (its tail, at most OUTPUT_CHARS)."""
    checks = (engine.config.raw.get("land") or {}).get("checks") or []
    if not isinstance(checks, list) or not checks:
        return None
    folder = Path(tempfile.mkdtemp(prefix=f"{SCRATCH}{os.getpid()}-"))
    tree = folder / "tree"
    engine.repo.run("worktree", "add", "--quiet", "--detach", str(tree), commit)
    try:
        for check in checks:
            proc = subprocess.run(
                ["sh", "-c", str(check)],  # a check is a command line, as [notify] command's
                cwd=tree,
                capture_output=True,
                text=True,
                errors="replace",
                check=False,
            )
            if proc.returncode != 0:
                out = (proc.stdout + proc.stderr).strip()
                return f"$ {check}  (exit {proc.returncode})\n{out[-OUTPUT_CHARS:]}"
        return None
    finally:
        engine.repo.run("worktree", "remove", "--force", str(tree))
        shutil.rmtree(folder, ignore_errors=True)


def sweep(engine: Engine) -> None:
    """Remove the throwaway worktrees of workers that were killed (their pid is gone), and their
    folders a kill left before git registered the worktree."""
    registered = {wt.path.parent.name for wt in engine.repo.worktrees()}
    scratch = tempfile.gettempdir()
    for name in os.listdir(scratch):
        pid = name[len(SCRATCH) :].split("-", 1)[0]
        if name.startswith(SCRATCH) and name not in registered and pid.isdigit():
            if not pid_alive(int(pid)):
                shutil.rmtree(os.path.join(scratch, name), ignore_errors=True)
    for wt in engine.repo.worktrees():
        folder = wt.path.parent.name
        if not folder.startswith(SCRATCH):
            continue
        pid = folder[len(SCRATCH) :].split("-", 1)[0]
        if not pid.isdigit() or pid_alive(int(pid)):
            continue
        # twice: a worktree killed while `worktree add` made it is still locked ("initializing")
        try:
            engine.repo.run("worktree", "remove", "--force", "--force", str(wt.path))
        except GitError:
            continue  # the killed worker's git may still be writing there: the next sweep
        shutil.rmtree(wt.path.parent, ignore_errors=True)

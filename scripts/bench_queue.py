"""The merge queue's throughput: tasks landed per minute, and git processes per land.

    python scripts/bench_queue.py [--tasks 20] [--workers 1] [--checks "true"]

Builds a bare repository (the shared remote, over file://) and a clone with `--tasks` approved
tasks (each one file of its own, so none conflicts), queued in that clone. Then `--workers` clones
run `taskproto queue run` at once, each through a `git` shim on PATH that counts the git processes
it starts. Prints the figures as a Markdown table for docs/performance.md, with the floor
`python -I -c pass` measured in the same run (the median of 10).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "b",
    "GIT_AUTHOR_EMAIL": "b@x",
    "GIT_COMMITTER_NAME": "b",
    "GIT_COMMITTER_EMAIL": "b@x",
    "TASKPROTO_NOTIFY_DETACH": "0",
}
ENV.pop("TASKPROTO_SESSION", None)
for agent_var in ("CLAUDECODE", "CODEX_SANDBOX", "GEMINI_CLI"):
    ENV.pop(agent_var, None)


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=True, env=ENV
    ).stdout.strip()


def approve_task(engine: object, name: str) -> None:
    """Create task `name`, commit one file on it and walk it to COMPLETE, approved."""
    from taskproto.engine import Engine

    assert isinstance(engine, Engine)
    engine.create_task(name, description=f"bench {name}")
    engine.claim(name, "bench")
    engine.next(name, "SYNTHESIS", "bench")
    engine.approve(name, "plan", "user")
    engine.next(name, "IMPLEMENTATION", "bench")
    tree = engine.config.task_worktree(name)
    (tree / f"{name}.txt").write_text(f"{name}\n")
    git(tree, "add", f"{name}.txt")
    git(tree, "commit", "-qm", name)
    engine.next(name, "AWAITING_USER_APPROVAL", "bench")
    engine.approve(name, "commit", "user")
    engine.next(name, "COMPLETE", "bench")


def floor() -> float:
    runs = []
    for _ in range(10):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-I", "-c", "pass"], check=True)
        runs.append(time.perf_counter() - start)
    return statistics.median(runs) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=20)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--checks", default="true", help="the one `[land] checks` command")
    args = parser.parse_args()
    os.environ.update(ENV)
    from taskproto.config import load_config
    from taskproto.engine import Engine
    from taskproto.ops import queue as queueing

    base = Path(tempfile.mkdtemp(prefix="bench-queue-"))
    try:
        seed = base / "seed"
        seed.mkdir()
        git(seed, "init", "-q", "--initial-branch=main")
        (seed / ".taskproto.toml").write_text(
            f'remote = "origin"\n[land]\nchecks = [{args.checks!r}]\n'.replace("'", '"')
        )
        git(seed, "add", ".")
        git(seed, "commit", "-qm", "seed")
        bare = base / "srv.git"
        git(base, "clone", "-q", "--bare", str(seed), str(bare))
        clones = [base / f"m{i}" for i in range(max(1, args.workers))]
        for c in clones:
            git(base, "clone", "-q", bare.as_uri(), str(c))
        engine = Engine(load_config(clones[0]))
        for i in range(args.tasks):
            approve_task(engine, f"b{i:03d}")
            queueing.add(engine, f"b{i:03d}", "user")
        shim = base / "shim"
        shim.mkdir()
        real = shutil.which("git")
        count = base / "git-calls"
        (shim / "git").write_text(f'#!/bin/sh\necho x >> "{count}"\nexec "{real}" "$@"\n')
        (shim / "git").chmod(0o755)
        env = {**ENV, "PATH": f"{shim}{os.pathsep}{ENV['PATH']}"}
        start = time.perf_counter()
        procs = [
            subprocess.Popen(
                [sys.executable, "-m", "taskproto", "queue", "run", "--json"],
                cwd=c,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for c in clones
        ]
        landed = 0
        for p in procs:
            out, err = p.communicate()
            if p.returncode != 0:
                raise SystemExit(f"queue run failed: {err}")
            import json

            landed += sum(1 for o in json.loads(out or "[]") if o["result"] == "landed")
        seconds = time.perf_counter() - start
        calls = len(count.read_text().splitlines()) if count.exists() else 0
        merges = git(bare, "rev-list", "--count", "--merges", "main")
        the_floor = floor()
        print(
            "| tasks | workers | landed | merges on main | seconds | landed per minute | "
            "git processes per land | `python -I -c pass` (ms) |"
        )
        print("|---:|---:|---:|---:|---:|---:|---:|---:|")
        print(
            f"| {args.tasks} | {len(clones)} | {landed} | {merges} | {seconds:.1f} | "
            f"{landed / seconds * 60:.1f} | {calls / max(landed, 1):.1f} | {the_floor:.1f} |"
        )
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()

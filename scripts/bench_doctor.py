"""Benchmark `taskproto doctor` on many tasks: wall time and peak memory, against the interpreter
floor.

    PYTHONPATH=. python scripts/bench_doctor.py [--tasks 1000] [--agents 2] [--runs 3]
    PYTHONPATH=. python scripts/bench_doctor.py --repo PATH [--runs 3]

Builds a real repository with N tasks (each with its branches, worktrees, status
files and journal; see bulk_tasks.py), then runs `taskproto doctor --json` as a
subprocess a few times and prints the best wall time and the peak RSS of the
doctor processes (getrusage RUSAGE_CHILDREN), plus `python -I -c pass` measured
the same way. Building 1,000 tasks takes minutes; `--repo` times a repository built
before (`--build PATH` builds one there and keeps it; doctor only reads a healthy one).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bulk_tasks import build_tasks

from taskproto.config import load_config

# Runs the command in a fresh process so RUSAGE_CHILDREN holds only that command (not the git
# processes that built the repository).
PEAK = (
    "import resource, subprocess, sys; p = subprocess.run(sys.argv[1:], capture_output=True); "
    "sys.stdout.buffer.write(p.stdout); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def git_processes(cmd: list[str], cwd: Path) -> int:
    """How many git processes one run of `cmd` starts (through a PATH shim that logs each)."""
    with tempfile.TemporaryDirectory() as tmp:
        log, shim = Path(tmp) / "calls", Path(tmp) / "git"
        real = shutil.which("git")
        shim.write_text(f'#!/bin/sh\necho x >> "{log}"\nexec "{real}" "$@"\n')
        shim.chmod(0o755)
        env = {**os.environ, "PATH": f"{tmp}{os.pathsep}{os.environ['PATH']}"}
        subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, check=False)
        return len(log.read_text().splitlines()) if log.exists() else 0


def timed(cmd: list[str], cwd: Path, runs: int) -> tuple[float, int, str]:
    """Best wall time (s), peak RSS (KiB) and the last stdout of `cmd`.

    The time is of `cmd` itself, started from this process (the floor is started the same way);
    the peak RSS comes from one more run inside a fresh wrapper process, kept out of the timing.
    """
    best, out = float("inf"), ""
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
        best = min(best, time.perf_counter() - start)
        out = proc.stdout
    proc = subprocess.run(
        [sys.executable, "-c", PEAK, *cmd], cwd=cwd, capture_output=True, text=True, check=False
    )
    _, _, rss = proc.stdout.rstrip("\n").rpartition("\n")
    return best, int(rss), out


def build(repo: Path, tasks: int, agents: int) -> float:
    """Build `tasks` tasks of `agents` agents in a new repository at `repo`; the seconds taken."""
    repo.mkdir()
    for cmd in (
        ["init", "-q", "-b", "main"],
        ["-c", "user.name=b", "-c", "user.email=b@localhost", "commit", "-q", "--allow-empty"]
        + ["-m", "init"],
    ):
        subprocess.run(["git", *cmd], cwd=repo, check=True)
    start = time.perf_counter()
    build_tasks(
        load_config(repo),
        [f"task{i:05d}" for i in range(tasks)],
        [f"agent{j}" for j in range(agents)],
    )
    return time.perf_counter() - start


def measure(repo: Path, runs: int) -> None:
    doctor = [sys.executable, "-m", "taskproto", "doctor", "--json"]
    floor, floor_rss, _ = timed([sys.executable, "-I", "-c", "pass"], repo, runs)
    wall, rss, out = timed(doctor, repo, runs)
    report = json.loads(out)
    gits = git_processes(doctor, repo)
    listing = subprocess.run(
        ["git", "worktree", "list", "--porcelain"], cwd=repo, capture_output=True, text=True
    ).stdout
    worktrees = sum(1 for line in listing.splitlines() if line.startswith("worktree "))
    print(f"{worktrees} worktrees (the main one included)")
    print(
        f"doctor --json: {wall * 1000:.0f} ms (best of {runs}), peak RSS {rss / 1024:.1f} MiB "
        f"(max over the doctor process and its git children), healthy={report['healthy']}, "
        f"tasks_checked={report['tasks_checked']}, git processes {gits}"
    )
    print(f"floor python -I -c pass: {floor * 1000:.0f} ms, peak RSS {floor_rss / 1024:.1f} MiB")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tasks", type=int, default=1000)
    parser.add_argument("--agents", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--repo", type=Path, help="time this repository (built before)")
    parser.add_argument("--build", type=Path, help="build the repository here and keep it")
    args = parser.parse_args()
    if args.repo is not None:
        measure(args.repo.absolute(), args.runs)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        repo = args.build.absolute() if args.build is not None else Path(tmp) / "repo"
        print(f"building {args.tasks} tasks...", flush=True)
        built = build(repo, args.tasks, args.agents)
        print(
            f"tasks: {args.tasks} with {args.agents} agents each "
            f"({args.tasks * (1 + args.agents)} worktrees), built in {built:.1f} s"
        )
        measure(repo, args.runs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

#!/usr/bin/env python3
"""Core command latency: median wall time of taskproto commands against the interpreter's floor.

Usage: python scripts/bench_core.py [--runs N] Prints one row per command: median ms, and the ratio
to `python -I -c pass` measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)


def median_ms(argv: list[str], cwd: Path, runs: int, env: dict[str, str]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(
            argv,
            cwd=cwd,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        repo.mkdir()
        env = {
            **os.environ,
            "GIT_AUTHOR_NAME": "b",
            "GIT_AUTHOR_EMAIL": "b@x",
            "GIT_COMMITTER_NAME": "b",
            "GIT_COMMITTER_EMAIL": "b@x",
            "TASKPROTO_SESSION": "bench",
        }
        for cmd in (
            ["git", "init", "-q", "-b", "main"],
            ["git", "commit", "-q", "--allow-empty", "-m", "i"],
        ):
            subprocess.run(cmd, cwd=repo, env=env, check=True)
        tp = [py, "-m", "taskproto"]
        subprocess.run(
            [*tp, "task", "create", "t1", "--agents", "a,b"],
            cwd=repo,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        subprocess.run(
            [*tp, "claim", "t1"], cwd=repo, env=env, check=True, stdout=subprocess.DEVNULL
        )
        rows = [
            ("python -I -c pass (floor)", [py, "-I", "-c", "pass"]),
            ("taskproto --version", [*tp, "--version"]),
            ("taskproto task show t1 --json", [*tp, "task", "show", "t1", "--json"]),
            ("taskproto heartbeat t1", [*tp, "heartbeat", "t1"]),
            (
                "taskproto interrupt classify 'keep going'",
                [*tp, "interrupt", "classify", "keep going"],
            ),
            (
                "taskproto interrupt record t1 'status?'",
                [*tp, "interrupt", "record", "t1", "status?"],
            ),
        ]
        floor = None
        print(f"{'command':<46} {'median ms':>10} {'x floor':>8}")
        for label, argv in rows:
            ms = median_ms(argv, repo, args.runs, env)
            floor = floor or ms
            print(f"{label:<46} {ms:>10.1f} {ms / floor:>8.1f}")
        # transitions alternate between two states so every run does the same work
        start = time.perf_counter()
        for s in ("CLASSIFIED", "REQUIREMENTS", "SYNTHESIS"):
            subprocess.run(
                [*tp, "transition", "t1", s],
                cwd=repo,
                env=env,
                check=True,
                stdout=subprocess.DEVNULL,
            )
        per = (time.perf_counter() - start) * 1000 / 3
        print(
            f"{'taskproto transition (lock+save+journal)':<46} {per:>10.1f} "
            f"{per / (floor or 1):>8.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Processes contending for task locks: lock waits (p50/p99) and operations per second.

Usage: python scripts/contention_bench.py [--procs 16] [--ops 200] [--tasks 1 50] [--poll 0.05
0.001] Runs each (tasks, poll interval) pair in a fresh repository, checks that every count is exact
(exits 1 if not), and prints one JSON summary per run plus the floor `python -I -c pass` measured in
the same run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "reliability"))

import contention


def floor_ms() -> float:
    start = time.perf_counter()
    for _ in range(5):
        subprocess.run([sys.executable, "-I", "-c", "pass"], check=True)
    return (time.perf_counter() - start) / 5 * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--procs", type=int, default=16)
    parser.add_argument("--ops", type=int, default=200)
    parser.add_argument("--tasks", type=int, nargs="+", default=[1, 50])
    parser.add_argument("--poll", type=float, nargs="+", default=[0.05, 0.001])
    args = parser.parse_args()
    print(json.dumps({"floor_python_I_c_pass_ms": round(floor_ms(), 1)}))
    failed = False
    for tasks in args.tasks:
        for poll in args.poll:
            with tempfile.TemporaryDirectory(prefix="taskproto-contention-") as tmp:
                repo, names = contention.setup(Path(tmp), tasks)
                report = contention.run(repo, names, args.procs, args.ops, seed=tasks, poll=poll)
            print(json.dumps(report.summary()), flush=True)
            failed = failed or bool(report.failures)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

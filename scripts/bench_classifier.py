"""Print the classifier's cost: import and first classify in a fresh process, then per message.

Usage: python scripts/bench_classifier.py [--runs N]

The hook runs in a fresh process each time, so the cold figures (import, and the first
classify, which compiles the rules it reaches) are the ones that matter for its budget.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "interruptions.tsv"

# Timed inside the child so interpreter start-up noise stays out of the figures.
_COLD = """
import sys, time
t0 = time.perf_counter()
import dataclasses
t1 = time.perf_counter()
from taskproto.classify.interruptions import classify
t2 = time.perf_counter()
classify(sys.argv[1])
t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2)
"""


def _messages() -> list[str]:
    lines = CORPUS.read_text(encoding="utf-8").splitlines()
    return [line.partition("\t")[2] for line in lines if line.strip() and not line.startswith("#")]


def _cold(message: str, runs: int) -> tuple[float, float, float]:
    samples: list[list[float]] = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", _COLD, message],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        samples.append([float(x) for x in out])
    columns = zip(*samples, strict=True)
    dataclasses_s, import_s, first_s = (statistics.median(column) for column in columns)
    return dataclasses_s, import_s, first_s


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark the interruption classifier.")
    parser.add_argument("--runs", type=int, default=21, help="fresh processes per cold figure")
    args = parser.parse_args(argv)

    sys.path.insert(0, str(ROOT))
    from taskproto.classify.interruptions import classify

    messages = _messages()
    for message in messages:  # warm: every rule compiled once
        classify(message)
    per_message: list[float] = []
    for message in messages:
        start = time.perf_counter()
        for _ in range(20):
            classify(message)
        per_message.append((time.perf_counter() - start) / 20)
    huge = "lorem ipsum " * 90_000 + "keep going"
    start = time.perf_counter()
    classify(huge)
    huge_s = time.perf_counter() - start

    print(
        f"python {sys.version.split()[0]}, {len(messages)} corpus messages, {args.runs} cold runs"
    )
    for message in ("continue", "nice work"):
        dataclasses_s, import_s, first_s = _cold(message, args.runs)
        print(
            f"cold {message!r:12}: import dataclasses {dataclasses_s * 1e3:5.2f} ms,"
            f" import taskproto.classify.interruptions {import_s * 1e3:5.2f} ms,"
            f" first classify {first_s * 1e3:5.2f} ms"
        )
    print(
        f"warm classify: median {statistics.median(per_message) * 1e6:6.1f} us,"
        f" max {max(per_message) * 1e6:6.1f} us per message"
    )
    print(f"warm classify of a {len(huge) / 1e6:.1f} MB message: {huge_s * 1e3:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Kill taskproto writers with SIGKILL at random instants and check what they leave.

Usage: python scripts/crash_test.py [--kills 500] [--seed 1] [--max-delay 0.25]
Prints the figures docs/reliability.md quotes; exits 1 if any kill left a bad state.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "reliability"))

import crash_harness


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-delay", type=float, default=0.25)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="taskproto-crash-") as tmp:
        report = crash_harness.run(Path(tmp), args.kills, seed=args.seed, max_delay=args.max_delay)
    print(json.dumps(report.summary(), indent=2))
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())

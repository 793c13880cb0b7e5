"""What importing a module costs a fresh interpreter, against the floor measured the same way.

    python scripts/bench_import.py jinja2 [--already typing,hashlib,json] [--runs 41]

Three commands are run in turn, each `--runs` times, by this process through `subprocess` with no
wrapper: the floor `python -I -c pass`, `python -I -c "import <already>"` (what the caller has
imported anyway), and the same followed by `import <module>`. Prints the medians and what the
module adds, in ms and as a multiple of the floor.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module")
    parser.add_argument(
        "--already",
        default="typing,hashlib,json,datetime,re,pathlib",
        help="modules imported before it (comma-separated): they are not counted",
    )
    parser.add_argument("--runs", type=int, default=41)
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args()
    before = (
        "import " + ", ".join(m for m in args.already.split(",") if m) if args.already else "pass"
    )
    cases = {
        "floor": [args.python, "-I", "-c", "pass"],
        "already": [args.python, "-I", "-c", before],
        "module": [args.python, "-I", "-c", f"{before}; import {args.module}"],
    }
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.runs):
        for name, cmd in cases.items():
            start = time.perf_counter()
            subprocess.run(cmd, check=True)
            times[name].append(time.perf_counter() - start)
    med = {name: statistics.median(v) * 1000 for name, v in times.items()}
    added = med["module"] - med["already"]
    print(
        f"floor {med['floor']:.1f} ms, with {args.already or 'nothing'} {med['already']:.1f} ms, "
        f"and {args.module} {med['module']:.1f} ms (medians of {args.runs}): {args.module} adds "
        f"{added:.1f} ms = {added / med['floor']:.2f}x the floor"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

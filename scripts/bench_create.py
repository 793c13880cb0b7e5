"""`task create` against the `git worktree add` it wraps, two installs side by side.

scripts/bench_scale.py's two rows (`task create`, no agents, and a plain `git worktree add -q -b X
PATH HEAD`), measured the same way on a repository it built (say a copy of its `tasks-1000`), for
two Pythons with taskproto installed (`--base`, the code before a change, and `--python`): each
run takes the floor (`python -I -c pass`), a worktree add (removed after), then one create of each
install, in alternating order (each removed after with `task remove`). Prints the medians, each
create's difference over the worktree add as a multiple of the floor (issue #44's goal: at most
5x), and the median of the paired differences between the installs.

    python scripts/bench_create.py --repo /tmp/r1k --base /tmp/venv-main/bin/python \\
        --python /tmp/venv-branch/bin/python --runs 21
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


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, check=False)
    took = (time.perf_counter() - start) * 1000
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.decode()}")
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, required=True, help="a repository with tasks")
    parser.add_argument("--base", required=True, help="the Python of the install to compare to")
    parser.add_argument("--python", default=sys.executable, help="the Python of the install")
    parser.add_argument("--runs", type=int, default=21, help="runs of each row (default 21)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-create-") as scratch:
        home = Path(scratch)
        env = {
            "PATH": os.environ["PATH"],
            "HOME": str(home / "home"),
            "XDG_STATE_HOME": str(home / "state"),
            "GIT_AUTHOR_NAME": "bench",
            "GIT_AUTHOR_EMAIL": "bench@example.invalid",
            "GIT_COMMITTER_NAME": "bench",
            "GIT_COMMITTER_EMAIL": "bench@example.invalid",
        }
        installs = [("base", args.base), ("this", args.python)]
        rows: dict[str, list[float]] = {"floor": [], "worktree add": [], "base": [], "this": []}
        load = os.getloadavg()
        for run in range(args.runs):
            rows["floor"].append(timed([args.python, "-I", "-c", "pass"], home, env))
            branch = f"bench-wt-{os.getpid()}-{run}"
            path = str(home / branch)
            add = ["git", "worktree", "add", "-q", "-b", branch, path, "HEAD"]
            rows["worktree add"].append(timed(add, args.repo, env))
            timed(["git", "worktree", "remove", "--force", path], args.repo, env)
            timed(["git", "branch", "-q", "-D", branch], args.repo, env)
            for label, python in installs if run % 2 == 0 else installs[::-1]:
                tp = str(Path(python).parent / "taskproto")
                name = f"bench-create-{label}-{os.getpid()}-{run}"
                rows[label].append(timed([tp, "task", "create", name], args.repo, env))
                timed([tp, "task", "remove", name], args.repo, env)
    median = {label: statistics.median(times) for label, times in rows.items()}
    floor, add = median["floor"], median["worktree add"]
    end = os.getloadavg()
    print(
        f"load average {'/'.join(f'{x:.1f}' for x in load)} -> {'/'.join(f'{x:.1f}' for x in end)}"
    )
    print(f"{args.runs} runs; floor {floor:.1f} ms; git worktree add {add:.1f} ms (medians)")
    for label, _ in installs:
        over = median[label] - add
        times = f"task create {median[label]:.1f} ms; over the add {over:.1f} ms"
        print(f"{label}: {times} = {over / floor:.2f}x the floor")
    pairs = statistics.median(t - b for b, t in zip(rows["base"], rows["this"], strict=True))
    print(f"this - base, paired: median {pairs:+.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())

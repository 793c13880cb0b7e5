"""A user's `git gc` beside many tasks: its time and its reference-transaction hook runs.

    python scripts/bench_gc.py [--tasks 1000 ...] [--runs 3] [--workdir DIR] [--python PYTHON]
        [--cases built written]

For each --tasks count, builds a repository (`git init`, `taskproto init --git`, then
`scripts/scale_repo.py tasks --no-worktrees`, run by PYTHON: the checkout measured), whose
journals and branches are loose refs, as taskproto's writes leave them and as the scale
benchmark builds them in bulk. Then, each on a fresh copy of it, timed (median of --runs):

- "as built": `git pack-refs --all --prune` (the part of gc that prunes loose refs, one
  reference-transaction per ref), then `git gc --quiet`, with taskproto's git hooks, as a user's
  gc runs;
- "after a transition": `taskproto claim` (timed: the first journal write, which packs the refs
  once they pass the bound of loose refs, git/reffiles.py `keep_packed`) and `taskproto
  transition`, through PYTHON's command, then the same two.

Hook runs are counted from git's own trace (`GIT_TRACE2_EVENT`, its `child_start` events of class
`hook`), so a hook that exits at once is counted too. The floor `python -I -c pass` of PYTHON is
timed in the same run. Prints Markdown; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)

BUILDER = Path(__file__).resolve().parent / "scale_repo.py"
SESSION = "bench-gc"


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    took = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} in {cwd} failed ({proc.returncode}): {proc.stderr}")
    return took


def loose_refs(repo: Path) -> int:
    refs = repo / ".git" / "refs"
    return sum(len([f for f in files if not f.endswith(".lock")]) for _, _, files in os.walk(refs))


def hook_runs(trace: Path) -> int:
    count = 0
    if not trace.exists():
        return 0
    for line in trace.read_text().splitlines():
        event = json.loads(line)
        if event.get("event") == "child_start" and event.get("child_class") == "hook":
            count += 1
    return count


def build(workdir: Path, python: str, tasks: int) -> Path:
    repo = workdir / f"gc-{tasks}"
    if repo.exists():
        shutil.rmtree(repo)
    repo.mkdir(parents=True)
    run(["git", "init", "-q", "--initial-branch=main"], repo)
    run(["git", "config", "gc.auto", "0"], repo)  # nothing packs before it is timed
    run(["git", "commit", "-q", "--allow-empty", "-m", "first"], repo)
    run([python, "-m", "taskproto", "init", "--git"], repo)
    run([python, str(BUILDER), "tasks", str(repo), "--tasks", str(tasks), "--no-worktrees"], repo)
    run(["git", "config", "--unset", "gc.auto"], repo)
    return repo


def timed_git(copy: Path, args: list[str], trace: Path) -> tuple[float, int]:
    trace.unlink(missing_ok=True)
    env = {**os.environ, "GIT_TRACE2_EVENT": str(trace)}
    took = run(["git", *args], copy, env)
    return took, hook_runs(trace)


def measure(
    repo: Path, python: str, runs: int, workdir: Path, transition: bool
) -> dict[str, list[float]]:
    rows: dict[str, list[float]] = {}
    exe = str(Path(python).parent / "taskproto")
    for i in range(runs):
        for what, args in (("pack-refs", ["pack-refs", "--all", "--prune"]), ("gc", ["gc", "-q"])):
            copy = workdir / "copy"
            if copy.exists():
                shutil.rmtree(copy)
            shutil.copytree(repo, copy, symlinks=True)
            if transition:
                env = {**os.environ, "TASKPROTO_SESSION": SESSION}
                loose_before = loose_refs(copy)
                took = run([exe, "claim", "t00000"], copy, env)
                run([exe, "transition", "t00000", "CLASSIFIED"], copy, env)
                rows.setdefault("transition", []).append(took)
                rows.setdefault("loose refs before the transition", []).append(loose_before)
            rows.setdefault("loose refs", []).append(loose_refs(copy))
            took, hooks = timed_git(copy, args, workdir / "trace.json")
            rows.setdefault(what, []).append(took)
            rows.setdefault(f"{what} hook runs", []).append(hooks)
            floor = run([python, "-I", "-c", "pass"], workdir)
            rows.setdefault("floor", []).append(floor)
            say(f"  run {i + 1} {what}: {took:.2f} s, {hooks} hook runs")
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, nargs="+", default=[1000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workdir", type=Path)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument(
        "--cases",
        nargs="+",
        choices=("built", "written"),
        default=["built", "written"],
        help="built: the repository as built; written: after taskproto's first journal write",
    )
    a = parser.parse_args()
    workdir = a.workdir or Path(tempfile.mkdtemp(prefix="bench-gc-"))
    workdir.mkdir(parents=True, exist_ok=True)
    git = subprocess.run(["git", "--version"], capture_output=True, text=True, check=True).stdout
    print(f"{git.strip()}, python {sys.version.split()[0]}, load {os.getloadavg()}, {a.runs} runs")
    print()
    print(
        "| tasks | case | loose refs | `git pack-refs --all --prune` | its hook runs | "
        "`git gc` | its hook runs | the claim (first write) | floor |"
    )
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for tasks in a.tasks:
        say(f"building {tasks} tasks")
        repo = build(workdir, a.python, tasks)
        for case, transition in (("as built", False), ("after a transition", True)):
            if ("written" if transition else "built") not in a.cases:
                continue
            say(f"{tasks} tasks, {case}")
            r = measure(repo, a.python, a.runs, workdir, transition)
            med = {k: statistics.median(v) for k, v in r.items()}
            floor = med["floor"] * 1000
            trans = (
                f"{med['transition'] * 1000:.1f} ms ({med['loose refs before the transition']:.0f}"
                " loose refs before)"
                if transition
                else ""
            )
            print(
                f"| {tasks:,} | {case} | {med['loose refs']:.0f} | {med['pack-refs']:.2f} s | "
                f"{med['pack-refs hook runs']:.0f} | {med['gc']:.2f} s | {med['gc hook runs']:.0f}"
                f" | {trans} | {floor:.1f} ms |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())

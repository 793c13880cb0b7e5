"""Time `taskproto doctor --json` on a repository built before, with nothing kept (the first run, or
`--full`) and with what the previous run kept (`<root>/doctor-known.json`, docs/doctor.md), beside
the floor `python -I -c pass`, interleaved.

    python scripts/bench_doctor_known.py REPO --python /path/to/venv/bin/python [--runs 5]

Each round runs the floor, a cold doctor (the kept file deleted first, so the run judges every
task.json and writes it again) and a warm one (the file the cold run wrote). Prints the median
wall time of each, the CPU time of each (user + system, the doctor process and its git children:
what the load of other work on the machine moves least), the load average at the start and at the
end, and the doctor's git processes.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)


def timed(cmd: list[str], cwd: Path) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """Wall seconds, CPU seconds (user + system of the child and its children) and the result."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc


def git_calls(cmd: list[str], cwd: Path) -> list[str]:
    """The git commands one run of `cmd` starts (through a `git` first on PATH that logs each)."""
    with tempfile.TemporaryDirectory() as tmp:
        log, shim = Path(tmp) / "calls", Path(tmp) / "git"
        shim.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{shutil.which("git")}" "$@"\n')
        shim.chmod(0o755)
        env = {**os.environ, "PATH": f"{tmp}{os.pathsep}{os.environ['PATH']}"}
        subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, check=False)
        return log.read_text().splitlines() if log.exists() else []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--python", default="python3", help="the interpreter taskproto runs on")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    repo = args.repo.absolute()
    find = "from taskproto.config import load_config; print(load_config('.').root)"
    root = Path(
        subprocess.run(
            [args.python, "-c", find], cwd=repo, capture_output=True, text=True, check=True
        ).stdout.strip()
    )
    kept = root / "doctor-known.json"
    doctor = [args.python, "-m", "taskproto", "doctor", "--json"]
    load_start = os.getloadavg()
    rows: dict[str, list[tuple[float, float]]] = {"floor": [], "cold": [], "warm": []}
    report: dict[str, object] = {}
    for _ in range(args.runs):
        rows["floor"].append(timed([args.python, "-I", "-c", "pass"], repo)[:2])
        kept.unlink(missing_ok=True)
        wall, cpu, proc = timed(doctor, repo)
        rows["cold"].append((wall, cpu))
        wall, cpu, proc = timed(doctor, repo)
        rows["warm"].append((wall, cpu))
        report = json.loads(proc.stdout)
    load_end = os.getloadavg()
    calls = git_calls(doctor, repo)
    floor = statistics.median(w for w, _ in rows["floor"])
    print(
        f"repository {repo}: {report.get('tasks_checked')} tasks, healthy={report.get('healthy')}"
    )
    print(
        f"load average {' / '.join(f'{x:.1f}' for x in load_start)} at the start, "
        f"{' / '.join(f'{x:.1f}' for x in load_end)} at the end"
    )
    for name, label in (
        ("floor", "python -I -c pass"),
        ("cold", "doctor --json, nothing kept"),
        ("warm", "doctor --json, kept"),
    ):
        walls = [w for w, _ in rows[name]]
        cpus = [c for _, c in rows[name]]
        wall = statistics.median(walls)
        print(
            f"{label}: {wall * 1000:,.1f} ms median of {len(walls)} "
            f"({min(walls) * 1000:,.0f}-{max(walls) * 1000:,.0f}), {wall / floor:.1f}x the floor; "
            f"CPU {statistics.median(cpus) * 1000:,.0f} ms median"
        )
    print(f"git processes of a warm run: {len(calls)} ({', '.join(c.split()[0] for c in calls)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""How long `taskproto import --from beads` takes for many issues (issue #43's goal: 1,000
issues with 300 dependency edges in under 10 s), and what follows it.

    python scripts/bench_task_import.py [--issues 1000] [--edges 300] [--closed 0.2]
        [--runs 3] [--python PYTHON] [--workdir DIR]

Writes a beads `issues.jsonl` (seeded: the same file every run) of --issues issues, a --closed
share of them closed, with --edges `blocks` dependencies, each from an issue to an older one
(no cycle), then, in a fresh repository per run, times what a user runs, each as its own
`taskproto` process: the import; the same import again (nothing changes); `taskproto ready`
(its order over all of them); `taskproto export` of them all. Prints a Markdown table of the
medians of --runs runs. (scripts/bench_import.py is another benchmark: what importing a Python
module costs.)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)


def issues_file(path: Path, count: int, edges: int, closed: float) -> None:
    rng = random.Random(43)
    pairs: set[tuple[int, int]] = set()
    while len(pairs) < edges:
        later = rng.randrange(1, count)
        pairs.add((later, rng.randrange(0, later)))
    deps: dict[int, list[int]] = {}
    for later, earlier in sorted(pairs):
        deps.setdefault(later, []).append(earlier)
    lines = []
    for i in range(count):
        is_closed = rng.random() < closed
        issue = {
            "id": f"bd-{i:04d}",
            "title": f"issue {i}",
            "description": f"what issue {i} is about",
            "status": "closed" if is_closed else rng.choice(["open", "open", "in_progress"]),
            "priority": rng.randrange(0, 5),
            "issue_type": rng.choice(["task", "bug", "feature"]),
            "created_at": f"2025-{1 + i % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:00:00Z",
            "updated_at": "2025-12-31T00:00:00Z",
            "dependencies": [
                {"issue_id": f"bd-{i:04d}", "depends_on_id": f"bd-{d:04d}", "type": "blocks"}
                for d in deps.get(i, [])
            ],
        }
        if is_closed:
            issue.update(closed_at="2025-12-31T00:00:00Z", close_reason="done")
        lines.append(json.dumps(issue))
    path.write_text("\n".join(lines) + "\n")


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    took = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr}")
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--issues", type=int, default=1000)
    parser.add_argument("--edges", type=int, default=300)
    parser.add_argument("--closed", type=float, default=0.2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args()
    work = Path(args.workdir or tempfile.mkdtemp(prefix="bench-import-"))
    work.mkdir(parents=True, exist_ok=True)
    source = work / "issues.jsonl"
    issues_file(source, args.issues, args.edges, args.closed)
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "bench",
        "GIT_AUTHOR_EMAIL": "bench@example.invalid",
        "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    }
    taskproto = [args.python, "-m", "taskproto"]
    rows: dict[str, list[float]] = {}
    for run in range(args.runs):
        repo = work / f"repo-{run}"
        shutil.rmtree(repo, ignore_errors=True)
        repo.mkdir()
        for cmd in (["init", "-q", "-b", "main"], ["commit", "-q", "--allow-empty", "-m", "x"]):
            subprocess.run(["git", *cmd], cwd=repo, env=env, check=True)
        steps = {
            f"import {args.issues} beads issues ({args.edges} edges)": [
                "import",
                str(source),
                "--from",
                "beads",
            ],
            "the same import again (nothing changes)": ["import", str(source), "--from", "beads"],
            f"`ready` over {args.issues} tasks": ["ready", "--json"],
            f"`export` of {args.issues} tasks": ["export", "--output", str(work / "out.jsonl")],
        }
        for label, cmd in steps.items():
            rows.setdefault(label, []).append(timed([*taskproto, *cmd], repo, env))
            print(f"run {run + 1}: {label}: {rows[label][-1]:.2f} s", file=sys.stderr)
    print(f"| step (median of {args.runs}) | s |")
    print("|---|---:|")
    for label, times in rows.items():
        print(f"| {label} | {statistics.median(times):.2f} |")
    if not args.workdir:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

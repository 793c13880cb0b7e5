"""A new session's start right after another command changed a task, against the floor.

Runs in a repository that `scripts/bench_scale.py` built (its `tasks-1000`, set up with
`init --claude`): each run creates a task and removes it through the CLI, then times two new
sessions' SessionStart hooks (the installed command from `.claude/settings.local.json`, a new
session id each, as each `claude` run has) and the floor `python -I -c pass`. Prints the medians.

    python scripts/bench_first_start.py /tmp/bs-work/tasks-1000 --python /tmp/bs-venv/bin/python
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import time
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)


def hook_command(repo: Path) -> list[str]:
    folder = repo / ".claude"
    local = folder / "settings.local.json"
    settings = json.loads((local if local.exists() else folder / "settings.json").read_text())
    return shlex.split(settings["hooks"]["SessionStart"][0]["hooks"][0]["command"])


def timed(cmd: list[str], repo: Path, env: dict[str, str], data: bytes | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=repo, env=env, input=data, capture_output=True, check=False)
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("repo", type=Path, help="a repository set up with `init --claude`")
    parser.add_argument("--python", default="python3", help="the python of the install measured")
    parser.add_argument("--runs", type=int, default=7, help="runs (each: a change, two starts)")
    args = parser.parse_args()
    repo = args.repo.resolve()
    tp = str(Path(args.python).parent / "taskproto")
    hook = hook_command(repo)
    env = {k: v for k, v in os.environ.items() if not k.startswith("TASKPROTO")}
    env["CLAUDE_PROJECT_DIR"] = str(repo)
    first: list[float] = []
    after: list[float] = []
    floor: list[float] = []
    for run in range(args.runs):
        name = f"first-start-{os.getpid()}-{run}"
        subprocess.run(
            [tp, "task", "create", name], cwd=repo, env=env, check=True, capture_output=True
        )
        subprocess.run(
            [tp, "task", "remove", name, "--force"],
            cwd=repo,
            env=env,
            check=True,
            capture_output=True,
        )
        for which, times in (("first", first), ("next", after)):
            data = {
                "session_id": f"first-start-{os.getpid()}-{run}-{which}",
                "transcript_path": str(repo / "transcript.jsonl"),
                "cwd": str(repo),
                "hook_event_name": "SessionStart",
                "source": "startup",
            }
            times.append(timed(hook, repo, env, json.dumps(data).encode()))
        floor.append(timed([args.python, "-I", "-c", "pass"], repo, env))
    base = statistics.median(floor)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"floor `python -I -c pass`: {base:.1f} ms (median of {args.runs}); load average {load}")
    for label, times in (("first start after a create and remove", first), ("next start", after)):
        mid = statistics.median(times)
        print(f"{label}: {mid:.1f} ms (median of {args.runs}), {mid / base:.2f}x the floor")


if __name__ == "__main__":
    main()

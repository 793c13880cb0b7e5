"""How soon `taskproto tui` shows a change made by the CLI (issue #40: within 0.2 s).

    python scripts/bench_tui.py [--runs 10]

Runs the TUI headless (Textual's pilot) on a fresh repository; each run creates a task with the
`taskproto` command in a subprocess and measures from the moment that command exited to the
moment the TUI's rows hold the new task (checked every 5 ms). Prints Markdown.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    from taskproto.config import load_config
    from taskproto.engine import Engine
    from taskproto.tui.app import TaskprotoApp

    os.environ["TASKPROTO_NOTIFY_DETACH"] = "0"
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        repo.mkdir()
        for cmd in (
            ["git", "init", "-q", "-b", "main"],
            ["git", "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q", "--allow-empty"]
            + ["-m", "initial"],
        ):
            subprocess.run(cmd, cwd=repo, check=True)
        app = TaskprotoApp(Engine(load_config(repo)), "bench")
        delays: list[float] = []

        async def run() -> None:
            async with app.run_test(size=(160, 48)) as pilot:
                for i in range(args.runs):
                    name = f"t{i}"
                    subprocess.run(
                        [sys.executable, "-m", "taskproto", "task", "create", name],
                        cwd=repo,
                        check=True,
                        capture_output=True,
                    )
                    done = time.perf_counter()
                    while not any(r["name"] == name for r in app.rows):
                        await pilot.pause(0.005)
                        if time.perf_counter() - done > 5:
                            raise SystemExit(f"{name} did not show within 5 s")
                    delays.append(time.perf_counter() - done)

        asyncio.run(run())
    ms = [d * 1000 for d in delays]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, {args.runs} runs\n")
    print("| from the CLI's exit to the TUI's row | ms |")
    print("|---|---:|")
    print(f"| median | {statistics.median(ms):.0f} |")
    print(f"| max | {max(ms):.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

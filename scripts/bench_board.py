"""The board's `/api/tasks` row of scripts/bench_scale.py alone, against the floor, measured alike.

Runs in a repository that `scripts/bench_scale.py` built for the board (its `board-1000x2`: 1,000
tasks of two agents, journals and refs packed): a real `taskproto board` (PYTHON's `taskproto`,
exec'd directly) on a free port of 127.0.0.1, ready once its first doctor run is in; one request to
warm it, as bench_scale.py's warm-up; then --runs runs of one `GET /api/tasks` on a new connection
and of the floor `python -I -c pass`, in turn one before the other. With --changed, each run first
renews one task owner's heartbeat through the CLI (`taskproto heartbeat`, a different task each
time), so the request answers right after a change (a row of its own, no goal). Prints Markdown:
the medians, the floor's, the ratio, the load average at the start and at the end.

    python scripts/bench_board.py /tmp/bs-work/board-1000x2 --python /tmp/bs-venv/bin/python

Run it in a copy of the repository if others use the original: `cp -a` it, then rewrite the
worktrees' links (`.git/worktrees/*/gitdir` and each worktree's `.git` file name the original's
path) to the copy's.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)

URL = re.compile(r"http://127\.0\.0\.1:(\d+)/\?token=(\S+)")


class Board:
    def __init__(self, tp: str, repo: Path, env: dict[str, str], timeout: float) -> None:
        self.timeout = timeout
        self.proc = subprocess.Popen(
            [tp, "board", "--port", "0", "--no-open"],
            cwd=repo,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        found: list[re.Match[str]] = []
        self.lines: list[str] = []

        def read() -> None:
            assert self.proc.stdout is not None
            for line in self.proc.stdout:
                self.lines.append(line)
                match = URL.search(line)
                if match and not found:
                    found.append(match)

        threading.Thread(target=read, daemon=True).start()
        deadline = time.monotonic() + timeout
        while not found:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise SystemExit("the board did not start:\n" + "".join(self.lines))
            time.sleep(0.05)
        self.port, self.token = int(found[0].group(1)), found[0].group(2)
        while True:  # ready once its first doctor run is in (bench_scale.py's start_board)
            try:
                status, body = self.get("/api/doctor")
                if status == 200 and json.loads(body)["finished"] is not None:
                    return
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise SystemExit("the board's doctor did not finish:\n" + "".join(self.lines))
            time.sleep(0.2)

    def get(self, path: str) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        headers = {"Host": f"127.0.0.1:{self.port}", "Authorization": f"Bearer {self.token}"}
        try:
            conn.request("GET", path, headers=headers)
            resp = conn.getresponse()
            return resp.status, resp.read()
        finally:
            conn.close()

    def tasks(self) -> tuple[float, int]:
        """(seconds, cards) of one `GET /api/tasks`."""
        start = time.perf_counter()
        status, body = self.get("/api/tasks")
        took = time.perf_counter() - start
        if status != 200:
            raise SystemExit(f"/api/tasks answered {status}: {body[:200]!r}")
        return took, len(json.loads(body)["tasks"])

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)


def floor(python: str, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([python, "-I", "-c", "pass"], env=env, check=True)
    return time.perf_counter() - start


def owned(tp: str, repo: Path, env: dict[str, str]) -> list[tuple[str, str]]:
    """(task, owner session) of every owned task, from `task list --json`."""
    out = subprocess.run(
        [tp, "task", "list", "--json"], cwd=repo, env=env, capture_output=True, check=True
    )
    found = []
    for task in json.loads(out.stdout):
        owner = task.get("owner") or {}
        if owner.get("session"):
            found.append((str(task["name"]), str(owner["session"])))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("repo", type=Path, help="a repository bench_scale.py built for the board")
    parser.add_argument("--python", default=sys.executable, help="the python of the install")
    parser.add_argument("--runs", type=int, default=9, help="timed requests (and floors)")
    parser.add_argument("--changed", action="store_true", help="a heartbeat before each request")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds to wait at most")
    args = parser.parse_args()
    repo = args.repo.resolve()
    python = os.path.abspath(args.python)  # a venv's python: not resolved past its link
    tp = str(Path(python).parent / "taskproto")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TASKPROTO")}
    start = os.getloadavg()
    changes = owned(tp, repo, env) if args.changed else []
    if args.changed and not changes:
        raise SystemExit("--changed: no task here has an owner to renew")
    board = Board(tp, repo, env, args.timeout)
    times: list[float] = []
    floors: list[float] = []
    cards = 0
    try:
        board.tasks()  # warm, as bench_scale.py's warm-up does
        for i in range(args.runs):
            if changes:
                task, session = changes[i % len(changes)]
                subprocess.run(
                    [tp, "heartbeat", task],
                    cwd=repo,
                    env={**env, "TASKPROTO_SESSION": session},
                    capture_output=True,
                    check=True,
                )

            def request() -> None:
                nonlocal cards
                took, cards = board.tasks()
                times.append(took)

            steps = [request, lambda: floors.append(floor(python, env))]
            for step in steps if i % 2 else steps[::-1]:
                step()
    finally:
        board.stop()
    end = os.getloadavg()
    median, base = statistics.median(times) * 1000, statistics.median(floors) * 1000
    what = "after a heartbeat each" if args.changed else "nothing changed between requests"
    print(f"load average {start[0]:.1f} / {start[1]:.1f} / {start[2]:.1f} at the start, ", end="")
    print(f"{end[0]:.1f} / {end[1]:.1f} / {end[2]:.1f} at the end; {cards} cards; {what}")
    print()
    print("| figure | measured | floor (same run) | × floor |")
    print("|---|---:|---:|---:|")
    print(
        f"| board `/api/tasks`, {repo.name} | {median:.1f} ms (median of {len(times)}, "
        f"{min(times) * 1000:.1f}–{max(times) * 1000:.1f}) | {base:.1f} ms | {median / base:.2f}× |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

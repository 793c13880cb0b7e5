"""Compare two checkouts' installed tool-call hook (`python -I -S entry.py claude PreToolUse`),
interleaved run by run so that the machine's load falls on both alike.

    git worktree add /tmp/base <commit>
    python scripts/bench_hook_compare.py /tmp/base . [-n 100]

Each checkout's hook runs on its own repository (a task in IMPLEMENTATION owned by the session,
a `Write` in the agent's worktree: allowed); prints the median of each, the floor
`python -I -c pass` measured in the same loop, and the in-process cost of the activity write.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)

SETUP = """
import sys
from pathlib import Path
from taskproto.config import load_config
from taskproto.engine import Engine
engine = Engine(load_config(Path(sys.argv[1])))
engine.create_task("t1", ["dev"])
engine.claim("t1", "owner")
for state in ("CLASSIFIED", "REQUIREMENTS", "SYNTHESIS"):
    engine.fire("t1", target=state, session="owner")
engine.approve("t1", "plan", "user")
engine.fire("t1", target="IMPLEMENTATION", session="owner")
print(engine.config.agent_worktree("t1", "dev"))
"""


def prepare(checkout: Path, tmp: Path, env: dict[str, str]) -> tuple[list[str], bytes]:
    repo = tmp / checkout.name / "repo"
    repo.mkdir(parents=True)
    for cmd in (["init", "-q", "-b", "main"], ["commit", "-q", "--allow-empty", "-m", "i"]):
        subprocess.run(["git", *cmd], cwd=repo, check=True, env=env)
    wt = subprocess.run(
        [sys.executable, "-c", SETUP, str(repo)],
        env={**env, "PYTHONPATH": str(checkout)},
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    payload = {
        "session_id": "owner",
        "cwd": wt,
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": f"{wt}/widget.py", "content": "x = 1\n"},
        "tool_use_id": "toolu_1",
        "permission_mode": "acceptEdits",
        "transcript_path": "/dev/null",
    }
    entry = checkout / "taskproto" / "hooks" / "agents" / "entry.py"
    return [sys.executable, "-I", "-S", str(entry), "claude", "PreToolUse"], json.dumps(
        payload
    ).encode()


def once(argv: list[str], data: bytes, env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(argv, input=data, capture_output=True, env=env, check=False)
    took = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{argv} failed: {proc.stderr.decode()}")
    return took


def activity_cost(new: Path, runs: int) -> float:
    """Seconds per activity write, in-process (the part the board added to the hot path)."""
    sys.path.insert(0, str(new))
    from taskproto.hooks.agents import activity
    from taskproto.hooks.agents.common import Payload
    from taskproto.layout import Layout

    with tempfile.TemporaryDirectory() as tmp:
        layout = Layout(tmp, tmp)
        payload = Payload(json.dumps({"session_id": "s1", "tool_name": "Write"}).encode())
        start = time.perf_counter()
        for _ in range(runs):
            activity.record(layout, "claude", "PreToolUse", payload, tmp)
        return (time.perf_counter() - start) / runs


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("base", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("-n", type=int, default=100)
    args = parser.parse_args()
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": tempfile.mkdtemp(),
        "GIT_AUTHOR_NAME": "b",
        "GIT_AUTHOR_EMAIL": "b@x",
        "GIT_COMMITTER_NAME": "b",
        "GIT_COMMITTER_EMAIL": "b@x",
    }
    with tempfile.TemporaryDirectory() as tmp:
        base = prepare(args.base.resolve(), Path(tmp), env)
        new = prepare(args.new.resolve(), Path(tmp), env)
        floor_cmd = [sys.executable, "-I", "-c", "pass"]
        times: dict[str, list[float]] = {"floor": [], "base": [], "new": []}
        cases = {"floor": (floor_cmd, b""), "base": base, "new": new}
        order = list(cases)
        for _ in range(args.n):
            random.shuffle(order)  # no case always runs right after another
            for name in order:
                times[name].append(once(*cases[name], env))
    floor = statistics.median(times["floor"])
    load = os.getloadavg()[0]
    print(f"python {sys.version.split()[0]}, {args.n} interleaved runs, median, load {load:.2f}")
    print("| case | ms | × floor |\n| --- | ---: | ---: |")
    for name, label in (
        ("floor", "python -I -c pass (floor)"),
        ("base", f"PreToolUse, allowed: {args.base}"),
        ("new", f"PreToolUse, allowed: {args.new}"),
    ):
        value = statistics.median(times[name])
        print(f"| {label} | {value * 1000:.1f} | {value / floor:.2f} |")
    print(f"activity write in-process: {activity_cost(args.new.resolve(), 2000) * 1e6:.0f} µs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

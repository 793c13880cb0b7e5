"""What an agent's own hooks moving its status costs the tool-call hook (docs/performance.md).

Runs the installed tool-call hook (`python -I -S entry.py claude PreToolUse`, a `Write` in the
agent's worktree of a task in IMPLEMENTATION: allowed), interleaved run by run with the floor
`python -I -c pass`:
- plain: a session taskproto did not start (no TASKPROTO_AGENT_NAME): nothing read;
- agent, WORKING: the agent's client as `taskproto agent start` runs it, its status already
  WORKING: one read of status.json;
- agent, first call: its status PENDING: the engine moves it to WORKING, journaled (once per run
  of the agent; a new task each time).

    PYTHONPATH=$PWD python scripts/bench_agent_status.py [-n 30]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from bench_hook_compare import once  # noqa: E402 - one timed run of a command

ENTRY = ROOT / "taskproto" / "hooks" / "agents" / "entry.py"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=30)
    n = parser.parse_args().n
    sys.path.insert(0, str(ROOT))
    from taskproto.config import load_config
    from taskproto.engine import Engine
    from taskproto.state.models import AgentState

    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": tempfile.mkdtemp(),
        **{
            f"GIT_{w}_{k}": v
            for w in ("AUTHOR", "COMMITTER")
            for k, v in (("NAME", "b"), ("EMAIL", "b@x"))
        },
    }
    os.environ.update(env)
    repo = Path(tempfile.mkdtemp()) / "repo"
    repo.mkdir()
    for cmd in (["init", "-q", "-b", "main"], ["commit", "-q", "--allow-empty", "-m", "i"]):
        subprocess.run(["git", *cmd], cwd=repo, check=True, env=env)
    engine = Engine(load_config(repo))

    def task(name: str, working: bool) -> Path:
        engine.create_task(name, ["dev"])
        engine.claim(name, "owner")
        for state in ("CLASSIFIED", "REQUIREMENTS", "SYNTHESIS"):
            engine.fire(name, target=state, session="owner")
        engine.approve(name, "plan", "user")
        engine.fire(name, target="IMPLEMENTATION", session="owner")
        if working:
            engine.set_agent_status(name, "dev", AgentState.WORKING, session="owner")
        return engine.config.agent_worktree(name, "dev")

    def payload(wt: Path) -> bytes:
        return json.dumps(
            {
                "session_id": "agent-dev",
                "cwd": str(wt),
                "hook_event_name": "PreToolUse",
                "tool_name": "Write",
                "tool_input": {"file_path": f"{wt}/widget.py", "content": "x = 1\n"},
                "tool_use_id": "toolu_1",
            }
        ).encode()

    def agent_env(name: str) -> dict[str, str]:
        return {
            **env,
            "TASKPROTO_AGENT": "1",
            "TASKPROTO_TASK": name,
            "TASKPROTO_AGENT_NAME": "dev",
        }

    hook = [sys.executable, "-I", "-S", str(ENTRY), "claude", "PreToolUse"]
    floor = [sys.executable, "-I", "-c", "pass"]
    wt = task("t0", working=True)
    fresh = [(f"f{i}", task(f"f{i}", working=False)) for i in range(n)]
    times: dict[str, list[float]] = {"floor": [], "plain": [], "working": [], "first": []}
    for i in range(n):
        times["floor"].append(once(floor, b"", env))
        times["plain"].append(once(hook, payload(wt), env))
        times["working"].append(once(hook, payload(wt), agent_env("t0")))
        name, fwt = fresh[i]
        times["first"].append(once(hook, payload(fwt), agent_env(name)))
        status = json.loads(engine.config.status_file(name, "dev").read_text())["status"]
        assert status == "WORKING", status
    base = statistics.median(times["floor"])
    print(f"python {sys.version.split()[0]}, {n} runs each, interleaved, median")
    print("| case | ms | × floor |\n| --- | ---: | ---: |")
    for label, key in (
        ("python -I -c pass (floor)", "floor"),
        ("PreToolUse, a session taskproto did not start", "plain"),
        ("PreToolUse, an agent taskproto runs, status WORKING", "working"),
        ("PreToolUse, its first call: PENDING -> WORKING, journaled", "first"),
    ):
        m = statistics.median(times[key])
        print(f"| {label} | {m * 1000:.1f} | {m / base:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

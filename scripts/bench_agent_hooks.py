"""Benchmark `taskproto hook claude PreToolUse` as installed: `python -I -S agent.py claude
PreToolUse`, the launcher `taskproto init --claude` writes in the git dir (clients/launcher.py),
and, beside it, `python -I -S entry.py claude PreToolUse`, what it runs (an older init's command).

Prints the median wall time of N runs of each case and its ratio to `python -I -c pass`,
measured in the same run with the same interpreter:
- owns-no-task: a session that owns no task, editing in the main worktree (nothing to decide);
- owns-task: a session that owns a task in IMPLEMENTATION, editing in its agent worktree (allowed);
- owns-task-deny: the same session in REQUIREMENTS (denied, exit 2);
- owns-task-shell: the same session in IMPLEMENTATION, a Bash call the shell reader reads
  (compound commands, a here-document, `find -exec`, a variable).

    python scripts/bench_agent_hooks.py [-n 40]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)

ROOT = Path(__file__).resolve().parents[1]
ENTRY = ROOT / "taskproto" / "hooks" / "agents" / "entry.py"


SHELL = (
    "g=git; cd src 2>/dev/null; { $g add -A && git commit -qm 'work'; } > /tmp/out 2>&1; "
    "find . -name '*.py' -exec grep -l widget {} \\; | xargs wc -l; "
    "if [ -f x ]; then sh <<'EOF'\ngit status\nEOF\nfi"
)


def timed(argv: list[str], data: bytes, n: int, env: dict[str, str]) -> float:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        subprocess.run(
            argv,
            input=data,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
            check=False,
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=40)
    n = parser.parse_args().n
    sys.path.insert(0, str(ROOT))
    from taskproto.config import load_config
    from taskproto.engine import Engine

    env = {
        "PATH": os.environ.get("PATH", ""),
        "GIT_AUTHOR_NAME": "b",
        "GIT_AUTHOR_EMAIL": "b@x",
        "GIT_COMMITTER_NAME": "b",
        "GIT_COMMITTER_EMAIL": "b@x",
        "HOME": tempfile.mkdtemp(),
    }
    os.environ.update(env)
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        repo.mkdir()
        for cmd in (["init", "-q", "-b", "main"], ["commit", "-q", "--allow-empty", "-m", "i"]):
            subprocess.run(["git", *cmd], cwd=repo, check=True)
        engine = Engine(load_config(repo))
        engine.create_task("t1", ["dev"])
        engine.claim("t1", "owner-session")
        wt = engine.config.agent_worktree("t1", "dev")

        def call(session: str, cwd: Path, command: str | None = None) -> bytes:
            tool = (
                {"tool_name": "Bash", "tool_input": {"command": command}}
                if command
                else {
                    "tool_name": "Write",
                    "tool_input": {"file_path": str(cwd / "widget.py"), "content": "x = 1\n"},
                }
            )
            return json.dumps(
                {
                    "session_id": session,
                    "cwd": str(cwd),
                    "hook_event_name": "PreToolUse",
                    **tool,
                    "tool_use_id": "toolu_1",
                    "permission_mode": "acceptEdits",
                    "transcript_path": "/dev/null",
                }
            ).encode()

        from taskproto.clients import settings

        settings.run(engine.config, ["claude"], uninstall=False)
        installed = json.loads((repo / ".claude" / "settings.local.json").read_text())
        launcher = installed["hooks"]["PreToolUse"][0]["hooks"][0]["command"].split()
        hooks = {
            "agent.py": launcher,
            "entry.py": [sys.executable, "-I", "-S", str(ENTRY), "claude", "PreToolUse"],
        }
        floor = timed([sys.executable, "-I", "-c", "pass"], b"", n, env)
        rows = [("python -I -c pass (floor)", {"agent.py": floor, "entry.py": floor})]

        cpu: dict[tuple[str, str], float] = {}  # (case, command) -> mean CPU seconds (user+sys)

        def both(
            title: str, session: str, cwd: Path, command: str | None = None
        ) -> dict[str, float]:
            """The two commands' medians, run in turn (the machine's load falls on both alike),
            and their mean CPU time (less moved by the load than the wall time) in `cpu`."""
            data = call(session, cwd, command)
            runs: dict[str, list[float]] = {name: [] for name in hooks}
            for _ in range(n):
                for name, hook in hooks.items():
                    before = resource.getrusage(resource.RUSAGE_CHILDREN)
                    runs[name].append(timed(hook, data, 1, env))
                    after = resource.getrusage(resource.RUSAGE_CHILDREN)
                    spent = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                    key = (title, name)
                    cpu[key] = cpu.get(key, 0.0) + spent / n
            return {name: statistics.median(times) for name, times in runs.items()}

        rows.append(("owns-no-task", both("owns-no-task", "nobody", repo)))
        for state in ("CLASSIFIED", "REQUIREMENTS"):
            engine.fire("t1", target=state, session="owner-session")
        rows.append(("owns-task-deny (REQUIREMENTS)", both("owns-task-deny", "owner-session", wt)))
        engine.fire("t1", target="SYNTHESIS", session="owner-session")
        engine.approve("t1", "plan", "user")
        engine.fire("t1", target="IMPLEMENTATION", session="owner-session")
        rows.append(("owns-task (IMPLEMENTATION, allowed)", both("owns-task", "owner-session", wt)))
        rows.append(
            (
                "owns-task-shell (IMPLEMENTATION, a Bash call, allowed)",
                both("owns-task-shell", "owner-session", wt, SHELL),
            )
        )
    print(f"{sys.executable}, {n} runs each, median")
    print("| case | agent.py ms | × floor | entry.py ms | × floor |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, values in rows:
        cells = " | ".join(f"{values[h] * 1000:.1f} | {values[h] / floor:.2f}" for h in hooks)
        print(f"| {name} | {cells} |")
    print("\nmean CPU time (user + sys) of each call, ms, in the order of the rows above:")
    for (case, name), spent in cpu.items():
        print(f"- {case}, {name}: {spent * 1000:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""What starting a command in an agent's sandbox costs, against starting it unsandboxed.

    python scripts/bench_sandbox.py [--runs 21]

Makes a repository in a temporary folder with task t (agent dev), then times, each `--runs`
times in turn: the floor `python -I -c pass`; `true` and `python -I -c pass` started plainly in
the agent's worktree (an unsandboxed start); the same inside the agent's bubblewrap sandbox
(`bwrap_argv`, the git dir already made: the sandbox's own cost); making the agent's git dir
(`gitdir.prepare`, done once per start); and the whole `taskproto agent exec t dev -- true` (a
CLI process, the git dir, the sandbox, the check for commits to bring out), and the same with a
commit to bring out (the sandboxed fetch, the branch moved, the index reset). Then a client's hook
call (a PreToolUse of a Write in the worktree, judged by the tool guard; a Stop) run plainly, and
the same through the agent's channel (sandbox/serve.py): the hook's `entry.py` with
TASKPROTO_CHANNEL set, as in the sandbox, answered by the channel's server outside. Prints medians
in ms.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)


def timed(fn: Callable[[], object], runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    if shutil.which("bwrap") is None:
        print("bwrap is not installed (apt-get install bubblewrap)", file=sys.stderr)
        return 1
    from taskproto.config import load_config
    from taskproto.engine import Engine
    from taskproto.sandbox import gitdir
    from taskproto.sandbox.bwrap import bwrap_argv
    from taskproto.sandbox.run import agent_rules

    folder = tempfile.mkdtemp(prefix="bench-sandbox-")
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "b",
        "GIT_AUTHOR_EMAIL": "b@example.invalid",
        "GIT_COMMITTER_NAME": "b",
        "GIT_COMMITTER_EMAIL": "b@example.invalid",
    }
    os.environ.update(env)
    try:
        repo = os.path.join(folder, "repo")
        os.makedirs(repo)
        for cmd in (
            ["git", "init", "-q", "-b", "main"],
            ["git", "commit", "-q", "--allow-empty", "-m", "initial"],
        ):
            subprocess.run(cmd, cwd=repo, check=True)
        engine = Engine(load_config(repo))
        engine.create_task("t", ["dev"], description="bench")
        config = engine.config
        layout = config.layout
        assert layout.dirs is not None
        worktree = layout.agent_worktree("t", "dev")
        box = gitdir.sandbox_dir(layout.agent_dir("t", "dev"))
        os.makedirs(box, exist_ok=True)

        def prepare() -> object:
            return gitdir.prepare(
                task="t",
                agent="dev",
                main=layout.main,
                common_dir=layout.dirs.common_dir if layout.dirs else "",
                worktree=worktree,
                box=box,
            )

        prepare()
        sandbox = bwrap_argv(agent_rules(config, "t", "dev"), shutil.which("bwrap") or "bwrap")
        py = [sys.executable, "-I", "-c", "pass"]

        def run(cmd: list[str]) -> Callable[[], object]:
            return lambda: subprocess.run(cmd, cwd=worktree, check=True, stderr=subprocess.DEVNULL)

        rows = [
            ("`python -I -c pass` (floor, for scale)", run(py)),
            ("`true`, unsandboxed", run(["true"])),
            ("`true` in the sandbox", run([*sandbox, "true"])),
            ("`python -I -c pass`, unsandboxed", run(py)),
            ("`python -I -c pass` in the sandbox", run([*sandbox, *py])),
            ("making the agent's git dir (`gitdir.prepare`)", prepare),
            (
                "`taskproto agent exec t dev -- true` (all of it)",
                run([sys.executable, "-m", "taskproto", "agent", "exec", "t", "dev", "--", "true"]),
            ),
            (
                "`taskproto agent exec t dev -- git commit --allow-empty` (a commit brought out)",
                run(
                    [sys.executable, "-m", "taskproto", "agent", "exec", "t", "dev", "--"]
                    + ["git", "commit", "-q", "--allow-empty", "-m", "bench"]
                ),
            ),
        ]
        from taskproto.sandbox.serve import HOOK_ENTRY, Channel

        channel = Channel(task="t", agent="dev", session="agent-t-dev", worktree=str(worktree))
        channel.start()
        tool = (
            '{"session_id": "agent-t-dev", "hook_event_name": "PreToolUse", "tool_name": "Write",'
            f' "tool_input": {{"file_path": "{worktree}/a.txt", "content": "x"}},'
            f' "cwd": "{worktree}"}}'
        ).encode()
        stop = f'{{"session_id": "agent-t-dev", "hook_event_name": "Stop", "cwd": "{worktree}"}}'

        def hook(event: str, payload: bytes, through: bool) -> Callable[[], object]:
            hook_env = {**env, "TASKPROTO_CHANNEL": channel.path} if through else env
            argv = [sys.executable, "-I", "-S", HOOK_ENTRY, "claude", event]
            return lambda: subprocess.run(
                argv, input=payload, cwd=worktree, env=hook_env, check=False, capture_output=True
            )

        rows += [
            ("`python -I -c pass` (floor, again)", run(py)),
            ("PreToolUse (a Write in the worktree), unsandboxed", hook("PreToolUse", tool, False)),
            ("the same through the agent's channel", hook("PreToolUse", tool, True)),
            ("Stop, unsandboxed", hook("Stop", stop.encode(), False)),
            ("the same through the agent's channel", hook("Stop", stop.encode(), True)),
        ]
        try:
            figures = [(name, timed(fn, args.runs)) for name, fn in rows]
        finally:
            channel.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"medians of {args.runs} runs, python {sys.version.split()[0]}")
    print("| what | ms |\n|---|---:|")
    for name, ms in figures:
        print(f"| {name} | {ms:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

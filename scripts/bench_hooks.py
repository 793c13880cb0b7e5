"""Git hook latency, as git runs the hooks: median of many runs, and the ratio to `python -I -c
pass`.

    python scripts/bench_hooks.py [--runs 40]

Builds a throwaway repository with taskproto's hooks installed and one task in
IMPLEMENTATION, then times, interleaved so load hits every case alike:
the floor (`python -I -c pass`, same interpreter); the pre-commit hook (its entry, as an
installed script would run it) on a branch that is no task's (the no-op path); the same on the task
branch with a staged file (a real guard decision: task.json, state flags,
`git diff --cached`); the same through `taskproto hook pre-commit` (the click
CLI); the installed reference-transaction script ("prepared") as a commit on `main` in the main
worktree gives it (the no-op path), the same from an agent client's session owning no task
(TASKPROTO_AGENT=1 and TASKPROTO_SESSION set, through `env`: Python asks the session's branch
rule), and as the task branch's move gives it (a guard decision);
and a no-op hook run through the pre-commit framework (`pre-commit run`
with a trivial local hook). Prints a Markdown table for docs/performance.md.
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
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.hooks.git import install
from taskproto.state.models import AgentState

PRE_COMMIT_CONFIG = """\
repos:
- repo: local
  hooks:
  - id: noop
    name: noop
    entry: "true"
    language: system
    pass_filenames: false
    always_run: true
"""


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def setup(base: Path) -> tuple[Path, Path]:
    repo = base / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "--initial-branch=main")
    git(repo, "config", "user.name", "bench")
    git(repo, "config", "user.email", "bench@example.invalid")
    (repo / ".pre-commit-config.yaml").write_text(PRE_COMMIT_CONFIG)
    git(repo, "add", ".pre-commit-config.yaml")
    git(repo, "commit", "-q", "-m", "initial")
    engine = Engine(load_config(repo))
    install.install(engine.git)
    engine.create_task("t1", agents=["a"])
    engine.claim("t1", "bench")
    for state in ("CLASSIFIED", "REQUIREMENTS", "SYNTHESIS"):
        engine.fire("t1", target=state, session="bench")
    engine.approve("t1", "plan", "bench")
    engine.fire("t1", target="IMPLEMENTATION", session="bench")
    engine.set_agent_status("t1", "a", AgentState.WORKING, session="bench")
    code = engine.config.task_worktree("t1")
    (code / "work.txt").write_text("work\n")
    git(code, "add", "work.txt")
    return repo, code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        repo, code = setup(base)
        # `init` installs no pre-commit script (reference-transaction guards every move): the
        # entry an installed script runs, as it runs it
        entry = str(Path(install.__file__).with_name("entry.py"))
        hook = [py, "-I", "-S", entry, "pre-commit"]
        env = {
            **os.environ,
            "PRE_COMMIT_HOME": str(base / "pre-commit-home"),
            "PRE_COMMIT_COLOR": "never",
        }
        env.pop("GIT_INDEX_FILE", None)
        transaction = str(repo / ".git" / "hooks" / "reference-transaction")
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True
        ).stdout.strip()
        tree = subprocess.run(
            ["git", "write-tree"], cwd=code, capture_output=True, text=True, check=True
        ).stdout.strip()
        new = subprocess.run(
            ["git", "commit-tree", tree, "-p", head, "-m", "bench"],
            cwd=code, capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
        main_move = f"{head} {new} refs/heads/main\n".encode()
        task_move = f"{head} {new} refs/heads/t1\n".encode()
        cases: list[tuple[str, list[str], Path, bytes | None]] = [
            ("`python -I -c pass` (floor)", [py, "-I", "-c", "pass"], repo, None),
            ("pre-commit hook, branch of no task (no-op)", hook, repo, None),
            ("pre-commit hook, task branch (guard decision)", hook, code, None),
            (
                "`taskproto hook pre-commit`, task branch (click CLI)",
                [py, "-m", "taskproto", "hook", "pre-commit"],
                code,
                None,
            ),
            (
                "reference-transaction hook, `main` moves in the main worktree (no-op)",
                [transaction, "prepared"],
                repo,
                main_move,
            ),
            (
                "reference-transaction hook, `main` moves, from an agent session owning no task",
                ["env", "TASKPROTO_AGENT=1", "TASKPROTO_SESSION=another", transaction, "prepared"],
                repo,
                main_move,
            ),
            (
                "reference-transaction hook, the task branch moves (guard decision)",
                [transaction, "prepared"],
                code,
                task_move,
            ),
        ]
        if shutil.which("pre-commit"):
            cases.append(
                ("pre-commit framework, one no-op hook", ["pre-commit", "run", "noop"], repo, None)
            )
        for _, cmd, cwd, data in cases:  # warm caches (.pyc, the flag cache, pre-commit's store)
            subprocess.run(cmd, cwd=cwd, env=env, input=data, capture_output=True, check=False)
        times: dict[str, list[float]] = {name: [] for name, _, _, _ in cases}
        for _ in range(args.runs):
            for name, cmd, cwd, data in cases:
                start = time.perf_counter()
                proc = subprocess.run(
                    cmd, cwd=cwd, env=env, input=data, capture_output=True, check=False
                )
                times[name].append(time.perf_counter() - start)
                if proc.returncode != 0:
                    raise SystemExit(f"{name} failed: {proc.stderr.decode()}")
        floor = statistics.median(times[cases[0][0]])
        print(f"python {sys.version.split()[0]}, git hooks, median of {args.runs} runs\n")
        print("| case | median ms | × floor |")
        print("|---|---:|---:|")
        for name, _, _, _ in cases:
            median = statistics.median(times[name])
            print(f"| {name} | {median * 1000:.1f} | {median / floor:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

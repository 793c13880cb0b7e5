"""How long `taskproto verify --all` takes over many landed tasks, their approvals signed (#42).

    python scripts/bench_verify.py [--tasks 100] [--runs 5] [--keep DIR]

Builds a throwaway repository with SSH signing set up as docs/verify.md says (a key made by
`ssh-keygen -t ed25519 -N ''`, `gpg.format ssh`, `user.signingkey`, an allowed-signers file),
then walks `--tasks` tasks of task-protocol with one agent each through the engine, as a user
would: the plan approved, one agent commit merged, the commit approved, COMPLETE, landed (merge).
Each task's journal then holds 15 commits, three of them signed (the two approvals, the land).
Then times, as the median of `--runs` runs of a fresh process each (what a user waits for):

- the floor, `python -I -c pass`;
- `taskproto verify --all` in the repository;
- `taskproto verify --all --allowed-signers FILE` in a bare clone that fetched only
  `refs/taskproto/*`.

Prints a Markdown table for docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "b",
    "GIT_AUTHOR_EMAIL": "b@x",
    "GIT_COMMITTER_NAME": "b",
    "GIT_COMMITTER_EMAIL": "b@x",
    "GIT_CONFIG_NOSYSTEM": "1",
    "TASKPROTO_TERMINAL_SESSION": "0",
}
WALK = ("CLASSIFIED", "REQUIREMENTS", "SYNTHESIS", "IMPLEMENTATION")
AFTER_MERGE = ("VALIDATION", "REVIEW", "AWAITING_USER_APPROVAL")


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, check=True, env=ENV, text=True
    ).stdout


def build(base: Path, tasks: int) -> tuple[Path, Path]:
    """The repository with `tasks` landed tasks, and its allowed-signers file."""
    os.environ.update(ENV)
    key = base / "key"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    allowed = base / "allowed_signers"
    allowed.write_text(f"bench@example.invalid {(base / 'key.pub').read_text().strip()}\n")
    repo = base / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "--initial-branch=main")
    git(repo, "commit", "-q", "--allow-empty", "-m", "initial")
    git(repo, "config", "gpg.format", "ssh")
    git(repo, "config", "user.signingkey", f"{key}.pub")
    git(repo, "config", "gpg.ssh.allowedSignersFile", str(allowed))

    from taskproto.config import load_config
    from taskproto.engine import Engine
    from taskproto.state.models import AgentState

    engine = Engine(load_config(repo))
    start = time.perf_counter()
    for i in range(tasks):
        name = f"t{i:03d}"
        engine.create_task(name, ["dev"], description=f"task {i}")
        engine.claim(name, "s1")
        for state in WALK:
            if state == "IMPLEMENTATION":
                engine.approve(name, "plan", "user")
            engine.fire(name, target=state, session="s1")
        worktree = engine.config.agent_worktree(name, "dev")
        (worktree / f"{name}.txt").write_text(f"{i}\n")
        git(worktree, "add", f"{name}.txt")
        git(worktree, "commit", "-q", "-m", f"work of {name}")
        engine.merge(name, session="s1")
        engine.set_agent_status(name, "dev", AgentState.COMPLETE, session="s1")  # type: ignore[arg-type]
        for state in AFTER_MERGE:
            engine.fire(name, target=state, session="s1")
        engine.approve(name, "commit", "user")
        engine.fire(name, target="COMPLETE", session="s1")
        engine.land(name)
        if (i + 1) % 10 == 0:
            print(f"  {i + 1} tasks landed ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    return repo, allowed


def timed(cmd: list[str], cwd: Path, runs: int) -> float:
    """Median milliseconds of `cmd` (its exit status must be 0)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(cmd, cwd=cwd, capture_output=True, env=ENV, check=False)
        times.append((time.perf_counter() - start) * 1000)
        if proc.returncode != 0:
            raise SystemExit(
                f"{' '.join(cmd)} failed: {proc.stdout.decode()} {proc.stderr.decode()}"
            )
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--keep",
        type=Path,
        help="build in this folder and keep it (a folder built already: reused)",
    )
    args = parser.parse_args()
    base = args.keep or Path(tempfile.mkdtemp(prefix="bench-verify-"))
    base.mkdir(parents=True, exist_ok=True)
    repo, allowed, clone = base / "repo", base / "allowed_signers", base / "audit.git"
    if not clone.is_dir():
        print(f"building {args.tasks} landed tasks in {base} ...", file=sys.stderr)
        repo, allowed = build(base, args.tasks)
        git(base, "init", "-q", "--bare", str(clone))
        git(clone, "fetch", "-q", str(repo), "refs/taskproto/*:refs/taskproto/*")
    taskproto = [sys.executable, "-m", "taskproto", "verify", "--all"]
    floor = timed([sys.executable, "-I", "-c", "pass"], base, args.runs)
    here = timed(taskproto, repo, args.runs)
    bare = timed([*taskproto, "--allowed-signers", str(allowed)], clone, args.runs)
    commits = len(git(repo, "rev-list", "--all", "--glob=refs/taskproto/*").split())
    load = os.getloadavg()[0]
    tasks = len(git(repo, "for-each-ref", "refs/taskproto/archive/").splitlines())
    print(
        f"\n{tasks} landed tasks, {commits} journal and code commits, "
        f"{3 * tasks} signed journal commits; median of {args.runs} runs; "
        f"python {sys.version.split()[0]}, {git(base, '--version').strip()}, "
        f"{os.cpu_count()} cores, load average {load:.1f}\n"
    )
    print("| what | ms |\n|---|---:|")
    print(f"| `python -I -c pass` (floor) | {floor:.0f} |")
    print(f"| `taskproto verify --all` (the repository) | {here:.0f} |")
    print(f"| `taskproto verify --all --allowed-signers FILE` (a bare clone) | {bare:.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

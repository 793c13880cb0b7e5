"""What the git hooks add to a commit under each `sh` (issue #39): bash (as macOS's /bin/sh is),
dash and busybox, against the floor `python -I -c pass`.

    python scripts/bench_shells.py [--runs 15] [--python PATH]

One repository per shell, set up as `taskproto init` sets it up (its git hooks, 20 tasks, a
commit on `main`, a branch of no task: the commit row of docs/performance.md), with the installed
hooks started by a link named `sh` to the shell (so bash runs in its POSIX mode, as /bin/sh).
Each run times, interleaved: the floor, `git commit --allow-empty` with the hooks, the same with
`core.hooksPath` at a folder of trivial hooks (the installed names, each `#!sh` + `exit 0`: what
git's start of the shell costs, whatever the script does), and at an empty folder. Prints
Markdown: the medians and the hooks' share of the floor.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)

SHELLS = ("bash", "dash", "busybox")
COMMIT = ["commit", "-q", "--allow-empty", "-m", "bench"]


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def setup(base: Path, shell: str, python: str) -> Path | None:
    found = shutil.which(shell)
    if found is None:
        return None
    folder = base / shell
    repo = folder / "repo"
    repo.mkdir(parents=True)
    link = folder / "sh"
    link.symlink_to(found)
    git(repo, "init", "-q", "--initial-branch=main")
    git(repo, "config", "commit.gpgsign", "false")
    git(repo, "commit", "-q", "--allow-empty", "-m", "initial")
    env = {**os.environ, "TASKPROTO_IGNORE_AGENT_ANCESTRY": "1"}
    for args in (["init"], *(["task", "create", f"t{i}"] for i in range(20))):
        done = subprocess.run(
            [python, "-m", "taskproto", *args], cwd=repo, env=env, capture_output=True, text=True
        )
        if done.returncode != 0:
            raise SystemExit(f"{shell}: {' '.join(args)} failed: {done.stderr}")
    from taskproto.hooks.git.handlers import GIT_HOOKS  # the hooks taskproto installs

    hooks = repo / ".git" / "hooks"
    for name in GIT_HOOKS:
        script = hooks / name
        if script.exists():
            text = script.read_text()
            script.write_text(f"#!{link}\n" + text.split("\n", 1)[1])
    (folder / "empty").mkdir()
    trivial = folder / "trivial"
    trivial.mkdir()
    for script in hooks.iterdir():
        if script.name in GIT_HOOKS:
            (trivial / script.name).write_text(f"#!{link}\nexit 0\n")
            (trivial / script.name).chmod(0o755)
    return repo


def timed(argv: list[str], cwd: Path, cpu: dict[str, list[float]], key: str) -> float:
    """The wall time in ms; the CPU time (user + system) of the processes it started goes to
    `cpu[key]`: on a loaded machine wall times stretch, CPU times much less."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, cwd=cwd, check=True, capture_output=True)
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    cpu.setdefault(key, []).append(used * 1000)
    return wall


def install_line() -> str:
    from taskproto.hooks.git.install import shell_line

    return shell_line()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="interleaved runs (default 15)")
    parser.add_argument("--python", default=sys.executable, help="the venv's python")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-shells-") as tmp:
        repos = {s: r for s in SHELLS if (r := setup(Path(tmp), s, args.python)) is not None}
        times: dict[tuple[str, str], list[float]] = {}
        cpu: dict[str, list[float]] = {}
        for _ in range(args.runs):
            floor = [args.python, "-I", "-c", "pass"]
            times.setdefault(("", "floor"), []).append(timed(floor, Path(tmp), cpu, "floor"))
            for shell, repo in repos.items():
                empty, trivial = repo.parent / "empty", repo.parent / "trivial"
                times.setdefault((shell, "hooks"), []).append(
                    timed(["git", *COMMIT], repo, cpu, f"{shell} hooks")
                )
                plain = ["git", "-c", f"core.hooksPath={trivial}", *COMMIT]
                times.setdefault((shell, "trivial"), []).append(
                    timed(plain, repo, cpu, f"{shell} trivial")
                )
                off = ["git", "-c", f"core.hooksPath={empty}", *COMMIT]
                times.setdefault((shell, "none"), []).append(timed(off, repo, cpu, f"{shell} none"))
        med = {k: statistics.median(v) for k, v in times.items()}
        names = sorted(p.name for p in (next(iter(repos.values())).parent / "trivial").iterdir())
        cmed = {k: statistics.median(v) for k, v in cpu.items()}
    floor = med[("", "floor")]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"python {platform.python_version()}, {os.cpu_count()} cores, load average {load} "
        f"(1/5/15 min) at the end; median of {args.runs} interleaved runs\n"
    )
    print(
        "| `sh` | commit with hooks ms | without ms | the hooks add ms | × floor "
        "| CPU ms the hooks add | × the floor's CPU |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for shell in repos:
        none = med[(shell, "none")]
        for kind, label in (("hooks", shell), ("trivial", f"{shell}, trivial `exit 0` hooks")):
            hooks = med[(shell, kind)]
            used = cmed[f"{shell} {kind}"] - cmed[f"{shell} none"]
            print(
                f"| {label} | {hooks:.1f} | {none:.1f} | {hooks - none:.1f} | "
                f"{(hooks - none) / floor:.2f}× | {used:.1f} | {used / cmed['floor']:.2f}× |"
            )
    print(
        f"\nfloor `python -I -c pass`: {floor:.1f} ms wall, {cmed['floor']:.1f} ms CPU; "
        f"the installer here starts the hooks with `{install_line()}`; the trivial hooks: the "
        f"same names ({', '.join(names)}), each `#!sh` and `exit 0`"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

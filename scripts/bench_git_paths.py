"""Which git path is faster for each job: GitPython, one git process, or the standard library.

    python scripts/bench_git_paths.py [--runs 15] [--tasks 200]

Builds a throwaway repository with `--tasks` journal refs, then times, each as the median
of `--runs` runs in this process (the floor `python -I -c pass` is timed the same way,
as a subprocess, for scale):

- importing GitPython (a fresh interpreter that imports `git`, minus the floor);
- reading every journal head's task.json: GitPython's persistent `cat-file --batch`,
  one `git cat-file --batch` process, and one `git cat-file blob` per task;
- "does branch X exist": GitPython's in-process ref reading vs `git show-ref`;
- "where does branch X point": reading `.git` with the standard library vs `git rev-parse`;
- writing one journal commit: git plumbing (hash-object, mktree, commit-tree, update-ref)
  vs GitPython's object database in-process plus one `git update-ref`, vs taskproto's own
  loose objects (git/objects.py) with `git update-ref` or with the ref moved in-process too.

Prints a Markdown table for docs/architecture.md.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from taskproto.git import objects, reffiles  # noqa: E402
from taskproto.git.command import Git  # noqa: E402
from taskproto.git.files import find_repo  # noqa: E402
from taskproto.git.repo import Repo  # noqa: E402

ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "b",
    "GIT_AUTHOR_EMAIL": "b@x",
    "GIT_COMMITTER_NAME": "b",
    "GIT_COMMITTER_EMAIL": "b@x",
}


def git(cwd: Path, *args: str, data: bytes | None = None) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, input=data, capture_output=True, check=True, env=ENV
    ).stdout.decode()


def build(base: Path, tasks: int) -> Path:
    repo = base / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "--initial-branch=main")
    git(repo, "commit", "-q", "--allow-empty", "-m", "i")
    lines = []
    for i in range(tasks):
        blob = git(repo, "hash-object", "-w", "--stdin", data=b'{"name": "t%d"}\n' % i).strip()
        tree = git(repo, "mktree", data=f"100644 blob {blob}\ttask.json\n".encode()).strip()
        commit = git(repo, "commit-tree", tree, "-m", "create").strip()
        lines.append(f"create refs/taskproto/tasks/t{i} {commit}\n")
    git(repo, "update-ref", "--stdin", data="".join(lines).encode())
    return repo


def median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--tasks", type=int, default=200)
    args = parser.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        repo = build(Path(tmp), args.tasks)
        refs = [f"refs/taskproto/tasks/t{i}" for i in range(args.tasks)]
        specs = [f"{r}:task.json" for r in refs]
        command = Git(repo)
        rows: list[tuple[str, float]] = []

        def spawn(code: str) -> None:
            subprocess.run([py, "-I", "-c", code], check=True)

        floor = median_ms(lambda: spawn("pass"), args.runs)
        rows.append(("`python -I -c pass` (floor, for scale)", floor))
        rows.append(
            (
                "importing GitPython (`import git`, minus the floor)",
                median_ms(lambda: spawn("import git"), args.runs) - floor,
            )
        )

        def gitpython_read() -> None:
            r = Repo(repo)
            r.blobs(specs)
            r.close()

        rows.append(
            (
                f"read {args.tasks} task.json blobs: GitPython persistent cat-file (+ open)",
                median_ms(gitpython_read, args.runs),
            )
        )
        batch = ("\n".join(specs) + "\n").encode()
        rows.append(
            (
                f"read {args.tasks} task.json blobs: one `git cat-file --batch`",
                median_ms(lambda: git(repo, "cat-file", "--batch", data=batch), args.runs),
            )
        )
        some = specs[:20]
        per_blob = median_ms(lambda: [git(repo, "cat-file", "blob", s) for s in some], 3) / len(
            some
        )
        rows.append(
            (
                f"read {args.tasks} task.json blobs: one `git cat-file blob` each",
                per_blob * args.tasks,
            )
        )
        opened = Repo(repo)
        opened.branch_exists("main")  # load the refs once, as a long-lived engine would
        rows.append(
            (
                "branch exists: GitPython, in-process (repository open)",
                median_ms(lambda: opened.branch_exists("main"), args.runs),
            )
        )
        rows.append(
            (
                "branch exists: `git show-ref --verify`",
                median_ms(
                    lambda: command.ok("show-ref", "--verify", "--quiet", "refs/heads/main"),
                    args.runs,
                ),
            )
        )
        dirs = find_repo(str(repo))
        assert dirs is not None
        rows.append(
            (
                "branch head: standard library (git/files.py)",
                median_ms(lambda: dirs.branch_sha("main"), args.runs),
            )
        )
        rows.append(
            (
                "branch head: `git rev-parse --verify`",
                median_ms(lambda: command.ref_sha("refs/heads/main"), args.runs),
            )
        )
        data = repo / "task.json"
        data.write_bytes(b'{"name": "x"}\n' * 50)
        counter = iter(range(10**6))

        def plumbing() -> None:
            ref = f"refs/taskproto/bench/p{next(counter)}"
            (blob,) = command.write_blobs([data])
            tree = command.mktree([("100644", blob, "task.json")])
            commit = command.commit_tree(tree, None, "x")
            command.update_ref(ref, commit, None)

        def in_process() -> None:
            import git as gitpython
            from gitdb.base import IStream

            r = opened.repo
            content = data.read_bytes()
            blob = r.odb.store(IStream(b"blob", len(content), io.BytesIO(content))).binsha
            tree_data = b"100644 task.json\0" + blob
            tree = r.odb.store(IStream(b"tree", len(tree_data), io.BytesIO(tree_data))).hexsha
            body = b"tree %s\nauthor b <b@x> 0 +0000\ncommitter b <b@x> 0 +0000\n\nx\n" % tree
            commit = r.odb.store(IStream(b"commit", len(body), io.BytesIO(body))).hexsha
            assert isinstance(gitpython.__version__, str)
            command.update_ref(f"refs/taskproto/bench/g{next(counter)}", commit.decode(), None)

        def standard_library(move_in_process: bool) -> Callable[[], object]:
            def write() -> None:
                # new bytes every time, as every revision of a task.json is (no object is reused)
                n = next(counter)
                common = dirs.common_dir
                blob = objects.write(common, "blob", data.read_bytes() + b"%d\n" % n)
                tree = objects.write(common, "tree", objects.tree([("task.json", blob)]))
                commit = objects.write(common, "commit", objects.commit(tree, None, "x"))
                ref = f"refs/taskproto/bench/s{n}"
                if not (move_in_process and reffiles.update(dirs, ref, commit, None)):
                    command.update_ref(ref, commit, None)

            return write

        rows.append(("journal commit: plumbing (4 git processes)", median_ms(plumbing, args.runs)))
        rows.append(
            (
                "journal commit: objects in-process (git/objects.py) + 1 `git update-ref`",
                median_ms(standard_library(False), args.runs),
            )
        )
        rows.append(
            (
                "journal commit: objects and ref in-process (git/objects.py, git/reffiles.py)",
                median_ms(standard_library(True), args.runs),
            )
        )
        rows.append(
            (
                "journal commit: GitPython objects in-process + 1 `git update-ref`",
                median_ms(in_process, args.runs),
            )
        )
        git(repo, "fsck", "--strict")
    print(
        f"python {sys.version.split()[0]}, git {git(Path('.'), '--version').split()[-1]}, "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}, median of {args.runs}"
    )
    print("\n| path | ms |\n|---|---:|")
    for label, ms in rows:
        print(f"| {label} | {ms:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

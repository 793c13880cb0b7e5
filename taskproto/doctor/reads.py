"""The snapshot's git reads: one plain git process each, however many tasks.

One `git for-each-ref`, started before doctor reads the task folders and read after, and one
`git cat-file --batch` fed every `<rev>:<path>` at once (its answers come back in the same order),
started before the worktrees are read and read after. The worktrees are read from git's own files
(git/worktrees.py), not by `git worktree list`: git 2.39 loads the whole packed-refs file again for
each worktree's HEAD, 3.6 GB of memory at 10,000 tasks (docs/performance.md). No GitPython:
importing it and the `git version` calls it makes cost more than the reads themselves; the repairs
still use it (`git/repo.py`).
"""

from __future__ import annotations

import fcntl
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO

from taskproto.errors import GitError
from taskproto.git.files import INTERNAL, find_repo, git_environ
from taskproto.git.worktrees import WorktreeInfo, read_worktrees

HEX = frozenset(b"0123456789abcdef")


PIPE_SIZE = 1 << 20  # Linux's default limit for a pipe's buffer (/proc/sys/fs/pipe-max-size)


def _enlarge(pipe: IO[bytes] | None) -> int:
    """Grow `pipe`'s buffer to PIPE_SIZE where the system allows; the size it has (0: unknown)."""
    setter = getattr(fcntl, "F_SETPIPE_SZ", None)  # Linux only
    if pipe is None or setter is None:
        return 0
    try:
        return int(fcntl.fcntl(pipe.fileno(), setter, PIPE_SIZE))
    except OSError:
        return 0


class Started:
    """A git command started now and read later, through pipes (no file on disk, no thread): their
    buffers are grown so git writes its whole answer (and takes its whole input) without waiting
    for doctor, and runs to its end on the other core while doctor reads the task folders. Where a
    pipe cannot be grown, git waits for `output()` (an input that would not fit is sent then)."""

    def __init__(self, repo: Path, *args: str, input: bytes | None = None) -> None:
        self.cmd = ["git", *args]
        self.proc = subprocess.Popen(
            self.cmd,
            cwd=repo,
            stdin=subprocess.DEVNULL if input is None else subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**git_environ(), INTERNAL: "1"},
        )
        self.input = input
        self.answer: tuple[bytes, bytes] | None = None
        out = _enlarge(self.proc.stdout)
        if input is not None and out and _enlarge(self.proc.stdin) >= len(input):
            stdin, self.proc.stdin = self.proc.stdin, None
            assert stdin is not None
            try:
                with stdin:
                    stdin.write(input)  # fits in the pipe: git reads it while doctor goes on
            except BrokenPipeError:
                pass  # git ended early; output() says why
            self.input = None

    def wait(self) -> tuple[bytes, bytes]:
        """Until it has ended: its stdout and stderr."""
        if self.answer is None:
            self.answer = self.proc.communicate(self.input)
        return self.answer

    def output(self) -> bytes:
        """Its stdout, once it has ended (GitError when it failed)."""
        out, err = self.wait()
        if self.proc.returncode != 0:
            raise GitError(
                self.cmd,
                self.proc.returncode,
                out.decode("utf-8", "replace").strip(),
                err.decode("utf-8", "replace").strip(),
            )
        return out

    def text(self) -> str:
        """The output as text (paths undecodable as UTF-8 keep their bytes, as os does)."""
        return self.output().decode("utf-8", "surrogateescape")


def git(repo: Path, *args: str, input: bytes | None = None) -> bytes:
    """One git command in `repo`; its stdout (GitError when it fails)."""
    cmd = ["git", *args]
    proc = subprocess.run(
        cmd,
        cwd=repo,
        input=input,
        capture_output=True,
        env={**git_environ(), INTERNAL: "1"},
        check=False,
    )
    if proc.returncode != 0:
        raise GitError(
            cmd,
            proc.returncode,
            proc.stdout.decode("utf-8", "replace").strip(),
            proc.stderr.decode("utf-8", "replace").strip(),
        )
    return proc.stdout


def text(repo: Path, *args: str) -> str:
    """`git` with its output as text (paths undecodable as UTF-8 keep their bytes, as os does)."""
    return git(repo, *args).decode("utf-8", "surrogateescape")


def worktrees(repo: Path, refs: Mapping[str, str]) -> list[WorktreeInfo]:
    """The worktrees as `git worktree list --porcelain` lists them, read from git's files
    (git/worktrees.py), each branch's tip from `refs` (every branch, from `start_refs`)."""
    dirs = find_repo(str(repo))
    if dirs is None:
        raise GitError(["git", "worktree", "list"], 128, "", f"not a git repository: {repo}")
    return read_worktrees(dirs, refs)


def start_refs(repo: Path, *patterns: str) -> Started:
    """One `git for-each-ref` of every ref under `patterns`, started; `refs()` reads it."""
    return Started(repo, "for-each-ref", "--format=%(objectname) %(refname)", *patterns)


def refs(started: Started) -> dict[str, str]:
    """Each ref with its object."""
    result: dict[str, str] = {}
    for line in started.text().splitlines():
        sha, _, ref = line.partition(" ")
        if ref:
            result[ref] = sha
    return result


def _found(header: bytes) -> tuple[bytes, int] | None:
    """(type, size) from `<oid> <type> <size>`; None for `<spec> missing` (or ambiguous)."""
    parts = header.split(b" ")
    if len(parts) != 3 or not parts[2].isdigit() or not HEX.issuperset(parts[0]):
        return None
    return parts[1], int(parts[2])


def start_blobs(repo: Path, specs: Sequence[str]) -> Started | None:
    """One `git cat-file --batch` for every `<rev>:<path>` of `specs`, started (None: nothing to
    ask, no process); `blobs()` reads its answers."""
    if not specs:
        return None
    return Started(repo, "cat-file", "--batch", input="".join(f"{s}\n" for s in specs).encode())


def blobs(started: Started | None, specs: Sequence[str], repo: Path) -> list[bytes | None]:
    """The blob of each of `specs` (None: missing, not a blob, or an object git cannot read), in
    their order. git's `cat-file --batch` stops at the first object it finds corrupt, after
    answering those before it: that one is None, so are the others in the same commit, and the
    rest are asked again (one more process per unreadable commit, none when there is none)."""
    result: list[bytes | None] = []
    while started is not None:
        out, _ = started.wait()
        rest = specs[len(result) :]
        result += _answers(out, rest)
        if len(result) == len(specs):
            break
        if started.proc.returncode == 0:  # it ended well without answering: not git's batch
            raise GitError(started.cmd, 0, "", f"no answer for {specs[len(result)]}")
        if not result:  # not one answer: git may not run here at all (GitError if so)
            Started(repo, "rev-parse", "--git-dir").output()
        # the object it stopped at, and the rest of its commit (doctor names the task)
        rev = specs[len(result)].partition(":")[0]
        while len(result) < len(specs) and specs[len(result)].partition(":")[0] == rev:
            result.append(None)
        started = start_blobs(repo, specs[len(result) :])
    return result


def _answers(out: bytes, specs: Sequence[str]) -> list[bytes | None]:
    """The whole answers in `out` to the first of `specs` (it may stop early)."""
    result: list[bytes | None] = []
    pos = 0
    for _ in specs:
        end = out.find(b"\n", pos)
        if end < 0:
            break
        found = _found(out[pos:end])
        if found is None:
            result.append(None)
            pos = end + 1
            continue
        kind, size = found
        if end + 1 + size > len(out):
            break  # cut short
        result.append(out[end + 1 : end + 1 + size] if kind == b"blob" else None)
        pos = end + 1 + size + 1  # the object, then a newline
    return result

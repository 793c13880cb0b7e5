"""The snapshot's git reads: one plain git process each, however many tasks.

`git worktree list --porcelain` and one `git for-each-ref`, both started before doctor reads the
task folders and read after (git lists 3,000 worktrees in ~0.2 s, which then costs no wall time),
and one `git cat-file --batch` fed every `<rev>:<path>` at once (its answers come back in the same
order), started before the worktree listing is parsed and read after. No GitPython: importing it
and the `git version` calls it makes cost more than the reads themselves; the repairs still use it
(`git/repo.py`).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from taskproto.errors import GitError
from taskproto.git.files import INTERNAL
from taskproto.git.repo import WorktreeInfo, parse_worktrees

HEX = frozenset(b"0123456789abcdef")


class Started:
    """A git command started now and read later: its output goes to a temporary file, so it runs
    to its end on the other core while doctor reads the task folders."""

    def __init__(self, repo: Path, *args: str, input: bytes | None = None) -> None:
        self.cmd = ["git", *args]
        self.out, self.err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
        with tempfile.TemporaryFile() as stdin:
            if input is not None:
                stdin.write(input)
                stdin.seek(0)
            self.proc = subprocess.Popen(
                self.cmd,
                cwd=repo,
                stdin=stdin if input is not None else subprocess.DEVNULL,
                stdout=self.out,
                stderr=self.err,
                env={**os.environ, INTERNAL: "1"},
            )

    def output(self) -> bytes:
        """Its stdout, once it has ended (GitError when it failed)."""
        status = self.proc.wait()
        with self.out, self.err:
            self.out.seek(0)
            self.err.seek(0)
            out, err = self.out.read(), self.err.read()
        if status != 0:
            raise GitError(
                self.cmd,
                status,
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
        env={**os.environ, INTERNAL: "1"},
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


def start_worktrees(repo: Path) -> Started:
    """`git worktree list --porcelain`, started; `worktrees()` reads it."""
    return Started(repo, "worktree", "list", "--porcelain")


def worktrees(started: Started) -> list[WorktreeInfo]:
    return parse_worktrees(started.text())


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


def blobs(started: Started | None, specs: Sequence[str]) -> list[bytes | None]:
    """The blob of each of `specs` (None: missing, or not a blob), in their order."""
    if started is None:
        return []
    out = started.output()
    result: list[bytes | None] = []
    pos = 0
    for spec in specs:
        end = out.find(b"\n", pos)
        if end < 0:
            raise GitError(started.cmd, 0, "", f"no answer for {spec}")
        found = _found(out[pos:end])
        pos = end + 1
        if found is None:
            result.append(None)
            continue
        kind, size = found
        result.append(out[pos : pos + size] if kind == b"blob" else None)
        pos += size + 1  # the object, then a newline
    return result

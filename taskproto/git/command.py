"""Single git commands for the fast paths: reading a ref, a journal commit's plumbing, the remote.

Each call is one `git` process and no GitPython import (~50 ms), which the hook and
transition paths cannot afford; the engine's heavier work goes through `git/repo.py`.
Every failure becomes a GitError carrying the command, the exit status and stderr.
"""

from __future__ import annotations

import os

from taskproto.errors import GitError
from taskproto.git.files import INTERNAL, git_environ

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence
    from pathlib import Path

ZERO_OID = "0" * 40
# `subprocess` is imported by the methods that start git: a transition starts none, and the
# import is ~2 ms of its start-up.


class Running:
    """A git process `Git.start` started; `wait` ends it as `Git.run` would have."""

    def __init__(self, cmd: list[str], pid: int, out: int, err: int) -> None:
        self.cmd = cmd
        self.pid = pid
        self._read = {out: bytearray(), err: bytearray()}
        self._out, self._err = out, err

    def wait(self) -> str:
        """Git's output, once it exited; GitError when it failed."""
        import select  # a C module: not `selectors`, which subprocess's communicate imports

        try:
            poll = select.poll()
            for fd in self._read:
                poll.register(fd, select.POLLIN)
            left = len(self._read)
            while left:  # both pipes read as they fill: git never blocks on a full one
                for fd, _ in poll.poll():
                    chunk = os.read(fd, 65536)
                    if chunk:
                        self._read[fd] += chunk
                    else:
                        poll.unregister(fd)
                        left -= 1
        finally:
            for fd in self._read:
                os.close(fd)
            _, status = os.waitpid(self.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        out = self._read[self._out].decode("utf-8", "replace")
        if code != 0:
            raise GitError(self.cmd, code, out, self._read[self._err].decode("utf-8", "replace"))
        return out


class Git:
    """Runs git in one repository (or worktree) folder, given as an absolute path (a str or a
    Path: a quick change imports no pathlib)."""

    def __init__(self, cwd: str | os.PathLike[str]) -> None:
        self.cwd = os.path.abspath(cwd)

    def run(
        self,
        *args: str,
        input: str | bytes | None = None,
        check: bool = True,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
    ) -> str:
        cmd = ["git", *args]
        full_env = {**git_environ(), INTERNAL: "1", **(env or {})}
        data = input.encode() if isinstance(input, str) else input
        import subprocess

        proc = subprocess.run(
            cmd,
            cwd=cwd or self.cwd,
            input=data,
            capture_output=True,
            env=full_env,
            check=False,
        )
        out = proc.stdout.decode("utf-8", "replace")
        if check and proc.returncode != 0:
            raise GitError(cmd, proc.returncode, out, proc.stderr.decode("utf-8", "replace"))
        return out

    def start(self, *args: str) -> Running:
        """Start `git ARGS` as `run` would and return at once: the caller works while git does
        (`task create` writes its journal commit during `git worktree add`), then `wait`s.
        Spawned with `os.posix_spawnp`, not `subprocess`, whose import (with `signal`, `enum`,
        `threading`, `selectors`, `locale`) would come before git starts."""
        import _signal  # type: ignore[import-not-found]  # the C half: `signal` imports `enum`

        out_r, out_w = os.pipe()  # not inherited: git gets only the ends dup2 gives it
        err_r, err_w = os.pipe()
        try:
            pid = os.posix_spawnp(
                "git",
                ["git", "-C", self.cwd, *args],  # posix_spawn has no working folder: git's own
                {**git_environ(), INTERNAL: "1"},
                file_actions=[(os.POSIX_SPAWN_DUP2, out_w, 1), (os.POSIX_SPAWN_DUP2, err_w, 2)],
                setsigdef=(_signal.SIGPIPE, _signal.SIGXFSZ),  # as subprocess restores them
            )
        except BaseException:
            os.close(out_r)
            os.close(err_r)
            raise
        finally:
            os.close(out_w)
            os.close(err_w)
        return Running(["git", *args], pid, out_r, err_r)

    def ok(self, *args: str) -> bool:
        import subprocess

        proc = subprocess.run(
            ["git", *args],
            cwd=self.cwd,
            capture_output=True,
            check=False,
            env={**git_environ(), INTERNAL: "1"},
        )
        return proc.returncode == 0

    # --- repository layout -------------------------------------------------

    def common_dir(self) -> Path:
        from pathlib import Path

        out = self.run("rev-parse", "--path-format=absolute", "--git-common-dir").strip()
        return Path(out)

    # --- refs and objects -------------------------------------------------

    def rev_parse(self, rev: str) -> str | None:
        import subprocess

        proc = subprocess.run(
            ["git", "rev-parse", "--verify", "--quiet", rev + "^{commit}"],
            cwd=self.cwd,
            capture_output=True,
            check=False,
            env={**git_environ(), INTERNAL: "1"},
        )
        return proc.stdout.decode().strip() if proc.returncode == 0 else None

    def ref_sha(self, ref: str) -> str | None:
        import subprocess

        proc = subprocess.run(
            ["git", "rev-parse", "--verify", "--quiet", ref],
            cwd=self.cwd,
            capture_output=True,
            check=False,
            env={**git_environ(), INTERNAL: "1"},
        )
        return proc.stdout.decode().strip() if proc.returncode == 0 else None

    def for_each_ref(self, pattern: str, fmt: str = "%(refname) %(objectname)") -> list[str]:
        return [
            line
            for line in self.run("for-each-ref", f"--format={fmt}", pattern).splitlines()
            if line
        ]

    def update_ref(self, ref: str, new: str, old: str | None, message: str = "taskproto") -> None:
        """Compare-and-swap: set `ref` to `new` only if it is `old` now (None: must not exist)."""
        self.run("update-ref", "-m", message, ref, new, old or ZERO_OID)

    def delete_ref(self, ref: str, old: str | None = None) -> None:
        args = ["update-ref", "-d", ref]
        if old:
            args.append(old)
        self.run(*args)

    def write_blobs(self, paths: Sequence[Path]) -> list[str]:
        out = self.run(
            "hash-object",
            "-w",
            "--stdin-paths",
            "--no-filters",
            input="\n".join(str(p) for p in paths) + "\n",
        )
        return out.split()

    def write_blob_bytes(self, data: bytes) -> str:
        return self.run("hash-object", "-w", "--stdin", "--no-filters", input=data).strip()

    def mktree(self, entries: Iterable[tuple[str, str, str]]) -> str:
        """entries: (mode, sha, name) for blobs or trees in one folder."""
        lines = []
        for mode, sha, name in entries:
            kind = "tree" if mode == "040000" else "blob"
            lines.append(f"{mode} {kind} {sha}\t{name}")
        return self.run("mktree", input="\n".join(lines) + "\n").strip()

    def commit_tree(self, tree: str, parent: str | None, message: str) -> str:
        args = ["commit-tree", tree, "-m", message]
        if parent:
            args[2:2] = ["-p", parent]
        env = {
            "GIT_AUTHOR_NAME": "taskproto",
            "GIT_AUTHOR_EMAIL": "taskproto@localhost",
            "GIT_COMMITTER_NAME": "taskproto",
            "GIT_COMMITTER_EMAIL": "taskproto@localhost",
        }
        return self.run(*args, env=env).strip()

    def show_file(self, rev: str, path: str) -> bytes | None:
        import subprocess

        proc = subprocess.run(
            ["git", "cat-file", "blob", f"{rev}:{path}"],
            cwd=self.cwd,
            capture_output=True,
            check=False,
            env={**git_environ(), INTERNAL: "1"},
        )
        return proc.stdout if proc.returncode == 0 else None


# --- remotes ---------------------------------------------------------------
# Network calls never prompt: a missing credential must fail, not hang a hook.
REMOTE_ENV = {"GIT_TERMINAL_PROMPT": "0", "GIT_SSH_COMMAND": "ssh -o BatchMode=yes"}


class PushStatus:
    """One ref's line of `git push --porcelain`: flag ('!' rejected, '*' new, '-' deleted, ' ', '+',
    '='). A plain class: `dataclasses` costs a transition ~10 ms of imports (inspect)."""

    __slots__ = ("ref", "flag", "summary")

    def __init__(self, ref: str, flag: str, summary: str) -> None:
        self.ref, self.flag = ref, flag
        self.summary = summary  # e.g. "[rejected] (stale info)", "[remote rejected] (...)"

    def __repr__(self) -> str:
        return f"PushStatus({self.ref!r}, {self.flag!r}, {self.summary!r})"

    @property
    def ok(self) -> bool:
        return self.flag != "!"

    @property
    def reason(self) -> str:
        start, end = self.summary.find("("), self.summary.rfind(")")
        return self.summary[start + 1 : end] if 0 <= start < end else self.summary


def _push_statuses(out: str) -> dict[str, PushStatus]:
    result: dict[str, PushStatus] = {}
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) != 3 or len(parts[0]) != 1:
            continue  # "To <url>", "Done"
        dst = parts[1].rpartition(":")[2]
        result[dst] = PushStatus(dst, parts[0], parts[2])
    return result


def secondary(status: PushStatus) -> bool:
    """Rejected only because another ref of the same atomic push was."""
    return "atomic" in status.reason


def git_message(output: str) -> str:
    """git's own words: its fatal/error lines (with a continuation line), not its advice."""
    lines = [ln.strip() for ln in output.strip().splitlines()]
    found: list[str] = []
    for i, line in enumerate(lines):
        if line.startswith(("fatal:", "error:")):
            text = line.split(":", 1)[1].strip()
            if text.endswith(":") and i + 1 < len(lines):
                text = f"{text} {lines[i + 1]}"
            found.append(text)
    return "; ".join(dict.fromkeys(found)) or (lines[-1] if lines else "no output")


def raced(status: PushStatus) -> bool:
    """Rejected because the ref was not what we expected when the server (or git) looked."""
    return status.reason in (
        "stale info",
        "failed to update ref",
        "failed to lock",
        "fetch first",
        "non-fast-forward",
    )


def behind(status: PushStatus | None) -> bool:
    """A journal push refused because the remote holds commits we do not have (git's own
    reasons)."""
    return status is not None and status.reason in ("fetch first", "non-fast-forward", "stale info")


class RemoteGit(Git):
    """The network side: push with leases, fetch, ls-remote. Transport failures raise GitError."""

    def push(
        self,
        remote: str,
        refspecs: Sequence[str],
        leases: Mapping[str, str | None] | None = None,
        atomic: bool = False,
    ) -> dict[str, PushStatus]:
        """Push `refspecs`; `leases` maps a ref to its expected value on the remote (None: must not
        exist).

        Returns each ref's status (a rejected ref is not an exception: the caller knows what it
        means). Raises GitError when git reported no ref status at all (unreachable, access denied).
        """
        args = ["push", "--porcelain", "--no-verify"]
        if atomic:
            args.append("--atomic")
        for ref, expect in (leases or {}).items():
            args.append(f"--force-with-lease={ref}:{expect or ''}")
        cmd = [*args, remote, *refspecs]
        import subprocess

        proc = subprocess.run(
            ["git", *cmd],
            cwd=self.cwd,
            capture_output=True,
            env={**git_environ(), INTERNAL: "1", **REMOTE_ENV},
            check=False,
        )
        out = proc.stdout.decode("utf-8", "replace")
        statuses = _push_statuses(out)
        if proc.returncode != 0 and not statuses:
            raise GitError(
                ["git", *cmd], proc.returncode, out, proc.stderr.decode("utf-8", "replace")
            )
        return statuses

    def fetch(self, remote: str, refspecs: Sequence[str], prune: bool = False) -> None:
        args = ["fetch", "--quiet", "--no-tags", "--no-write-fetch-head"]
        if prune:
            args.append("--prune")
        self.run(*args, remote, *refspecs, env=REMOTE_ENV)

    def ls_remote(self, remote: str, patterns: Sequence[str]) -> dict[str, str]:
        """{ref: sha} of the remote's refs matching `patterns` (one round trip, no objects)."""
        out = self.run("ls-remote", "--refs", remote, *patterns, env=REMOTE_ENV)
        result: dict[str, str] = {}
        for line in out.splitlines():
            sha, _, ref = line.partition("\t")
            if ref:
                result[ref] = sha
        return result

    def is_ancestor(self, ancestor: str, descendant: str) -> bool:
        """True when `ancestor` is known here and reachable from `descendant`."""
        return self.ok("merge-base", "--is-ancestor", ancestor, descendant)

    def read_blobs(self, specs: Sequence[str]) -> dict[str, bytes | None]:
        """Many `<rev>:<path>` blobs in one `git cat-file --batch` (None when missing)."""
        if not specs:
            return {}
        import subprocess

        proc = subprocess.run(
            ["git", "cat-file", "--batch"],
            cwd=self.cwd,
            capture_output=True,
            input=("\n".join(specs) + "\n").encode(),
            check=False,
            env={**git_environ(), INTERNAL: "1"},
        )
        if proc.returncode != 0:
            raise GitError(
                ["git", "cat-file", "--batch"],
                proc.returncode,
                "",
                proc.stderr.decode("utf-8", "replace"),
            )
        data, pos = proc.stdout, 0
        result: dict[str, bytes | None] = {}
        for spec in specs:
            end = data.index(b"\n", pos)
            header = data[pos:end].decode().split()
            pos = end + 1
            if len(header) == 3 and header[1] == "blob":
                size = int(header[2])
                result[spec] = data[pos : pos + size]
                pos += size + 1
            elif len(header) == 3:
                pos += int(header[2]) + 1
                result[spec] = None
            else:
                result[spec] = None  # "<spec> missing"
        return result

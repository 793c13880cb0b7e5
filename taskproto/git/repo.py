"""The engine's heavier git work through GitPython: worktrees and branches, doctor's reads, sync,
the journal.

GitPython's `git.Repo` keeps one `git cat-file --batch` process for the life of the
object, so reading many objects (every journal head's task.json, a task's history)
costs one process however many there are. Importing GitPython costs ~50 ms, so the
paths that must be faster than that (hook decisions, reading a ref, a transition's
journal write) use `git/files.py` or `git/command.py` instead; docs/architecture.md
says which path uses what, with the measurements. Every failure is a GitError.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from taskproto.errors import GitError
from taskproto.git.files import INTERNAL, NO_REPLACE, find_repo
from taskproto.git.worktrees import WorktreeInfo, read_worktrees

if TYPE_CHECKING:
    import git


HUNK_CHARS = 6000  # of a conflict's hunks kept for the agent's revision


@dataclass(frozen=True)
class JournalCommit:
    sha: str
    message: str
    files: dict[str, bytes]  # the commit's tree: file name -> contents


@contextmanager
def _mapped(args: Sequence[str]) -> Iterator[None]:
    """GitPython's errors as our one GitError, carrying the command, status and stderr."""
    import git

    try:
        yield
    except git.GitCommandError as exc:
        stdout = exc.stdout if isinstance(exc.stdout, str) else ""
        stderr = exc.stderr if isinstance(exc.stderr, str) else str(exc)
        status = exc.status if isinstance(exc.status, int) else 1
        raise GitError(["git", *args], status, stdout.strip(" '\n"), stderr.strip(" '\n")) from None


class Repo:
    """One repository (any of its worktrees) through GitPython; opened on first use."""

    def __init__(self, path: Path) -> None:
        self.path = path.absolute()
        self._repo: git.Repo | None = None

    @property
    def repo(self) -> git.Repo:
        if self._repo is None:
            import git

            try:
                self._repo = git.Repo(self.path)
                # every command of it, the persistent cat-file processes too (files.NO_REPLACE)
                self._repo.git.update_environment(**{NO_REPLACE: "1"})
            except (git.InvalidGitRepositoryError, git.NoSuchPathError) as exc:
                raise GitError(
                    ["git", "-C", str(self.path)], 128, "", f"not a git repository: {exc}"
                ) from None
        return self._repo

    def close(self) -> None:
        """End the persistent cat-file processes (they also end with the process)."""
        if self._repo is not None:
            self._repo.close()
            self._repo = None

    def run(self, *args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
        """One git command in this repository (or in worktree `cwd`); its stdout."""
        cmd = ["git", *(["-C", str(cwd)] if cwd else []), *args]
        with _mapped(args):
            out: Any = self.repo.git.execute(
                cmd,
                env={INTERNAL: "1", NO_REPLACE: "1", **(env or {})},
                strip_newline_in_stdout=False,
            )
        return str(out)

    # --- worktrees and branches -----------------------------------------------------

    def worktrees(self) -> list[WorktreeInfo]:
        """The worktrees as `git worktree list --porcelain` lists them, read from git's files
        (git/worktrees.py): git's own listing loads packed-refs once per worktree, 3.6 GB at
        10,000 tasks. One difference: opened in the main worktree of a separate git dir (`git init
        --separate-git-dir`), the main worktree is listed at its own place, not at the git dir's,
        where git cannot tell where it is."""
        dirs = find_repo(str(self.path))
        if dirs is None:
            raise GitError(["git", "-C", str(self.path)], 128, "", "not a git repository")
        found = read_worktrees(dirs)
        if not dirs.bare and not dirs.common_dir.endswith("/.git") and dirs.top is not None:
            found[0] = replace(found[0], path=Path(dirs.main))
        return found

    def worktree_add(self, path: Path, branch: str, base: str | None, new_branch: bool) -> None:
        if new_branch:
            self.run("worktree", "add", "--quiet", "-b", branch, str(path), base or "HEAD")
        else:
            self.run("worktree", "add", "--quiet", str(path), branch)

    def worktree_remove(self, path: Path, force: bool = False) -> None:
        self.run("worktree", "remove", *(["--force", "--force"] if force else []), str(path))

    def worktree_prune(self) -> None:
        self.run("worktree", "prune")

    def worktree_repair(self, *paths: Path) -> str:
        return self.run("worktree", "repair", *map(str, paths))

    def branch_exists(self, branch: str) -> bool:
        """Read in-process from the refs (loose and packed): no git process."""
        return any(head.name == branch for head in self.repo.heads)

    def delete_branch(self, branch: str, force: bool = False) -> None:
        self.run("branch", "-D" if force else "-d", branch)

    def create_branch(self, branch: str, sha: str) -> None:
        """A branch at `sha`, only if it does not exist (compare-and-swap against nothing)."""
        self.run(
            "update-ref", "-m", "taskproto: restore branch", f"refs/heads/{branch}", sha, "0" * 40
        )

    def switch(self, worktree: Path, branch: str) -> None:
        self.run("switch", "--quiet", branch, cwd=worktree)

    def is_dirty(self, worktree: Path) -> bool:
        return bool(
            self.run("status", "--porcelain", "--untracked-files=normal", cwd=worktree).strip()
        )

    def unique_commits(self, branches: Sequence[str]) -> int:
        """Commits reachable from `branches` and from no other branch, tag or remote ref."""
        out = self.run(
            "rev-list",
            "--count",
            *[f"refs/heads/{b}" for b in branches],
            "--not",
            *[f"--exclude={b}" for b in branches],
            "--branches",
            "--tags",
            "--remotes",
        )
        return int(out.strip() or 0)

    # --- refs and objects --------------------------------------------------------------

    def refs(self, *patterns: str) -> dict[str, str]:
        """Every ref under `patterns` with its object, in one `git for-each-ref`."""
        out = self.run("for-each-ref", "--format=%(objectname) %(refname)", *patterns)
        result: dict[str, str] = {}
        for line in out.splitlines():
            sha, _, ref = line.partition(" ")
            if ref:
                result[ref] = sha
        return result

    def rev_parse(self, rev: str) -> str | None:
        try:
            return self.run("rev-parse", "--verify", "--quiet", rev + "^{commit}").strip() or None
        except GitError:
            return None

    def is_ancestor(self, ancestor: str, descendant: str) -> bool:
        """True when `ancestor` is known here and reachable from `descendant`."""
        try:
            self.run("merge-base", "--is-ancestor", ancestor, descendant)
        except GitError:
            return False
        return True

    def update_ref(self, ref: str, new: str, old: str | None, message: str = "taskproto") -> None:
        """Compare-and-swap: set `ref` to `new` only if it is `old` now (None: must not exist)."""
        self.run("update-ref", "-m", message, ref, new, old or "0" * 40)

    def object_exists(self, sha: str) -> bool:
        return self.rev_parse(sha) is not None

    def reachable_from_any_ref(self, sha: str) -> bool:
        """Whether some branch, tag or remote ref contains `sha` (so nothing is lost by leaving
        it)."""
        out = self.run(
            "for-each-ref",
            "--count=1",
            f"--contains={sha}",
            "--format=%(refname)",
            "refs/heads",
            "refs/tags",
            "refs/remotes",
        )
        return bool(out.strip())

    def blob(self, spec: str) -> bytes | None:
        """The blob `<rev>:<path>` through the persistent `cat-file --batch` (None: missing or not a
        blob)."""
        try:
            header: Any = self.repo.git.get_object_data(spec)  # (sha, type, size, data), all bytes
        except ValueError:  # GitPython's "could not be resolved" for a missing object
            return None
        return bytes(header[3]) if header[1] in (b"blob", "blob") else None

    def blobs(self, specs: Sequence[str]) -> list[bytes | None]:
        """Many `<rev>:<path>` blobs, one persistent process for all of them."""
        return [self.blob(spec) for spec in specs]

    def history(self, ref: str, limit: int | None = None) -> list[JournalCommit]:
        """The commits of `ref`, newest first, each with the files of its tree (a journal's
        history)."""
        import git

        result: list[JournalCommit] = []
        try:
            if limit == 1 and len(ref) == 40 and all(c in "0123456789abcdef" for c in ref):
                # one commit named by its sha (sync's adoption of each task): read through the
                # persistent cat-file, not a `git rev-list` per task
                commits = [self.repo.commit(ref)]
            else:
                commits = list(self.repo.iter_commits(ref, max_count=limit))
        except (git.GitCommandError, git.BadName, ValueError):
            return []
        for commit in commits:
            files = {blob.name: blob.data_stream.read() for blob in commit.tree.blobs}
            message = commit.message if isinstance(commit.message, str) else commit.message.decode()
            result.append(JournalCommit(commit.hexsha, message.strip(), files))
        return result

    # --- merging and landing ---------------------------------------------------------

    def _status(self, *args: str, cwd: Path | None = None) -> tuple[int, str, str]:
        """One git command whose non-zero exit is an answer, not a failure: (status, out, err)."""
        cmd = ["git", *(["-C", str(cwd)] if cwd else []), *args]
        result: Any = self.repo.git.execute(
            cmd,
            env={INTERNAL: "1", NO_REPLACE: "1"},
            with_extended_output=True,
            with_exceptions=False,
            strip_newline_in_stdout=False,
        )
        status, out, err = result
        return int(status), str(out), str(err)

    def changed_files(self, worktree: Path, ignored: bool = False) -> list[str]:
        """The paths with uncommitted changes in `worktree`: staged, unstaged and untracked (and
        ignored files too, with `ignored`: a merge overwrites those without asking). An untracked
        or ignored folder is one path ending in `/`."""
        args = ["status", "--porcelain=v1", "-z", "--untracked-files=normal"]
        out = self.run(*args, *(["--ignored=matching"] if ignored else []), cwd=worktree)
        paths: list[str] = []
        entries = iter(out.split("\0"))
        for entry in entries:
            if len(entry) < 4:
                continue
            paths.append(entry[3:])
            if entry[0] in "RC":
                next(entries, None)  # a rename's source follows its destination
        return paths

    def merge(self, worktree: Path, rev: str, message: str) -> list[str]:
        """Merge `rev` into the branch checked out in `worktree` with a merge commit (--no-ff).

        Returns [] when it merged. On a conflict the merge is aborted, so the worktree and the
        branch are as they were, and the conflicting files are returned. Any other failure (a
        hook refused the merge commit, ...) is aborted the same way and raised.
        """
        return self.bring_in(worktree, rev, "merge", message, hooks=True)[0]

    def bring_in(
        self, worktree: Path, rev: str, mode: str, message: str, hooks: bool = False
    ) -> tuple[list[str], str]:
        """Bring commit `rev` into the branch checked out in `worktree`: with a merge commit
        (`mode` "merge") or by replaying the branch's commits onto it ("rebase"); the commit hooks
        run only with `hooks` (else it is taskproto's own move, checked by its caller).

        Returns ([], "") when done. On a conflict the operation is aborted, so the worktree and
        the branch are as they were, and the conflicting files are returned with their conflicted
        hunks (`git diff` while it stood, at most HUNK_CHARS characters). Any other failure is
        aborted the same way and raised.
        """
        if mode == "rebase":
            args = ["rebase", "--rebase-merges", rev]
        else:
            args = ["merge", "--no-ff", "--no-edit", "-m", message, rev]
        if not hooks:
            args.insert(1, "--no-verify")
        status, out, err = self._status(*args, cwd=worktree)
        if status == 0:
            return [], ""
        conflicts = self.run("diff", "--name-only", "-z", "--diff-filter=U", cwd=worktree)
        files = [f for f in conflicts.split("\0") if f]
        hunks = self.run("diff", "--no-color", "--", *files, cwd=worktree) if files else ""
        if mode == "rebase":
            self._status("rebase", "--abort", cwd=worktree)  # nothing to abort: a no-op
        elif self._status("rev-parse", "-q", "--verify", "MERGE_HEAD", cwd=worktree)[0] == 0:
            self.run("merge", "--abort", cwd=worktree)
        if not files:
            raise GitError(["git", *args], status, out.strip(), err.strip())
        return files, hunks[:HUNK_CHARS]

    def patch_id(self, base: str, head: str) -> str | None:
        """`git patch-id --stable` of what `head` changes over its merge base with `base` (None
        when it changes nothing): the same change, wherever it was replayed, has the same id."""
        from taskproto.git.command import Git

        diff = self.run("diff", "--no-color", "--full-index", f"{base}...{head}")
        if not diff.strip():
            return None
        out = Git(self.path).run("patch-id", "--stable", input=diff).split()
        return out[0] if out else None

    def merge_tree(self, ours: str, theirs: str) -> tuple[str | None, list[str]]:
        """Merge two commits without a worktree (`git merge-tree --write-tree`): (the merged tree,
        []) or (None, the conflicting files)."""
        status, out, err = self._status(
            "merge-tree", "--write-tree", "--name-only", "--no-messages", "-z", ours, theirs
        )
        parts = [p for p in out.split("\0") if p]
        if status == 0 and parts:
            return parts[0], []
        if status == 1 and parts:
            return None, list(dict.fromkeys(parts[1:]))
        raise GitError(["git", "merge-tree", "--write-tree", ours, theirs], status, out, err)

    def paths_changed(self, old: str, new: str) -> list[str]:
        """The paths that differ between commits `old` and `new` (renames as two paths)."""
        out = self.run("diff", "--name-only", "--no-renames", "-z", old, new)
        return [p for p in out.split("\0") if p]

    def commit_tree(self, tree: str, parents: Sequence[str], message: str) -> str:
        """A commit of `tree` with `parents`, by the repository's configured user."""
        args = ["commit-tree", tree]
        for parent in parents:
            args += ["-p", parent]
        return self.run(*args, "-m", message).strip()

    def unreachable(self, revs: Sequence[str], base: str) -> int:
        """How many commits of `revs` are not reachable from `base`."""
        if not revs:
            return 0
        return int(self.run("rev-list", "--count", *revs, "--not", base).strip() or 0)

    def fast_forward(self, worktree: Path, sha: str) -> None:
        """Move the branch checked out in `worktree` to `sha` (a descendant), updating its files;
        refused by git when that would overwrite an uncommitted change."""
        self.run("merge", "--ff-only", "--quiet", sha, cwd=worktree)

"""The repository around a folder, read from git's own files: no git process, standard library only.

Hooks and everyday commands must find the repository in far less time than starting
git takes, so this module reads `.git`, `HEAD`, `commondir`, `config` and the refs
directly. `run_git` (a bare posix_spawn; importing `subprocess` costs more) is for the
few hook decisions that need git itself. Nothing here imports beyond `os`.

Paths are made real (symbolic links resolved) once, here: every comparison of a
path with a worktree or with taskproto's folder is then between real paths.
"""

from __future__ import annotations

import os

ZERO_OID = "0" * 40
# Set in the environment of every git process taskproto starts: the reference-transaction hook lets
# taskproto's own moves of task branches and journals through (an agent setting it by hand is
# refused by the tool guard; a same-user process can always bypass hooks, and doctor sees what it
# did).
INTERNAL = "TASKPROTO_INTERNAL"
# Set in the environment of every git process taskproto starts too: objects are read as they are,
# never through `refs/replace/`, so a `git replace` of a journal commit cannot make a forged record
# the one taskproto reads, restores or verifies (docs/agents.md). The in-process reads (objects.py,
# reffiles.py) never look at replacements.
NO_REPLACE = "GIT_NO_REPLACE_OBJECTS"


GIT_MISSING = (
    "git was not found on PATH (taskproto runs git for every task): install git, or add the "
    "folder that holds it to PATH, and run the command again"
)


def git_missing(exc: BaseException) -> bool:
    """Whether `exc` says no `git` could be started: the file not found on PATH (subprocess,
    `os.posix_spawnp`), or GitPython's refusal to load without one."""
    if isinstance(exc, FileNotFoundError):
        return exc.filename in ("git", b"git") or (
            isinstance(exc.filename, str) and exc.filename.endswith("/git")
        )
    return isinstance(exc, ImportError) and "Bad git executable" in str(exc)


_HEX = frozenset("0123456789abcdef")


def git_environ() -> dict[str, str]:
    """The environment of a git process taskproto starts: this process's, replacements off."""
    return {**os.environ, NO_REPLACE: "1"}


class GitDirs:
    """Where a worktree's git files are: its top folder, its git dir, the common dir, the main
    worktree.

    `main` is the folder taskproto's root hangs off: the top of the main worktree, or the
    repository folder itself for a bare repository (whose linked worktrees have no main).
    """

    def __init__(self, top: str | None, git_dir: str, common_dir: str, bare: bool) -> None:
        self.top = top  # this worktree's top folder (None inside a bare repository itself)
        self.git_dir = git_dir
        self.common_dir = common_dir
        self.bare = bare
        self._packed: tuple[tuple[int, int, int], dict[bytes, bytes]] | None = None

    @property
    def main(self) -> str:
        if self.bare:
            return self.common_dir
        if self.git_dir == self.common_dir and self.top is not None:
            return self.top  # the main worktree itself (its .git may be a file: a separate git dir)
        return (
            self.common_dir[:-5] if self.common_dir.endswith(os.sep + ".git") else self.common_dir
        )

    def head_branch(self) -> str | None:
        """The short name of the checked-out branch, or None when detached."""
        head = read_small(os.path.join(self.git_dir, "HEAD"))
        if head is not None and head.startswith(b"ref: refs/heads/"):
            return head[16:].strip().decode("utf-8", "surrogateescape")
        return None

    def ref_sha(self, ref: str) -> str | None:
        """The object `ref` (a full ref name) points to: loose ref, then packed-refs, then git."""
        data = read_small(os.path.join(self.common_dir, ref), 128)
        if data is not None and len(data.strip()) == 40:
            sha = data.strip().decode("ascii", "replace")
            if _HEX.issuperset(sha):  # else no object id (a bad copy): git's "broken ref"
                return sha
        found = self.packed_refs().get(ref.encode())
        if found is not None:
            return found.decode()
        if os.path.exists(os.path.join(self.common_dir, "reftable")):
            out = run_git(self.top or self.common_dir, "rev-parse", "--verify", "--quiet", ref)
            return out.strip().decode() if out else None
        return None

    def packed_refs(self) -> dict[bytes, bytes]:
        """packed-refs as {ref: sha}, parsed once while the file stays the same (many tasks' refs
        are read in one process: the board, doctor, a listing)."""
        path = os.path.join(self.common_dir, "packed-refs")
        try:
            st = os.stat(path)
        except OSError:
            return {}
        stamp = (st.st_size, st.st_mtime_ns, st.st_ino)
        cached = self._packed
        if cached is not None and cached[0] == stamp:
            return cached[1]
        data = read_small(path, 1 << 30) or b""
        refs: dict[bytes, bytes] = {}
        for line in data.split(b"\n"):
            if len(line) > 41 and line[40:41] == b" " and not line.startswith((b"#", b"^")):
                refs[line[41:]] = line[:40]
        self._packed = (stamp, refs)
        return refs

    def branch_sha(self, branch: str) -> str | None:
        return self.ref_sha("refs/heads/" + branch)


def read_small(path: str, limit: int = 65536) -> bytes | None:
    try:
        with open(path, "rb") as fh:
            return fh.read(limit)
    except OSError:
        return None


def _common_dir(git_dir: str) -> str:
    rel = read_small(os.path.join(git_dir, "commondir"), 4096)
    if rel is None:
        return git_dir
    return os.path.realpath(os.path.join(git_dir, rel.strip().decode("utf-8", "surrogateescape")))


def _is_bare(common_dir: str) -> bool:
    """`core.bare` from the repository's config (a plain line scan; git writes it as `bare =
    true`)."""
    config = read_small(os.path.join(common_dir, "config"), 1 << 20) or b""
    section = b""
    for raw in config.splitlines():
        line = raw.strip()
        if line.startswith(b"["):
            section = line.strip(b"[]").strip().lower()
        elif section == b"core" and line.replace(b" ", b"").lower().startswith(b"bare="):
            return line.split(b"=", 1)[1].strip().lower() in (b"true", b"yes", b"on", b"1")
    return False


def _looks_like_git_dir(path: str) -> bool:
    return (
        os.path.isfile(os.path.join(path, "HEAD"))
        and os.path.isdir(os.path.join(path, "objects"))
        and os.path.isdir(os.path.join(path, "refs"))
    )


def _dirs(top: str | None, git_dir: str) -> GitDirs:
    git_dir = os.path.realpath(git_dir)
    common = _common_dir(git_dir)
    return GitDirs(top, git_dir, common, _is_bare(common))


def find_repo(start: str, environ: dict[str, str] | None = None) -> GitDirs | None:
    """The repository around folder `start` (GIT_DIR, when set, wins as it does for git), or
    None."""
    env = os.environ if environ is None else environ
    if env.get("GIT_DIR"):
        git_dir = os.path.join(start, env["GIT_DIR"])
        work_tree = env.get("GIT_WORK_TREE")
        dirs = _dirs(None, git_dir)
        top = os.path.realpath(os.path.join(start, work_tree)) if work_tree else None
        if top is None and (dirs.git_dir != dirs.common_dir or not dirs.bare):
            # a linked worktree (of a bare repository too) names its folder in its git dir
            top = _worktree_of_git_dir(dirs.git_dir, start)
        dirs.top = top
        return dirs
    try:
        here = os.path.realpath(start)
    except (OSError, ValueError):
        return None
    while True:
        dot_git = os.path.join(here, ".git")
        if os.path.isdir(dot_git):
            return _dirs(here, dot_git)
        if os.path.isfile(dot_git):
            line = (read_small(dot_git, 4096) or b"").strip().decode("utf-8", "surrogateescape")
            if not line.startswith("gitdir:"):
                return None
            linked = os.path.join(here, line[7:].strip())
            if not os.path.isdir(linked):
                return None  # a worktree whose repository moved: see broken_link()
            return _dirs(here, linked)
        if _looks_like_git_dir(here):  # inside a bare repository (or a .git folder) itself
            dirs = _dirs(None, here)
            if not dirs.bare and os.path.basename(here) == ".git":
                dirs.top = os.path.dirname(here)
            return dirs
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def broken_link(start: str) -> tuple[str, str] | None:
    """(worktree, the git dir its `.git` file names) when the nearest `.git` above `start` is a
    worktree link to a folder that no longer exists (the repository was moved), else None."""
    here = os.path.realpath(start)
    while True:
        dot_git = os.path.join(here, ".git")
        if os.path.isdir(dot_git):
            return None
        if os.path.isfile(dot_git):
            line = (read_small(dot_git, 4096) or b"").strip().decode("utf-8", "surrogateescape")
            target = os.path.join(here, line[7:].strip()) if line.startswith("gitdir:") else ""
            return (here, target) if target and not os.path.isdir(target) else None
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def unlinked(worktree: str) -> str | None:
    """The admin folder a linked worktree's `.git` file names, when that folder is gone or does not
    name this worktree back: the repository (or taskproto's root) was moved or copied and not
    re-linked (`git worktree repair`, which `taskproto init` runs). None when the pair holds, or
    `worktree` has no `.git` file. Two small reads, no git."""
    data = read_small(os.path.join(worktree, ".git"), 4096)
    if data is None:
        return None
    line = data.strip().decode("utf-8", "surrogateescape")
    if not line.startswith("gitdir:"):
        return None
    admin = os.path.join(worktree, line[7:].strip())
    back = read_small(os.path.join(admin, "gitdir"), 4096)
    if back is not None:
        named = os.path.join(admin, back.strip().decode("utf-8", "surrogateescape"))
        dot_git = os.path.join(worktree, ".git")
        if named == dot_git or os.path.realpath(named) == os.path.realpath(dot_git):
            return None  # (the same text, as git wrote it, spares the two realpaths)
    return admin


def _worktree_of_git_dir(git_dir: str, start: str) -> str:
    """A linked worktree's git dir names its worktree in `gitdir`; a main one sits in it."""
    back = read_small(os.path.join(git_dir, "gitdir"), 4096)
    if back is not None:
        return os.path.dirname(os.path.realpath(back.strip().decode("utf-8", "surrogateescape")))
    if os.path.basename(git_dir) == ".git":
        return os.path.dirname(git_dir)
    return os.path.realpath(start)


def run_git(cwd: str, *args: str) -> bytes | None:
    """Run git in `cwd`; its stdout, or None when it fails (each caller says what failed in its own
    line: git's stderr, such as a corrupt object's several lines, goes nowhere). A bare spawn:
    `subprocess` costs more to import."""
    return _run_with_input(cwd, None, *args)


BATCH = 1000  # object ids written to one `cat-file --batch` before its answers are read


def cat_batch(cwd: str, shas: list[str]) -> dict[str, tuple[str, bytes]]:
    """{sha: (type, contents)} of the objects `shas` that git has, through `git cat-file --batch`:
    one process for many objects (packed ones: a loose one is read in-process, git/objects.py).
    The ids go in batches small enough for the pipe, so writing them all first never blocks."""
    found: dict[str, tuple[str, bytes]] = {}
    for start in range(0, len(shas), BATCH):
        chunk = shas[start : start + BATCH]
        out = _run_with_input(cwd, "".join(s + "\n" for s in chunk).encode(), "cat-file", "--batch")
        at = 0
        while out is not None and at < len(out):
            end = out.index(b"\n", at)
            header = out[at:end].split()
            at = end + 1
            if len(header) != 3:  # "<sha> missing"
                continue
            size = int(header[2])
            found[header[0].decode()] = (header[1].decode(), out[at : at + size])
            at += size + 1
    return found


def _run_with_input(cwd: str, data: bytes | None, *args: str) -> bytes | None:
    """git `args` in `cwd`, `data` on its stdin (None: no stdin); its stdout, None when it fails."""
    out_r, out_w = os.pipe()
    actions: list[tuple[int, ...] | tuple[int, int, str, int, int]] = [
        (os.POSIX_SPAWN_DUP2, out_w, 1),
        (os.POSIX_SPAWN_CLOSE, out_r),
        (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
    ]
    in_r = in_w = -1
    if data is not None:
        in_r, in_w = os.pipe()
        actions += [(os.POSIX_SPAWN_DUP2, in_r, 0), (os.POSIX_SPAWN_CLOSE, in_w)]
    old = os.getcwd()
    os.chdir(cwd)  # posix_spawn takes no working folder before Python 3.13
    try:
        pid = os.posix_spawnp("git", ["git", *args], git_environ(), file_actions=actions)
    finally:
        os.chdir(old)
        os.close(out_w)
        if data is not None:
            os.close(in_r)
    if data is not None:
        with os.fdopen(in_w, "wb") as fh:
            fh.write(data)  # at most BATCH ids: within the pipe's buffer
    chunks = []
    with os.fdopen(out_r, "rb") as out:
        while chunk := out.read(65536):
            chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    return b"".join(chunks) if os.waitstatus_to_exitcode(status) == 0 else None

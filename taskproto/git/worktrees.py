"""The repository's worktrees read from git's own files, as `git worktree list --porcelain` lists
them, without starting git.

git 2.39 resolves each worktree's HEAD through a ref store of its own that loads the whole
packed-refs file again: at 10,000 task worktrees with packed branches, `git worktree list` took
3.6 GB of memory (docs/performance.md). This reads `$GIT_COMMON_DIR/worktrees/*/` (`gitdir`,
`HEAD`, `locked`) and the main worktree's HEAD, and resolves each branch from refs the caller
already holds (or from the loose and packed refs, packed-refs parsed once): a few file reads a
worktree. It follows git 2.39's `get_worktrees()` (worktree.c), `list()` and
`show_worktree_porcelain()` (builtin/worktree.c) and `should_prune_worktree()`; the test
`tests/test_git_worktrees.py` compares it with git itself. Where they part: git's
prunable reasons are translated, these are git's English ones; two worktrees with the same path are
sorted by qsort, which is not stable; a relative gitdir path is taken from git's working folder, as
2.39 does (git 2.48's `--relative-paths` writes them relative to the admin folder instead).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from taskproto.git.files import GitDirs, read_small


@dataclass(frozen=True)
class WorktreeInfo:
    path: Path
    head: str | None
    branch: str | None  # short name, None when detached or bare
    prunable: str | None  # git's own reason, when git reports it prunable
    locked: bool
    bare: bool
    # read here, not by git's listing (so not compared): a linked worktree's admin folder and
    # the names in it (None: not listed), which say whether an operation is half done there
    admin: str | None = field(default=None, compare=False)
    admin_names: frozenset[str] | None = field(default=None, compare=False)


_WHITESPACE = b" \t\n\v\f\r"  # what git's strbuf_rtrim takes off (isspace)
_SYMREF_MAXDEPTH = 5  # git's refs.h: HEAD -> a branch -> ... at most this deep
_HEX_ANY = frozenset(b"0123456789abcdefABCDEF")


def read_worktrees(dirs: GitDirs, refs: Mapping[str, str] | None = None) -> list[WorktreeInfo]:
    """The worktrees, main first and the linked ones by path, as `git worktree list --porcelain`
    run in `dirs`' worktree lists them. `refs`: full ref name -> object for (at least) every
    branch, e.g. a `for-each-ref refs/heads` the caller made; None reads the refs' files."""
    common = dirs.common_dir
    sha256, ignorecase = _settings(common)
    zero = "0" * (64 if sha256 else 40)
    # a relative path in a gitdir file is looked up from git's working folder: the top of the
    # worktree it runs in
    cwd = dirs.top or common

    def tip(ref: str) -> tuple[str, str | None] | None:
        """(the ref a symbolic ref ends at, its object or None while unborn); None past git's
        five levels. A branch that is a symbolic ref is a loose file (packed-refs holds none)."""
        for _ in range(_SYMREF_MAXDEPTH):
            data = (_read_all(common + "/" + ref, 256) or b"").strip()
            if data.startswith(b"ref:"):
                ref = data[4:].strip().decode("utf-8", "surrogateescape")
                continue
            if refs is not None and ref.startswith("refs/heads/"):
                return ref, refs.get(ref)
            if len(data) == len(zero) and _HEX_ANY.issuperset(data):
                return ref, data.decode().lower()
            found = dirs.packed_refs().get(ref.encode())  # parsed once for every worktree
            return ref, found.decode() if found is not None else dirs.ref_sha(ref)
        return None

    top = common[:-5] if common.endswith("/.git") else common
    if dirs.bare:
        main = WorktreeInfo(Path(top), None, None, None, False, True)
    else:
        head, branch = _head(os.path.join(common, "HEAD"), tip, zero)
        main = WorktreeInfo(Path(top), head, branch, None, False, False)
    linked: list[tuple[bytes, WorktreeInfo]] = []
    admin_root = os.path.join(common, "worktrees")
    try:
        ids = os.listdir(admin_root)
    except OSError:
        ids = []
    for wt_id in ids:
        admin = admin_root + "/" + wt_id  # (no os.path.join: 10,000 of them cost 0.1 s)
        # read: `admin` is a folder, as git's should_prune_worktree() asks first
        raw = _read_all(admin + "/gitdir")
        if not raw:  # unreadable or empty: git's get_linked_worktree() skips it
            continue
        path = raw.rstrip(_WHITESPACE)
        if path.endswith(b"/.git"):
            path = path[:-5]
        head, branch = _head(admin + "/HEAD", tip, zero)
        try:  # one listing: `locked`, and the markers of a half-done operation (doctor's)
            names: frozenset[str] | None = frozenset(os.listdir(admin))
        except OSError:
            names = None
        locked = "locked" in names if names is not None else _lexists(admin + "/locked")
        prunable = None if locked else _prune_reason(raw, cwd)
        name = path.decode("utf-8", "surrogateescape")
        info = WorktreeInfo(Path(name), head, branch, prunable, locked, False, admin, names)
        linked.append((path, info))
    # git's pathsort: fspathcmp, strcmp of the paths (strcasecmp under core.ignoreCase, as git
    # init sets it on a file system that ignores case: macOS's, Windows')
    linked.sort(key=(lambda pair: pair[0].lower()) if ignorecase else (lambda pair: pair[0]))
    return [main, *(info for _, info in linked)]


def _read_all(path: str, limit: int = -1) -> bytes | None:
    """The file's bytes (at most `limit`), or None; os.open and os.read: a Python file object
    costs more than the read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        chunks = []
        while limit:
            chunk = os.read(fd, 65536 if limit < 0 else min(limit, 65536))
            if not chunk:
                break
            chunks.append(chunk)
            limit = limit - len(chunk) if limit > 0 else limit
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def _lexists(path: str | bytes) -> bool:
    """git's file_exists(): lstat succeeds."""
    try:
        os.lstat(path)
    except (OSError, ValueError):
        return False
    return True


def _head(
    path: str, tip: Callable[[str], tuple[str, str | None] | None], zero: str
) -> tuple[str, str | None]:
    """(HEAD's object, the short name of its branch) as git's add_head_info() finds them: a
    symbolic ref's branch (the null id while unborn), a detached id, and the null id with no
    branch when HEAD cannot be read as either."""
    data = _read_all(path, 4096)
    if data is None:
        return zero, None
    data = data.rstrip(_WHITESPACE)
    if data.startswith(b"ref:"):
        found = tip(data[4:].lstrip(_WHITESPACE).decode("utf-8", "surrogateescape"))
        if found is None:
            return zero, None
        ref, sha = found  # git names the ref a chain of symbolic refs ends at
        return sha or zero, ref[11:] if ref.startswith("refs/heads/") else ref
    # git's parse_oid_hex() fills the id pair by pair and stops at the first pair that is not hex:
    # what it filled is the id git lists (a whole id is a detached HEAD; the listing names no
    # branch either way)
    pairs = 0
    while 2 * pairs + 2 <= min(len(data), len(zero)) and _HEX_ANY.issuperset(
        data[2 * pairs : 2 * pairs + 2]
    ):
        pairs += 1
    return data[: 2 * pairs].decode().lower() + zero[2 * pairs :], None


def _prune_reason(raw: bytes, cwd: str) -> str | None:
    """git's should_prune_worktree() with no expiry (what `worktree list` asks) of an unlocked
    worktree whose admin folder held a gitdir file (not empty): its reason, or None."""
    path = raw.rstrip(b"\r\n")
    if not path:
        return "invalid gitdir file"
    if not _lexists(path if path.startswith(b"/") else os.fsencode(cwd) + b"/" + path):
        return "gitdir file points to non-existent location"
    return None


def _settings(common: str) -> tuple[bool, bool]:
    """(`extensions.objectFormat` is sha256, `core.ignoreCase`) from the repository's own config
    (a plain line scan, as git/files.py reads `core.bare`; the last value wins, as in git)."""
    config = read_small(os.path.join(common, "config"), 1 << 20) or b""
    section = b""
    sha256 = ignorecase = False
    for raw in config.splitlines():
        line = raw.strip()
        if line.startswith(b"["):
            section = line.strip(b"[]").strip().lower()
            continue
        key, eq, value = line.replace(b" ", b"").replace(b"\t", b"").lower().partition(b"=")
        if section == b"extensions" and key == b"objectformat":
            sha256 = value == b"sha256"
        elif section == b"core" and key == b"ignorecase":
            ignorecase = not eq or value in (b"true", b"yes", b"on", b"1")  # a bare key is true
    return sha256, ignorecase

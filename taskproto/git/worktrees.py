"""The repository's worktrees read from git's own files, as `git worktree list --porcelain` lists
them, without starting git.

git 2.39 resolves each worktree's HEAD through a ref store of its own that loads the whole
packed-refs file again: at 10,000 task worktrees with packed branches, `git worktree list` took
3.6 GB of memory (docs/performance.md). This reads `$GIT_COMMON_DIR/worktrees/*/` (`gitdir`,
`HEAD`, `locked`) and the main worktree's HEAD, and resolves each branch from refs the caller
already holds (or from the loose and packed refs, packed-refs parsed once): a few file reads a
worktree. It follows git 2.39's `get_worktrees()` (worktree.c), `list()` and
`show_worktree_porcelain()` (builtin/worktree.c) and `should_prune_worktree()`; the test
`tests/git/test_worktrees_equivalence.py` compares it with git itself. Where they part: git's
prunable reasons are translated, these are git's English ones; two worktrees with the same path are
sorted by qsort, which is not stable.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Mapping
from pathlib import Path

from taskproto.git.files import GitDirs, read_small
from taskproto.git.repo import WorktreeInfo

_WHITESPACE = b" \t\n\v\f\r"  # what git's strbuf_rtrim takes off (isspace)
_HEX_ANY = frozenset(b"0123456789abcdefABCDEF")


def read_worktrees(dirs: GitDirs, refs: Mapping[str, str] | None = None) -> list[WorktreeInfo]:
    """The worktrees, main first and the linked ones by path, as `git worktree list --porcelain`
    run in `dirs`' worktree lists them. `refs`: full ref name -> object for (at least) every
    branch, e.g. a `for-each-ref refs/heads` the caller made; None reads the refs' files."""
    common = dirs.common_dir
    zero = "0" * (64 if _sha256(common) else 40)
    # a relative path in a gitdir file is looked up from git's working folder: the top of the
    # worktree it runs in
    cwd = dirs.top or common

    def tip(ref: str) -> str | None:
        if refs is not None and ref.startswith("refs/heads/"):
            return refs.get(ref)
        loose = (read_small(os.path.join(common, ref), 128) or b"").strip()
        if len(loose) == len(zero) and _HEX_ANY.issuperset(loose):
            return loose.decode()
        found = dirs.packed_refs().get(ref.encode())  # parsed once for every worktree
        return found.decode() if found is not None else dirs.ref_sha(ref)

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
        admin = os.path.join(admin_root, wt_id)
        raw = _read_all(os.path.join(admin, "gitdir"))
        if not raw:  # unreadable or empty: git's get_linked_worktree() skips it
            continue
        path = raw.rstrip(_WHITESPACE)
        if path.endswith(b"/.git"):
            path = path[:-5]
        head, branch = _head(os.path.join(admin, "HEAD"), tip, zero)
        locked = os.path.lexists(os.path.join(admin, "locked"))
        prunable = None if locked else _prune_reason(admin, raw, cwd)
        name = path.decode("utf-8", "surrogateescape")
        linked.append((path, WorktreeInfo(Path(name), head, branch, prunable, locked, False)))
    linked.sort(key=lambda pair: pair[0])  # git's pathsort: strcmp of the paths
    return [main, *(info for _, info in linked)]


def _read_all(path: str) -> bytes | None:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError:
        return None


def _head(path: str, tip: Callable[[str], str | None], zero: str) -> tuple[str, str | None]:
    """(HEAD's object, the short name of its branch) as git's add_head_info() finds them: a
    symbolic ref's branch (the null id while unborn), a detached id, and the null id with no
    branch when HEAD cannot be read as either."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(4096).rstrip(_WHITESPACE)
    except OSError:
        return zero, None
    if data.startswith(b"ref:"):
        ref = data[4:].lstrip(_WHITESPACE).decode("utf-8", "surrogateescape")
        sha = tip(ref)
        branch = ref[11:] if ref.startswith("refs/heads/") else ref
        return sha or zero, branch
    # git's parse_oid_hex() fills the id pair by pair and stops at the first pair that is not hex:
    # what it filled is the id git lists (a whole id is a detached HEAD; the listing names no
    # branch either way)
    pairs = 0
    while 2 * pairs + 2 <= min(len(data), len(zero)) and _HEX_ANY.issuperset(
        data[2 * pairs : 2 * pairs + 2]
    ):
        pairs += 1
    return data[: 2 * pairs].decode().lower() + zero[2 * pairs :], None


def _prune_reason(admin: str, raw: bytes, cwd: str) -> str | None:
    """git's should_prune_worktree() with no expiry (what `worktree list` asks): its reason, or
    None. `raw` is the gitdir file's contents, already read (not empty)."""
    try:
        if not stat.S_ISDIR(os.stat(admin).st_mode):
            return "not a valid directory"
    except OSError:
        return "not a valid directory"
    path = raw.rstrip(b"\r\n")
    if not path:
        return "invalid gitdir file"
    if not os.path.lexists(os.path.join(os.fsencode(cwd), path)):
        return "gitdir file points to non-existent location"
    return None


def _sha256(common: str) -> bool:
    """Whether the repository's objects are named by SHA-256 (`extensions.objectFormat`)."""
    config = read_small(os.path.join(common, "config"), 1 << 20) or b""
    section = b""
    for raw in config.splitlines():
        line = raw.strip()
        if line.startswith(b"["):
            section = line.strip(b"[]").strip().lower()
        elif section == b"extensions" and line.replace(b" ", b"").lower().startswith(
            b"objectformat="
        ):
            return line.split(b"=", 1)[1].strip().lower() == b"sha256"
    return False

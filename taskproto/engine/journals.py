"""Every journal read back as git stores it, for `taskproto verify` (engine/verify.py).

A few git processes however many journals: the refs (`for-each-ref`), every commit they reach
(`rev-list`, else a walk), and the objects through `cat-file --batch` (commits, trees, task.json
blobs: one process each). Every object is hashed again here, so a byte changed in an object file
shows; replacements are off in every git process taskproto starts (git/files.py), and the
`refs/replace/` refs are listed so a replaced journal object is named.
"""

from __future__ import annotations

import hashlib  # noqa: F401  (loaded: git/objects.py hashes thousands of objects with OpenSSL's)

from taskproto import plainjson as json
from taskproto.git import objects, signing
from taskproto.git.files import GitDirs, cat_batch, run_git
from taskproto.state import integrity
from taskproto.state.approvals import commit_fields, tree_entries
from taskproto.state.journal import ARCHIVE_PREFIX, REF_PREFIX, TASK_FILE

LIMIT = 1_000_000  # commits one journal may have: a loop in a forged history ends here


class Entry:
    """One journal commit as stored: its id, parents, message, what was signed and the signature,
    its files, task.json's bytes and JSON, and what is wrong with the object itself."""

    __slots__ = (
        "data",
        "digest",
        "files",
        "message",
        "parents",
        "payload",
        "problem",
        "revision",
        "sha",
        "sig",
        "task_json",
        "tree",
    )

    def __init__(self, sha: str) -> None:
        self.sha = sha
        self.parents: list[str] = []
        self.tree: str | None = None
        self.message = b""
        self.payload = b""
        self.sig: bytes | None = None
        self.files: dict[bytes, str] = {}
        self.task_json: bytes | None = None
        self.data: dict[str, object] = {}
        self.revision: int | None = None
        self.digest: str | None = None
        self.problem: str | None = None  # the object cannot be trusted as it is stored


class Journal:
    """One task's journal: the ref, the task, its commits oldest first (or why it breaks)."""

    __slots__ = ("broken", "commits", "ref", "task")

    def __init__(self, ref: str, task: str) -> None:
        self.ref, self.task = ref, task
        self.commits: list[Entry] = []
        self.broken: tuple[str, str] | None = None  # (commit, why) when the chain cannot be read


def task_of(ref: str) -> str:
    if ref.startswith(REF_PREFIX):
        return ref[len(REF_PREFIX) :]
    return ref[len(ARCHIVE_PREFIX) :].rsplit("/", 1)[0]


def list_refs(dirs: GitDirs, tasks: list[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """(ref, head) of the journals of `tasks`: each one's live journal, else its newest archive (a
    landed or removed task's); every journal, live and archived, when `tasks` is empty. And the
    tasks named that have none."""
    out = run_git(
        dirs.common_dir,
        "for-each-ref",
        "--format=%(refname) %(objectname)",
        REF_PREFIX,
        ARCHIVE_PREFIX,
    )
    heads = dict(
        line.partition(" ")[::2] for line in (out or b"").decode("utf-8", "replace").splitlines()
    )
    if not tasks:
        return sorted(heads.items()), []
    found: list[tuple[str, str]] = []
    missing: list[str] = []
    for task in tasks:
        archives = sorted(r for r in heads if r.startswith(ARCHIVE_PREFIX) and task_of(r) == task)
        ref = (
            REF_PREFIX + task
            if REF_PREFIX + task in heads
            else (archives[-1] if archives else None)
        )
        if ref is None:
            missing.append(task)
        else:
            found.append((ref, heads[ref]))
    return found, missing


def replaced(dirs: GitDirs) -> set[str]:
    """The objects that `refs/replace/` replaces."""
    out = run_git(dirs.common_dir, "for-each-ref", "--format=%(refname)", "refs/replace/")
    return {line.rsplit("/", 1)[-1] for line in (out or b"").decode().splitlines() if line}


def _hash_ok(kind: str, data: bytes, sha: str) -> bool:
    if len(sha) == 40:
        return objects.object_id(kind, data) == sha
    return objects.sha256_hex(b"%s %d\0" % (kind.encode(), len(data)) + data) == sha


def _objects(dirs: GitDirs, shas: list[str]) -> dict[str, tuple[str, bytes]]:
    return cat_batch(dirs.common_dir, sorted(set(shas))) if shas else {}


def _walk(dirs: GitDirs, heads: list[str]) -> dict[str, tuple[str, bytes]]:
    """Every commit the heads reach, read: the ids from one `rev-list`, else commit by commit."""
    out = run_git(dirs.common_dir, "rev-list", *heads, "--") if heads else b""
    if out is not None:
        return _objects(dirs, out.decode().split())
    found: dict[str, tuple[str, bytes]] = {}
    frontier = list(heads)
    while frontier:  # a broken object somewhere: read round by round, so the rest is read
        batch = _objects(dirs, [s for s in frontier if s not in found])
        found.update(batch)
        frontier = [
            p
            for kind, body in batch.values()
            if kind == "commit"
            for p in commit_fields(body)[1]
            if p not in found
        ]
    return found


def read_all(dirs: GitDirs, refs: list[tuple[str, str]]) -> list[Journal]:
    """The journals of `refs`, each commit read and checked as an object."""
    commits = _walk(dirs, [sha for _, sha in refs])
    size = 20 if objects.sha1_repo(dirs.common_dir) else 32
    trees = _objects(
        dirs, [t for k, b in commits.values() if k == "commit" for t in [commit_fields(b)[0]] if t]
    )
    listings = {sha: tree_entries(body, size) for sha, (kind, body) in trees.items()}
    blobs = _objects(
        dirs, [e[TASK_FILE.encode()] for e in listings.values() if TASK_FILE.encode() in e]
    )
    entries: dict[str, Entry] = {}
    for sha, (kind, body) in commits.items():
        entries[sha] = _entry(sha, kind, body, trees, listings, blobs)
    journals = []
    for ref, head in refs:
        journals.append(_chain(Journal(ref, task_of(ref)), head, entries))
    return journals


def _entry(
    sha: str,
    kind: str,
    body: bytes,
    trees: dict[str, tuple[str, bytes]],
    listings: dict[str, dict[bytes, str]],
    blobs: dict[str, tuple[str, bytes]],
) -> Entry:
    entry = Entry(sha)
    if kind != "commit":
        entry.problem = f"it is a {kind}, not a commit"
        return entry
    entry.tree, entry.parents = commit_fields(body)
    if not _hash_ok(kind, body, sha):
        entry.problem = "its stored bytes do not hash to its id (the object was changed on disk)"
        return entry
    entry.message = body.partition(b"\n\n")[2]
    entry.payload, entry.sig = signing.split_signature(body)
    entry.revision, entry.digest = integrity.parse(entry.message)
    tree = trees.get(entry.tree or "")
    if tree is None or not _hash_ok("tree", tree[1], entry.tree or ""):
        entry.problem = "its tree is missing or was changed on disk"
        return entry
    entry.files = listings.get(entry.tree or "", {})
    blob_id = entry.files.get(TASK_FILE.encode())
    blob = blobs.get(blob_id or "")
    if blob is None or not _hash_ok("blob", blob[1], blob_id or ""):
        entry.problem = "its task.json is missing or was changed on disk"
        return entry
    entry.task_json = blob[1]
    try:
        loaded = json.loads(blob[1])
    except ValueError:
        loaded = None
    if not isinstance(loaded, dict):
        entry.problem = "its task.json is not a JSON object"
        return entry
    entry.data = loaded
    return entry


def _chain(journal: Journal, head: str, entries: dict[str, Entry]) -> Journal:
    """The journal's commits from its first, following the first parent from `head`."""
    chain: list[Entry] = []
    seen: set[str] = set()
    sha: str | None = head
    while sha is not None and len(chain) < LIMIT:
        entry = entries.get(sha)
        if entry is None:
            journal.broken = (sha, "the commit is missing from this repository")
            break
        if sha in seen:
            journal.broken = (sha, "the history loops back on itself")
            break
        seen.add(sha)
        chain.append(entry)
        sha = entry.parents[0] if entry.parents else None
    chain.reverse()
    journal.commits = chain
    return journal


def commit_objects(
    dirs: GitDirs, shas: list[str]
) -> dict[str, tuple[str | None, list[str], bytes]]:
    """{sha: (tree, parents, message)} of the commits of `shas` this repository has (landed
    commits: a clone with only the journals has none)."""
    found = {}
    for sha, (kind, body) in _objects(dirs, shas).items():
        if kind == "commit" and _hash_ok(kind, body, sha):
            tree, parents = commit_fields(body)
            found[sha] = (tree, parents, body.partition(b"\n\n")[2])
    return found

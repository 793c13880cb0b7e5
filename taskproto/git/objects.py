"""Journal commits written as git's own loose objects, in-process: no git process per object.

A transition's journal commit is three or four objects (the blobs, one tree, the commit).
Writing them with `hash-object`, `mktree` and `commit-tree` costs a process each; writing the
same bytes here costs a zlib call each. The objects are exactly what those commands write (a
loose object is `zlib("<type> <size>\\0" + body)` under `objects/<2 hex>/<38 hex>`), so
`git fsck` accepts them and every git reads them. Only for the common case: a SHA-1 repository
whose objects are in its own folder; otherwise `write_commit` returns None and the caller uses
git's plumbing.
"""

from __future__ import annotations

import hashlib
import os
import time
import zlib

from taskproto.git.files import GitDirs, read_small

IDENTITY = b"taskproto <taskproto@localhost>"


def _sha1_objects(dirs: GitDirs) -> str | None:
    """The objects folder, when objects here are SHA-1 loose files this module may write."""
    if os.environ.get("GIT_OBJECT_DIRECTORY") or os.environ.get("GIT_QUARANTINE_PATH"):
        return None
    config = (read_small(os.path.join(dirs.common_dir, "config"), 1 << 20) or b"").lower()
    if b"objectformat" in config.replace(b" ", b""):
        return None  # a SHA-256 repository (or one that says so explicitly): git writes them
    objects = os.path.join(dirs.common_dir, "objects")
    return objects if os.path.isdir(objects) else None


def _write(objects: str, kind: bytes, body: bytes) -> str:
    data = kind + b" " + str(len(body)).encode() + b"\0" + body
    sha = hashlib.sha1(data).hexdigest()  # noqa: S324 - git's object name, not security
    folder = os.path.join(objects, sha[:2])
    path = os.path.join(folder, sha[2:])
    if os.path.exists(path):
        return sha  # objects are immutable: the same name is the same bytes
    os.makedirs(folder, exist_ok=True)
    tmp = os.path.join(folder, f".tmp-taskproto-{os.getpid()}-{sha[2:8]}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o444)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(zlib.compress(data, 1))
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return sha


def write_commit(
    dirs: GitDirs, files: list[tuple[str, bytes]], parent: str | None, message: str
) -> str | None:
    """Write blobs for `files` (tree entry name, bytes), their tree and a commit on `parent`;
    the commit's name, or None when this repository needs git to write its objects."""
    objects = _sha1_objects(dirs)
    if objects is None:
        return None
    entries = []
    for name, data in sorted(files, key=lambda f: f[0].encode()):
        blob = _write(objects, b"blob", data)
        entries.append(b"100644 " + name.encode() + b"\0" + bytes.fromhex(blob))
    tree = _write(objects, b"tree", b"".join(entries))
    now = int(time.time())
    offset = time.localtime(now).tm_gmtoff // 60
    sign = "+" if offset >= 0 else "-"
    stamp = f"{now} {sign}{abs(offset) // 60:02d}{abs(offset) % 60:02d}".encode()
    who = IDENTITY + b" " + stamp
    body = b"tree " + tree.encode() + b"\n"
    if parent:
        body += b"parent " + parent.encode() + b"\n"
    text = message.encode("utf-8", "surrogateescape")
    if not text.endswith(b"\n"):
        text += b"\n"  # as `git commit-tree -m` completes the last line
    body += b"author " + who + b"\ncommitter " + who + b"\n\n" + text
    return _write(objects, b"commit", body)

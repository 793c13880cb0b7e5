"""Git objects read and written in-process: loose objects (zlib + SHA-1), standard library only.

The journal writes one small commit per state change (its blobs, one tree, the commit) and
every guarded step reads the journal's head commit to check task.json against it. Starting
git for each object costs a process each (1-3 ms of work behind 5-10 ms of start-up); a loose
object is a zlib stream named by its SHA-1, which git reads like any other (`git fsck`
accepts it, `git gc` packs it later). What this module cannot do, it says by returning None,
and the caller asks git instead: objects already packed, and repositories whose object format
is not SHA-1.
"""

from __future__ import annotations

import errno
import os
import sys
import time
import zlib

from taskproto.git.files import read_small

SMALL = 16 << 10  # below this, the interpreter's own hash beats loading OpenSSL's


def _hash(name: str, data: bytes) -> str:
    """`hashlib`'s (OpenSSL: fast per byte, 2-3 ms to import) once it is loaded or the data is
    large; else the interpreter's built-in one (slower per byte, nothing to load): a hook hashes a
    few small files, a long-running process many large ones."""
    if "hashlib" not in sys.modules and len(data) < SMALL:
        try:
            module = __import__("_sha1" if name == "sha1" else "_sha256")
        except ImportError:  # a Python that names them otherwise (3.12: _sha2)
            pass
        else:
            return str(getattr(module, name)(data).hexdigest())
    import hashlib

    return hashlib.new(name, data).hexdigest()


def sha256_hex(data: bytes) -> str:
    return _hash("sha256", data)


IDENT = "taskproto <taskproto@localhost>"


def sha1_repo(common_dir: str) -> bool:
    """Whether objects in this repository are named by SHA-1 (not `objectformat = sha256`)."""
    config = read_small(os.path.join(common_dir, "config"), 1 << 20) or b""
    return b"objectformat" not in config.lower().replace(b" ", b"")


def loose_path(common_dir: str, sha: str) -> str:
    """Where git keeps object `sha` as a loose object file."""
    return os.path.join(common_dir, "objects", sha[:2], sha[2:])


def object_id(kind: str, data: bytes) -> str:
    return _hash("sha1", b"%s %d\0" % (kind.encode(), len(data)) + data)


def write(common_dir: str, kind: str, data: bytes, sync: bool = True) -> str:
    """Store one object (kind: blob, tree or commit) as a loose object; returns its id. Without
    `sync` the caller makes it durable (one sync of the file system for many: an import)."""
    sha = object_id(kind, data)
    target = loose_path(common_dir, sha)
    if os.path.exists(target):
        return sha  # objects are immutable: the same id is the same content
    folder = os.path.dirname(target)
    os.makedirs(folder, exist_ok=True)
    tmp = os.path.join(folder, f"tmp_obj_{os.getpid()}_{sha[:8]}")
    raw = zlib.compress(b"%s %d\0" % (kind.encode(), len(data)) + data, 1)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o444)
    try:
        view = memoryview(raw)
        while view:  # a short write (a full disk, a file size limit) must never pass as whole
            written = os.write(fd, view)
            if written <= 0:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), tmp)
            view = view[written:]
        if sync:
            os.fsync(fd)
    except BaseException:
        os.close(fd)
        os.unlink(tmp)
        raise
    os.close(fd)
    os.replace(tmp, target)
    return sha


def is_loose(common_dir: str, sha: str) -> bool:
    return os.path.exists(loose_path(common_dir, sha))


def read(common_dir: str, sha: str) -> tuple[str, bytes] | None:
    """(kind, contents) of a loose object, or None when it is not loose here (packed, missing)."""
    raw = read_small(loose_path(common_dir, sha), 1 << 24)
    if raw is None:
        return None
    try:
        data = zlib.decompress(raw)
    except zlib.error:
        return None
    head, sep, body = data.partition(b"\0")
    kind, _, size = head.partition(b" ")
    if not sep or not size.isdigit() or int(size) != len(body):
        return None
    return kind.decode("ascii", "replace"), body


def tree(entries: list[tuple[str, str]]) -> bytes:
    """The contents of a tree of regular files: entries are (name, blob id)."""
    # git orders tree entries by name (a file's name compares as is; no folders here)
    return b"".join(
        b"100644 %s\0%s" % (name.encode(), bytes.fromhex(sha)) for name, sha in sorted(entries)
    )


def commit(tree_id: str, parent: str | None, message: str, when: float | None = None) -> bytes:
    """The contents of a commit by taskproto (author and committer alike), in UTC."""
    stamp = f"{int(time.time() if when is None else when)} +0000"
    lines = [f"tree {tree_id}"]
    if parent:
        lines.append(f"parent {parent}")
    lines += [f"author {IDENT} {stamp}", f"committer {IDENT} {stamp}", ""]
    return ("\n".join(lines) + "\n" + message).encode()


def commit_message(body: bytes) -> bytes:
    """The message of a commit's contents (what follows the first blank line)."""
    _, _, message = body.partition(b"\n\n")
    return message

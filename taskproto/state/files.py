"""Writing taskproto's files safely, on the standard library: atomic replaces and the refusal of
links inside taskproto's folder; reading a state file with no link followed (`read_regular`).
Shared by state/store.py (the models' loads and saves) and the paths that never import pydantic
(hooks/move.py and quicksave.py, the hooks' caches, state/light.py).

Every save writes a temporary file in the same folder, fsyncs it, renames it over the old file
and fsyncs the folder, so a reader sees the old file or the new one, never a torn one.
"""

from __future__ import annotations

import errno
import os
import stat

from taskproto.errors import TaskprotoError, WriteFailed

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path
    from typing import TypeVar

    P = TypeVar("P", str, Path)

TMP_PREFIX = ".tmp-"


# why read_regular refused a file (an OSError, FileNotFoundError first, is the caller's)
LINK, NOT_REGULAR, TOO_LARGE = "a link", "not a regular file", "too large"


def read_regular(path: str, limit: int) -> bytes | str:
    """The bytes of the regular file `path`, at most `limit` of them, no link followed: one open,
    one fstat and the reads (no lstat first, no file object: doctor reads 10,000 of them). A str
    says why not: LINK, NOT_REGULAR or TOO_LARGE; any other OSError is raised."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # the last part is a symbolic link (O_NOFOLLOW)
            return LINK
        if exc.errno == errno.ENXIO:  # a socket
            return NOT_REGULAR
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return NOT_REGULAR
        if st.st_size > limit:
            return TOO_LARGE
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:  # it may grow while read: never more than limit + 1
            chunk = os.read(fd, min(left, st.st_size + 1 if not chunks else 65536))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        return TOO_LARGE if len(data) > limit else data
    finally:
        os.close(fd)


def atomic_write(path: str | os.PathLike[str], data: bytes, sync: bool = True) -> None:
    """Replace `path` with `data` atomically; on any OS failure raise WriteFailed, old file
    intact. (A str or a Path: the quick write path imports no pathlib.) Without `sync` the
    caller makes it durable (one sync of the file system for many files: an import)."""
    try:
        _atomic_write(path, data, sync)
    except OSError as exc:
        raise WriteFailed(str(path), exc.errno, exc.strerror or str(exc)) from None


def _atomic_write(path: str | os.PathLike[str], data: bytes, sync: bool = True) -> None:
    folder, name = os.path.split(os.fspath(path))
    # os.urandom, not `secrets`: importing secrets loads OpenSSL (2-3 ms of a transition)
    tmp = os.path.join(folder, f"{TMP_PREFIX}{name}.{os.getpid()}.{os.urandom(4).hex()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            if sync:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    if not sync:
        return
    dir_fd = os.open(folder or ".", os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def make_durable(paths: Sequence[str]) -> None:
    """Make files written without their fsyncs durable, all at once: the file system that holds
    them synced whole (Linux `syncfs(2)`, else `sync(2)`, which waits for the disk on Linux).
    One sync for many files costs about what one fsync does; an fsync each, five per task, is
    what made importing a thousand tasks slow."""
    if not paths:
        return
    try:
        import ctypes

        syncfs = ctypes.CDLL(None, use_errno=True).syncfs
    except (ImportError, OSError, AttributeError):
        os.sync()
        return
    devices: dict[int, str] = {}  # one folder of each file system the files are on
    for path in paths:
        folder = os.path.dirname(path) or "."
        devices.setdefault(os.stat(folder).st_dev, folder)
    for folder in devices.values():
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            if syncfs(fd) != 0:
                os.sync()
        finally:
            os.close(fd)


def refuse_links(base: str | Path, path: P) -> P:
    """Refuse `path` if a folder between `base` and it is a symbolic link; returns `path`.

    taskproto writes only below its root. A link planted there (a task folder, `agents/`,
    an agent's folder) could point anywhere, so it is never followed. The file itself is
    checked where it is read (read_bytes) and replaced, never followed (atomic_write).
    """
    no_links_between(os.fspath(base), os.fspath(path))  # ValueError when not below `base`
    return path


def no_links_between(base: str, path: str) -> None:
    """refuse_links on `str` paths (the quick write path imports no pathlib)."""
    current = base
    inner = os.path.relpath(path, base).split(os.sep)[:-1]
    if inner[:1] == [os.pardir]:
        raise ValueError(f"{path} is not below {base}")
    for part in inner:
        if part in ("", os.curdir):
            continue
        current = os.path.join(current, part)
        try:
            mode = os.lstat(current).st_mode
        except FileNotFoundError:
            return
        if stat.S_ISLNK(mode):
            raise TaskprotoError(
                f"{current} is a symbolic link; taskproto does not follow links inside its folder "
                "(they could point anywhere): remove it, then run `taskproto doctor`"
            )
        if not stat.S_ISDIR(mode):
            raise TaskprotoError(
                f"{current} is not a folder; move it aside, then run `taskproto doctor`"
            )

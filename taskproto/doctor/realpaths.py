"""`os.path.realpath` for doctor's detection, remembering what it resolved (snapshot.py)."""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path


def real(path: Path | str) -> str:
    return os.path.realpath(path)


class RealPaths:
    """`os.path.realpath`, remembering every folder it resolved: a path under a folder already
    resolved costs one `lstat` (is its last part a link?) instead of one per part, and none for a
    path that a folder listing of this run showed is no link (`plain`). Doctor's detection
    resolves each worktree path several times (7,000 calls at 300 tasks), and nothing changes on
    disk while it runs; repairs use `real`, which remembers nothing."""

    def __init__(self) -> None:
        self.known: dict[str, str] = {}
        self.plain: set[str] = set()  # absolute, normal paths listed as folders that are no links

    def listed(self, folder: str, entries: Sequence[os.DirEntry[str]]) -> None:
        """Remember which of `entries` (os.scandir of `folder`, absolute) are folders, not links.
        The listing knows it from the folder itself (d_type): no system call per entry."""
        for e in entries:
            try:
                if e.is_dir(follow_symlinks=False):
                    self.plain.add(os.path.join(folder, e.name))
            except OSError:
                pass

    def __call__(self, path: Path | str) -> str:
        text = os.fspath(path)
        found = self.known.get(text)
        if found is not None:
            return found
        if _normal(text):
            absolute = text  # what abspath would return
            parent, _, name = text.rpartition(os.sep)
            parent = parent or os.sep
        else:
            absolute = os.path.abspath(text)  # `.` and `//` go; so would `..`, lexically:
            parent, name = os.path.split(absolute)
            if not name or ".." in text.split(os.sep):
                found = os.path.realpath(text)  # `..` resolves after the links before it: git's
                self.known[text] = found
                return found
        if absolute in self.plain:
            link = False
        else:
            try:
                link = stat.S_ISLNK(os.lstat(absolute).st_mode)
            except OSError:
                link = False
        if link:
            found = os.path.realpath(absolute)
        else:
            up = self.known.get(parent)
            found = os.path.join(self(parent) if up is None else up, name)
        self.known[text] = found
        return found

    def exists(self, path: Path | str) -> bool:
        """`os.path.lexists`, answered from the listings when they showed it."""
        text = os.fspath(path)
        return text in self.plain or os.path.lexists(text)


def _normal(text: str) -> bool:
    """An absolute path with no `.`, `..` or empty part: os.path.abspath would return it as is."""
    sep = os.sep
    return (
        text[:1] == sep
        and text[-1:] != sep
        and sep + sep not in text
        and f"{sep}.{sep}" not in text
        and f"{sep}..{sep}" not in text
        and not text.endswith((f"{sep}.", f"{sep}.."))
    )

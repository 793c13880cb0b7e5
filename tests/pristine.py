"""A folder that is expensive to build (a repository with tasks, worktrees and approvals, made by
tens of `taskproto` processes), built once for a test module and put back before each test.

Each test gets the folder at the same absolute path, in the state it was built in: the worktrees'
links (`.git` files, `.git/worktrees/*/gitdir`) and everything else that names an absolute path
stay true, so the test sees what it saw when the folder was built for it alone. The copy keeps
modes, symbolic links and modification times (shutil.copytree with copy2); inode numbers and
change times are new, as after any restore from a backup.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import isolate


class Pristine:
    """`place` and the HOME it was built with (the sessions' and repositories' records
    `taskproto` keeps there), kept in sibling folders; `restore()` puts them back."""

    def __init__(self, place: Path, home: Path) -> None:
        self.place = place
        self.kept = place.with_name(place.name + "-pristine")
        shutil.copytree(place, self.kept, symlinks=True)
        self.home = home
        for path in home.rglob("*"):  # copied into each test's own HOME: no file may name this
            if path.is_file():
                assert str(home) not in path.read_text(errors="replace"), path

    def restore(self) -> Path:
        """`place` as it was built, and the build's HOME copied into this test's HOME (set by
        tests/conftest.py before any other function fixture): whatever a test wrote in `place`
        or beside it is gone."""
        shutil.rmtree(self.place)
        shutil.copytree(self.kept, self.place, symlinks=True)
        shutil.copytree(self.home, os.environ["HOME"], symlinks=True, dirs_exist_ok=True)
        return self.place


def built_once(
    tmp_path_factory: pytest.TempPathFactory, build: Callable[[Path], None]
) -> Iterator[Pristine]:
    """For a module-scoped fixture: `build(place)` run once in an empty folder `place`, in the
    environment every test gets (tests/conftest.py `isolate`) with a HOME of its own, then kept."""
    place = tmp_path_factory.mktemp("pristine") / "place"
    place.mkdir()
    home = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as monkeypatch:
        isolate(monkeypatch, home)
        build(place)
    yield Pristine(place, home)

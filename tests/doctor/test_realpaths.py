"""Doctor's remembering realpath (snapshot.RealPaths) answers as os.path.realpath does, on a real
tree of folders, links (to folders, chains, relative with `..`, dangling, a loop) and `..`."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from taskproto.doctor.snapshot import RealPaths


def test_it_agrees_with_realpath_everywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = tmp_path / "t"
    (base / "a" / "b" / "c").mkdir(parents=True)
    (base / "x" / "y").mkdir(parents=True)
    (base / "a" / "b" / "c" / "f.txt").write_text("f")
    (base / "link-to-a").symlink_to(base / "a")
    (base / "a" / "up").symlink_to("../x/y")  # relative, with ..
    (base / "chain").symlink_to("link-to-a")  # a link to a link
    (base / "dangling").symlink_to(base / "nowhere")
    (base / "loop1").symlink_to("loop2")
    (base / "loop2").symlink_to("loop1")
    tails = [
        "",
        "a",
        "a/b/c/f.txt",
        "link-to-a/b/c",
        "link-to-a/b/c/f.txt",
        "a/up",
        "a/up/z",
        "a/up/../y",
        "chain/b",
        "chain/../x",
        "dangling",
        "dangling/more",
        "loop1",
        "loop1/x",
        "a/./b//c/",
        "a/b/../b/c",
        "missing/deeper/still",
    ]
    paths = [str(base / t) if t else str(base) for t in tails]
    resolve = RealPaths()
    for _ in range(2):  # the second time from what it remembers
        for p in paths:
            assert resolve(p) == os.path.realpath(p), p
    monkeypatch.chdir(base)  # relative paths resolve against the working folder, as realpath's do
    fresh = RealPaths()
    for t in ["a/b", "link-to-a/b", "a/up", "./chain", "../t/a"]:
        assert fresh(t) == os.path.realpath(t), t
    assert set(paths) <= set(resolve.known)  # remembered, with the folders above them

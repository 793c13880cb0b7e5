"""A board on a file system another machine may change (NFS, SMB, sshfs...) gets no inotify notice
of those changes: board/notices.py `shared_filesystem` tells such a file system from the mount
that holds the repository, and there every request looks at every task and the watcher polls."""

from __future__ import annotations

import os
from pathlib import Path

from taskproto.board.notices import shared_filesystem


def mountinfo(*mounts: tuple[str, str]) -> str:
    """/proc/self/mountinfo's lines for (mount point, file system type), in mount order."""
    return "".join(
        f"{20 + i} 1 0:{30 + i} / {point} rw,relatime shared:{i} - {kind} src{i} rw\n"
        for i, (point, kind) in enumerate(mounts)
    )


def test_the_mount_that_holds_the_repository_decides(tmp_path: Path) -> None:
    real = os.path.realpath(tmp_path)
    table = mountinfo(("/", "ext4"), (real, "nfs4"), (f"{real}/local", "ext4"))
    assert shared_filesystem(str(tmp_path), table) == "nfs4"
    assert shared_filesystem(str(tmp_path / "repo" / "deeper"), table) == "nfs4"
    assert shared_filesystem(f"{real}/local/repo", table) is None  # a local mount inside
    assert shared_filesystem(f"{real}x", table) is None  # a sibling that only starts the same
    assert shared_filesystem("/elsewhere", table) is None


def test_a_mount_point_written_in_octal_and_a_path_through_a_link(tmp_path: Path) -> None:
    share = tmp_path / "my share"
    share.mkdir()
    link = tmp_path / "link"
    link.symlink_to(share)
    escaped = os.path.realpath(share).replace(" ", "\\040")
    table = mountinfo(("/", "ext4"), (escaped, "fuse.sshfs"))
    assert shared_filesystem(str(link / "repo"), table) == "fuse.sshfs"


def test_the_last_mount_over_a_point_is_the_one_seen(tmp_path: Path) -> None:
    real = os.path.realpath(tmp_path)
    assert shared_filesystem(real, mountinfo(("/", "ext4"), (real, "nfs"), (real, "tmpfs"))) is None
    assert shared_filesystem(real, mountinfo(("/", "ext4"), (real, "tmpfs"), (real, "cifs"))) == (
        "cifs"
    )


def test_this_machines_own_folder_is_local(tmp_path: Path) -> None:
    """Read from the real /proc/self/mountinfo: the test's folder is on a local disk here."""
    assert shared_filesystem(str(tmp_path)) is None

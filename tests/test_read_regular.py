"""files.read_regular: a state file read with no link followed, in one open; what it refuses."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from taskproto.errors import TaskprotoError
from taskproto.state import files, light, store


def test_a_regular_file_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "task.json"
    path.write_bytes(b"x" * 100_000)
    assert files.read_regular(str(path), 100_000) == b"x" * 100_000
    assert store.read_bytes(path) == b"x" * 100_000
    assert light.read_bytes(str(path)) == (b"x" * 100_000, None)


def test_a_link_is_refused_even_to_a_good_file(tmp_path: Path) -> None:
    (tmp_path / "real.json").write_bytes(b"{}")
    link = tmp_path / "task.json"
    link.symlink_to(tmp_path / "real.json")
    assert files.read_regular(str(link), 100) == files.LINK
    with pytest.raises(TaskprotoError, match="is a symbolic link"):
        store.read_bytes(link)
    assert light.read_bytes(str(link))[0] is None


def test_a_folder_a_fifo_and_a_socket_are_not_regular_files(tmp_path: Path) -> None:
    folder = tmp_path / "dir"
    folder.mkdir()
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    sock_path = tmp_path / "sock"
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(sock_path))
    try:
        for path in (folder, fifo, sock_path):
            assert files.read_regular(str(path), 100) == files.NOT_REGULAR, path
            with pytest.raises(TaskprotoError, match="not a regular file"):
                store.read_bytes(path)
            assert light.read_bytes(str(path))[0] is None
    finally:
        sock.close()


def test_a_file_past_the_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "task.json"
    path.write_bytes(b"y" * 101)
    assert files.read_regular(str(path), 100) == files.TOO_LARGE
    assert files.read_regular(str(path), 101) == b"y" * 101


def test_a_missing_file_is_the_callers(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        files.read_regular(str(tmp_path / "none"), 100)
    with pytest.raises(FileNotFoundError):
        store.read_bytes(tmp_path / "none")
    assert light.read_bytes(str(tmp_path / "none")) == (None, f"{tmp_path / 'none'} is missing")

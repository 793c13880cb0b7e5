"""Where each task and agent branch last pointed: `<task>/tips.log`, appended by the
reference-transaction hook at every committed move, so doctor re-creates a deleted branch at exactly
its last commit (docs/doctor.md).

One line a move: `<time_ns> <old> <new> <branch>`. An append is one `write` of a short line (atomic
with O_APPEND), no lock, no fsync: it is a record for recovery, not the journal. The file stays
bounded: past `LIMIT` bytes it is renamed to `tips.old` and the new file starts with the last line
of each branch; readers read both and take the newest line by time, so a line a racing hook wrote
into the renamed file still counts. Standard library only (the hook's path).
"""

from __future__ import annotations

import os
import time

ZERO = "0" * 40
NAME, OLD = "tips.log", "tips.old"
LIMIT = 64 * 1024


def _append(path: str, data: bytes) -> int:
    """Append `data`; the file's size after it (0 when it could not be written)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    except OSError:
        return 0
    try:
        os.write(fd, data)
        return os.fstat(fd).st_size
    except OSError:
        return 0
    finally:
        os.close(fd)


def record(task_dir: str, moves: list[tuple[str, str, str]]) -> None:
    """Append (old, new, branch) of each move; never fails the hook (a warning-free best effort)."""
    if not moves or not os.path.isdir(task_dir):
        return
    now = time.time_ns()
    data = "".join(f"{now} {old} {new} {branch}\n" for old, new, branch in moves).encode()
    path = os.path.join(task_dir, NAME)
    if _append(path, data) > LIMIT:
        _rotate(task_dir, path)


def _rotate(task_dir: str, path: str) -> None:
    old = os.path.join(task_dir, OLD)
    try:
        os.replace(path, old)
    except OSError:
        return
    kept = _lines(old)  # the newest line of each branch, carried into the new file
    _append(path, "".join(f"{t} {o} {n} {b}\n" for b, (t, o, n) in sorted(kept.items())).encode())


def _lines(path: str) -> dict[str, tuple[int, str, str]]:
    """branch -> (time, old, new) of its newest line in `path`."""
    found: dict[str, tuple[int, str, str]] = {}
    try:
        with open(path, "rb") as fh:
            text = fh.read().decode("utf-8", "replace")
    except OSError:
        return found
    for line in text.splitlines():
        parts = line.split()
        if len(parts) != 4 or not parts[0].isdigit():
            continue
        at, old, new, branch = int(parts[0]), parts[1], parts[2], parts[3]
        seen = found.get(branch)
        if seen is None or at >= seen[0]:
            found[branch] = (at, old, _last(seen, old, new))
    return found


def _last(seen: tuple[int, str, str] | None, old: str, new: str) -> str:
    """A deletion keeps the value the branch had: git's old value, else the previous line's."""
    if new != ZERO:
        return new
    if old != ZERO:
        return old
    return seen[2] if seen is not None else ZERO


def last(task_dir: str, branch: str) -> str | None:
    """The commit `branch` last held, as the hook recorded it (None: no record)."""
    rows: list[tuple[int, str, str]] = []
    for name in (OLD, NAME):
        row = _lines(os.path.join(task_dir, name)).get(branch)
        if row is not None:
            rows.append(row)
    if not rows:
        return None
    sha = max(rows)[2]
    return sha if sha != ZERO else None

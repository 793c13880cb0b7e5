"""`taskproto task list --watch` as a user runs it: a real process, its frames read as they come."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Watch:
    proc: subprocess.Popen[str]
    lines: list[str] = field(default_factory=list)  # appended by a reader thread

    def text(self) -> str:
        """Every frame printed so far."""
        return "".join(self.lines)


@contextmanager
def list_watch(cwd: Path) -> Iterator[Watch]:
    """`taskproto task list --watch` running in `cwd` until the block ends."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "taskproto", "task", "list", "--watch"],
        cwd=cwd,
        env=dict(os.environ),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    watch = Watch(proc)

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            watch.lines.append(line)

    threading.Thread(target=read, daemon=True).start()
    try:
        yield watch
    finally:
        proc.terminate()
        proc.wait(10)

"""A headless agent's log writer: reads the client's output on stdin and appends it to
agent.log; past `LOG_MAX` bytes the file is renamed to agent.log.1 and a new one begun, so the
log stays bounded and no line is lost in the rotation. It runs in the agent's process group
(ops/supervisor.py's wrapper pipes the client into it) and ends when the client's output does.
Standard library only.

    python -I -m taskproto.ops.agent_log PATH
"""

from __future__ import annotations

import os
import sys

LOG_MAX = 1 << 20  # bytes of agent.log before it is rotated (ops/agent_records.py reads both)
CHUNK = 1 << 16


def _open(path: str) -> tuple[int, int]:
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    return fd, os.fstat(fd).st_size


def run(path: str, limit: int = LOG_MAX) -> int:
    fd, size = _open(path)
    try:
        while True:
            chunk = os.read(0, CHUNK)
            if not chunk:
                return 0
            if size and size + len(chunk) > limit:
                os.close(fd)
                os.replace(path, f"{path}.1")
                fd, size = _open(path)
            os.write(fd, chunk)
            size += len(chunk)
    finally:
        os.close(fd)


if __name__ == "__main__":
    sys.exit(run(sys.argv[1]))

"""A heartbeat is the last change of its task's folder: the SessionStart fast path (hook.sh)
answers in `sh` only while the folder is no newer than its heartbeat.json. A write stopped
between the file's write and its rename (a busy machine) must keep that true: real processes,
stopped at random moments."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

WRITER = """
import os, sys
from taskproto.state import beat
folder, rounds = sys.argv[1], int(sys.argv[2])
late = 0
for _ in range(rounds):
    beat.write(folder, "s1", 1, "2026-01-01T00:00:00+00:00")
    if os.stat(folder).st_mtime_ns > os.stat(beat.path(folder)).st_mtime_ns:
        late += 1
print(late)
"""


def test_the_heartbeat_file_is_never_older_than_its_folder(tmp_path: Path) -> None:
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(tmp_path), "4000"], stdout=subprocess.PIPE, text=True
    )
    rng = random.Random(7)
    stops = 0
    while writer.poll() is None and stops < 200:
        time.sleep(rng.uniform(0.0005, 0.004))
        try:
            os.kill(writer.pid, signal.SIGSTOP)
            time.sleep(0.006)  # longer than a clock tick of the file system's times
            os.kill(writer.pid, signal.SIGCONT)
        except ProcessLookupError:
            break
        stops += 1
    out, _ = writer.communicate(timeout=120)
    assert writer.returncode == 0
    assert stops > 20, "the writer ended before it was stopped often enough"
    assert int(out) == 0, f"{out.strip()} of 4000 heartbeats were older than their folder"

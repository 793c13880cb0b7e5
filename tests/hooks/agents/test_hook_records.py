"""`sh`'s activity records: each a new file (`<session>.sh`, then `<session>+1.sh` ... `+64`), never
one rewritten or renamed over, so a turn starts no `mv`; the session's next Python run puts the
newest at `<session>.sh` and removes the rest (activity.sweep). Real repository, real hook script,
real concurrent processes."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

from taskproto.clients.settings import SCRIPT
from taskproto.hooks.agents import activity

from .fastpath import NOBODY, Fast, sh_record, stop


def _numbered(fast: Fast, session: str = NOBODY) -> list[int]:
    prefix = session + "+"
    return sorted(
        int(n[len(prefix) : -len(activity.SH)])
        for n in os.listdir(fast.root / "activity")
        if n.startswith(prefix) and n.endswith(activity.SH)
    )


def test_the_last_slot_sends_the_turn_to_python_which_sweeps(fast: Fast) -> None:
    data = stop(NOBODY, fast.engine.config.repo)
    assert not fast.run("claude", "Stop", data).started  # the first record: <session>.sh
    for n in range(1, activity.SLOTS + 1):
        assert not fast.run("claude", "Stop", data).started, n
        assert _numbered(fast) == list(range(1, n + 1))
    run = fast.run("claude", "Stop", data)
    assert run.started, "every slot taken: Python"
    assert _numbered(fast) == [] and (fast.root / "activity" / f"{NOBODY}.sh").is_file()
    # the newest is kept: the 64th, renamed; then sh numbers from 1 again
    assert not fast.run("claude", "Stop", data).started
    assert _numbered(fast) == [1]
    assert activity.last_slot(str(fast.root / "activity"), NOBODY) == 1


def test_the_board_reads_the_newest_record(fast: Fast) -> None:
    repo = fast.engine.config.repo
    events = ["Stop", "UserPromptSubmit", "Stop", "Notification", "UserPromptSubmit"]
    for event in events:
        extra = {"message": "Claude needs your permission"} if event == "Notification" else {}
        data = stop(NOBODY, repo, hook_event_name=event, **extra)
        assert not fast.run("claude", event, data).started
        seen = activity.read_all(str(fast.root))[NOBODY]
        assert seen["event"] == event and "quiet" not in seen
        time.sleep(0.01)  # the file clock's tick: the newest is the newest by mtime
    assert _numbered(fast) == [1, 2, 3, 4]
    assert json.loads(sh_record(fast.root, NOBODY).read_text())["event"] == "UserPromptSubmit"


def test_sweep_keeps_the_newest_and_touches_no_other_session(tmp_path: Path) -> None:
    folder = tmp_path / "activity"
    folder.mkdir()
    now = time.time_ns()

    def put(name: str, age: int, text: str | None = None) -> None:
        (folder / name).write_text(text or name)
        os.utime(folder / name, ns=(now - age, now - age))

    put("a.sh", 50)
    put("a+1.sh", 40)
    put("a+2.sh", 10)  # the newest
    put("a+3.sh", 30)
    for other in ("ab+1.sh", "a.1.sh", "a.json", "a+x.sh", "b+1.sh"):
        put(other, 5)
    activity.sweep(str(folder), "a")
    assert (folder / "a.sh").read_text() == "a+2.sh"
    assert sorted(os.listdir(folder)) == ["a+x.sh", "a.1.sh", "a.json", "a.sh", "ab+1.sh", "b+1.sh"]
    # a tie on the clock: the higher number was made later
    put("a+1.sh", 0)
    put("a+2.sh", 0)
    activity.sweep(str(folder), "a")
    assert (folder / "a.sh").read_text() == "a+2.sh"
    assert activity.last_slot(str(folder), "a") == 0


def test_another_sessions_records_are_swept_only_when_all_are_an_hour_old(tmp_path: Path) -> None:
    """A session that ended without SessionEnd leaves its numbered records: the next sweep of any
    session takes them, once they are all over an hour old (no hook of it is running then)."""
    folder = tmp_path / "activity"
    folder.mkdir()
    now = time.time_ns()
    hour = activity.STALE * 1_000_000_000

    def put(name: str, age: int) -> None:
        (folder / name).write_text(name)
        os.utime(folder / name, ns=(now - age, now - age))

    put("me+1.sh", 0)
    for n, age in ((1, 3 * hour), (2, 2 * hour), (3, hour + 10**9)):  # ended long ago
        put(f"gone+{n}.sh", age)
    put("busy+1.sh", 2 * hour)
    put("busy+2.sh", 10**9)  # its last turn a second ago
    put("half+1.sh", 2 * hour)
    put("half+2.sh", 2 * hour)
    put("half.sh", 0)  # renamed there by a sweep, a moment ago: not all of it is old
    activity.sweep(str(folder), "me")
    assert sorted(os.listdir(folder)) == [
        "busy+1.sh",
        "busy+2.sh",
        "gone.sh",
        "half+1.sh",
        "half+2.sh",
        "half.sh",
        "me.sh",
    ]
    assert (folder / "gone.sh").read_text() == "gone+3.sh"


def test_one_sessions_hooks_racing_each_other_lose_nothing(fast: Fast) -> None:
    """Real processes: eight hooks of one session at once, again and again. Two may pick the same
    next name: the second finds it taken (O_EXCL) and goes to Python. Every run answers, each
    run `sh` answered left a record of its own, whole, and no temporary file is left."""
    data = stop(NOBODY, fast.engine.config.repo)
    assert not fast.run("claude", "Stop", data).started
    env = {k: v for k, v in os.environ.items() if k != "TASKPROTO_HOOK_FASTPATH"}
    stub = fast.base / "stub-python"  # Python only notes its start: only sh's records are made
    starts = fast.base / "starts"
    stub.write_text(f"#!/bin/sh\ncat > /dev/null\necho started >> {starts}\n")
    stub.chmod(0o755)
    argv = ["/bin/sh", str(SCRIPT), str(stub), "claude", "Stop"]
    folder = fast.root / "activity"
    python = 0
    for _ in range(6):
        procs = [
            subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                cwd=fast.engine.config.repo,
                env=env,
            )
            for _ in range(8)
        ]
        for proc in procs:  # all started and waiting for their payload
            assert proc.stdin is not None
            proc.stdin.write(data)
            proc.stdin.flush()
        for proc in procs:  # let them go at once: each reads to the end of its input
            assert proc.stdin is not None
            proc.stdin.close()
        for proc in procs:
            assert proc.stdout is not None
            assert proc.stdout.read() == b"" and proc.wait() == 0
        ran = len(starts.read_text().splitlines()) if starts.exists() else 0
        # one record for each run `sh` answered: none written over another's
        assert len(_numbered(fast)) == 8 - (ran - python)
        python = ran
        for name in os.listdir(folder):
            assert not name.startswith("."), name
            if name.endswith(activity.SH):
                record = json.loads((folder / name).read_text())
                assert record["session"] == NOBODY and record["event"] == "Stop"
        activity.sweep(str(folder), NOBODY)  # as the session's next Python run does
        assert _numbered(fast) == []

"""offer_known.py: renewing SessionStart's offer after a command reads again only the tasks whose
files changed since the last reading, and the offer stays what a full reading gives. Real
repositories, the real CLI; the files a command opens counted with strace."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from taskproto.hooks.agents import offer, offer_known, quiet
from taskproto.hooks.flags import warm
from taskproto.state.files import atomic_write

from .fastpath import NOBODY, Fast
from .test_hook_offer import cache, later, start

needs_strace = pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")


def _opened(fast: Fast, trace: Path, *args: str, session: str) -> set[str]:
    """The task.json files a `taskproto` command opens."""
    env = {**os.environ, "TASKPROTO_SESSION": session}
    done = subprocess.run(
        ["strace", "-f", "-qq", "-e", "trace=openat", "-o", str(trace)]
        + [sys.executable, "-m", "taskproto", *args],
        cwd=fast.engine.config.repo,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return set(re.findall(r'"[^"]*/tasks/([^/"]+)/task\.json"', trace.read_text()))


def _offer_of(fast: Fast) -> str:
    run = fast.run("claude", "SessionStart", start("claude", fast.engine.config.repo))
    assert not run.started, "the offer renewed by the command answers the start in sh"
    return run.answer[1]


@needs_strace
def test_a_command_reads_again_only_the_tasks_it_changed(fast: Fast, tmp_path: Path) -> None:
    engine = fast.engine
    for i in range(8):
        engine.create_task(f"k{i}", description=f"task {i}")
    assert fast.run("claude", "SessionStart", start("claude", engine.config.repo)).started
    kept = Path(offer_known.Known(engine.config.layout, 0).path)
    assert kept.is_file()  # Python's answer read every task, and kept them
    kept.unlink()
    later()
    trace = tmp_path / "trace"
    first = _opened(fast, trace, "claim", "k3", session="someone")
    assert {"k0", "k5", "k7", "t2", "k3"} <= first  # nothing kept: every task
    later()
    second = _opened(fast, trace, "transition", "k3", "CLASSIFIED", session="someone")
    assert second == {"k3"}
    assert "k3 (CLASSIFIED) is taken by live session someone" in _offer_of(fast)
    later()
    third = _opened(fast, trace, "release", "k3", session="someone")
    assert third == {"k3"}
    assert "k3 (CLASSIFIED): task 3" in _offer_of(fast)


def test_a_task_rewritten_in_place_to_its_old_size_and_time_is_read_again(fast: Fast) -> None:
    """Its ctime gives it away: nothing sets a ctime back."""
    layout = fast.engine.config.layout
    warm(layout, {"task-protocol"})
    gathered = offer.gather(layout)
    assert gathered is not None and "t2 (INIT)" in " ".join(gathered[0].body())
    path = fast.engine.config.task_file("t2")
    before = os.stat(path)
    data = json.loads(path.read_bytes())
    data["priority"] = 3 if data["priority"] != 3 else 1  # one digit for another
    raw = json.dumps(data, indent=2).encode() + b"\n"
    assert len(raw) == before.st_size
    later()
    with open(path, "r+b") as fh:  # in place: the same inode
        fh.write(raw)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    key = offer_known.Known(layout, quiet.started(layout)).key("t2")
    assert key is not None and key[1][:5] == [
        before.st_dev,
        before.st_ino,
        before.st_mode,
        before.st_size,
        before.st_mtime_ns,
    ]
    # the journal no longer vouches for the hand edit: the full reading says so
    with pytest.raises(Exception, match="journal"):
        offer.gather(layout)


def test_a_task_changed_in_the_readings_own_tick_is_not_kept(fast: Fast) -> None:
    layout = fast.engine.config.layout
    known = offer_known.Known(layout, quiet.started(layout))
    fast.engine.create_task("t5")  # written after the reading began: its ctime is not older
    key = known.key("t5")
    data = json.loads(fast.engine.config.task_file("t5").read_bytes())
    known.keep("t5", key, data)
    assert "t5" not in known.kept
    later()
    older = offer_known.Known(layout, quiet.started(layout))
    older.keep("t5", older.key("t5"), data)  # a reading that began later keeps it
    assert "t5" in older.kept


def test_what_was_kept_is_a_hint(fast: Fast) -> None:
    """A file of another shape, or garbage, counts as empty: every task is read again."""
    layout = fast.engine.config.layout
    warm(layout, {"task-protocol"})
    later()
    assert offer.gather(layout) is not None
    kept = Path(offer_known.Known(layout, 0).path)
    good = kept.read_bytes()
    assert set(json.loads(good)["tasks"]) == {"t1", "t2"}
    for bad in (b"garbage", b'{"version": 1, "tasks": {"t2": [1, 2]}}', b"[]"):
        atomic_write(kept, bad)
        found = offer.gather(layout)
        assert found is not None and "t2 (INIT)" in " ".join(found[0].body())
        assert json.loads(kept.read_bytes())["tasks"].keys() == {"t1", "t2"}
    # a task kept with other fields (say, by an older version): read again, not trusted
    data = json.loads(kept.read_bytes())
    data["tasks"]["t2"][1] = {"state": "INIT"}
    atomic_write(kept, json.dumps(data).encode())
    assert offer_known.Known(layout, 0).get("t2", offer_known.Known(layout, 0).key("t2")) is None


def test_a_link_on_the_way_is_never_kept(fast: Fast, tmp_path: Path) -> None:
    layout = fast.engine.config.layout
    folder = fast.engine.config.task_dir("t2")
    moved = tmp_path / "t2-real"
    folder.rename(moved)
    folder.symlink_to(moved)
    assert offer_known.Known(layout, quiet.started(layout)).key("t2") is None


def test_the_session_start_offer_is_unchanged(fast: Fast) -> None:
    """With the readings kept, the start after a command says what Python says reading all."""
    repo = fast.engine.config.repo
    data = start("claude", repo)
    fast.run("claude", "SessionStart", data)
    later()
    assert cache(fast).is_file()
    run = fast.both("claude", "SessionStart", data, NOBODY)
    assert not run.started

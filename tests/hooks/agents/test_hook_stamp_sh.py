"""The stamp `sh` keeps for a session that owns no task: its own activity record
(`activity/<session>.sh`), marked when it was made in a turn that found no task naming the session.
It is made before the task files are listed and read, so the next turn greps only the tasks that
changed since, with no process more (the record is a new file, no `mv`). A file of the record's
very mtime counts as changed: a claim made while the hook ran is never missed. Real repository,
real hook script; the programs counted with strace."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from taskproto.hooks.agents import activity, quiet

from .fastpath import NOBODY, OWNER, Fast, programs, sh_record, stop

needs_strace = pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
MARK = ', "quiet": "owns no task"}'


def _record(fast: Fast, session: str) -> Path:
    return sh_record(fast.root, session)


def _marked(fast: Fast, session: str) -> bool:
    return _record(fast, session).read_text().rstrip("\n").endswith(MARK)


def _python_answered(fast: Fast) -> None:
    """The owner's first Stop goes to Python, which leaves its stamps."""
    data = stop(OWNER, fast.engine.config.task_worktree("t1"))
    assert fast.run("claude", "Stop", data).started


@needs_strace
def test_a_turn_greps_only_what_changed_since_the_last(fast: Fast, tmp_path: Path) -> None:
    _python_answered(fast)
    nobody = stop(NOBODY, fast.engine.config.repo)
    trace = tmp_path / "trace"
    # no stamp: every task; the session's first record is made in place
    assert programs("Stop", nobody, trace) == ["sh", "grep"]
    assert _marked(fast, NOBODY)
    assert programs("Stop", nobody, trace) == ["sh"]  # nothing changed since
    # another session moves a task: one grep over what changed, then nothing again
    time.sleep(0.02)
    fast.engine.claim("t2", "someone", os.getpid())
    assert programs("Stop", nobody, trace) == ["sh", "grep"]
    assert programs("Stop", nobody, trace) == ["sh"]
    # an owner's heartbeat changes its task's folder, not its task.json: nothing to grep
    from taskproto.state import beat

    time.sleep(0.02)
    beat.write(fast.engine.config.task_dir("t1"), OWNER, os.getpid(), datetime.now(UTC).isoformat())
    assert programs("Stop", nobody, trace) == ["sh"]
    data = stop(NOBODY, fast.engine.config.repo, hook_event_name="UserPromptSubmit")
    assert programs("UserPromptSubmit", data, trace) == ["sh", "grep"]  # a prompt: no stamp
    # a notification is recorded unchecked, so it is no stamp: the next turn checks every task
    # that changed since Python's stamp (here: t2's claim)
    note = stop(NOBODY, fast.engine.config.repo, hook_event_name="Notification", message="hi")
    assert programs("Notification", note, trace) == ["sh"]
    assert not _marked(fast, NOBODY)
    assert programs("Stop", nobody, trace) == ["sh", "grep"]
    assert [n for n in os.listdir(fast.root / "activity") if n.startswith(".")] == []


def test_a_claim_in_the_stamps_own_tick_is_seen(fast: Fast) -> None:
    """A claim written while `sh` read the task files lands in the same tick of the file clock as
    the stamp, or later: both send the next turn to Python, which finds the session's task."""
    _python_answered(fast)
    nobody = stop(NOBODY, fast.engine.config.repo)
    assert not fast.run("claude", "Stop", nobody).started
    assert _marked(fast, NOBODY)
    made = os.stat(_record(fast, NOBODY)).st_mtime_ns
    task = fast.engine.config.task_dir("t2")
    fast.engine.claim("t2", NOBODY, os.getpid())
    for path in (task / "task.json", task):  # as if written in the stamp's own tick
        os.utime(path, ns=(made, made))
    run = fast.run("claude", "Stop", nobody)
    assert run.started, "a task of the stamp's time was taken for one read before it"


def test_the_owners_record_is_no_stamp(fast: Fast) -> None:
    """Only a turn that found no task naming the session marks its record: the owner's stamp is
    Python's alone."""
    _python_answered(fast)
    data = stop(OWNER, fast.engine.config.task_worktree("t1"))
    assert not fast.run("claude", "Stop", data).started
    assert not _marked(fast, OWNER)


def test_a_journal_without_its_task_file_goes_to_python(fast: Fast) -> None:
    """A journal moved and its task.json is gone: Python may rebuild it (and find the session in
    it); `sh` does not decide."""
    _python_answered(fast)
    nobody = stop(NOBODY, fast.engine.config.repo)
    assert not fast.run("claude", "Stop", nobody).started  # stamped
    repo = fast.engine.config.repo
    time.sleep(0.02)
    env = {**os.environ, "TASKPROTO_INTERNAL": "1"}  # past the branch guard, as a script could
    subprocess.run(
        ["git", "update-ref", "refs/taskproto/tasks/ghost", "refs/taskproto/tasks/t2"],
        cwd=repo,
        env=env,
        check=True,
    )
    assert fast.run("claude", "Stop", nobody).started


def test_a_turn_handed_to_python_leaves_no_record_file_behind(fast: Fast) -> None:
    """The record is made before the task files are read; when Python takes the turn after all
    (a prompt in a task's worktree, a task that names the session), it is removed."""
    _python_answered(fast)
    worktree = fast.engine.config.task_worktree("t2")
    prompt = stop(NOBODY, worktree, hook_event_name="UserPromptSubmit", prompt="go on")
    assert fast.run("claude", "UserPromptSubmit", prompt).started
    fast.engine.claim("t2", NOBODY, os.getpid())
    assert fast.run("claude", "Stop", stop(NOBODY, fast.engine.config.repo)).started
    assert [n for n in os.listdir(fast.root / "activity") if n.startswith(".")] == []


def test_a_planted_link_at_the_stamp_goes_to_python(fast: Fast, tmp_path: Path) -> None:
    _python_answered(fast)
    target = tmp_path / "victim"
    target.write_text("keep me\n")
    stamp = Path(quiet.paths(fast.engine.config.layout, NOBODY)[0])
    stamp.symlink_to(target)
    nobody = stop(NOBODY, fast.engine.config.repo)
    assert fast.run("claude", "Stop", nobody).started
    assert target.read_text() == "keep me\n"
    assert not stamp.is_symlink() and stamp.read_text() == "- -\n"  # Python's, in its place


def test_a_claim_racing_the_hook_is_never_hidden_by_its_stamp(fast: Fast, tmp_path: Path) -> None:
    """Real processes: the hook runs while task t2's task.json is replaced by one that names the
    session (as a claim writes it: a new file renamed over the old, then the tasks' index line),
    at random moments. Whatever the order, the next turn must not be answered "owns no task" in
    `sh`. Python is a stand-in that only records its start, so the only stamps are those `sh`
    leaves."""
    import json
    import random

    from taskproto.clients.settings import SCRIPT
    from taskproto.state import index
    from taskproto.state.files import atomic_write

    def saved(path: Path, data: bytes) -> None:
        """As the one write path saves (engine/core.py): the file, then the index's line."""
        atomic_write(path, data)
        index.record(engine.config.layout, path.parent.name, json.loads(data), {})

    _python_answered(fast)
    engine = fast.engine
    path = engine.config.task_file("t2")
    free = path.read_bytes()
    engine.claim("t2", NOBODY, os.getpid())
    claimed = path.read_bytes()
    stub, started = tmp_path / "stub-python", tmp_path / "stub-started"
    stub.write_text(f"#!/bin/sh\n: > {started}\ncat > /dev/null\n")
    stub.chmod(0o755)
    argv = ["/bin/sh", str(SCRIPT), str(stub), "claude", "Stop"]
    nobody = stop(NOBODY, engine.config.repo)
    other = engine.config.task_file("t1")
    env = {k: v for k, v in os.environ.items() if k != "TASKPROTO_HOOK_FASTPATH"}

    def hook() -> subprocess.Popen[bytes]:
        started.unlink(missing_ok=True)
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, cwd=engine.config.repo, env=env)
        assert proc.stdin is not None
        proc.stdin.write(nobody)
        proc.stdin.close()
        return proc

    rng = random.Random(20)
    for _ in range(150):
        activity.sweep(str(fast.root / "activity"), NOBODY)  # as the session's Python run does
        saved(path, free)
        assert hook().wait() == 0 and not started.exists() and _marked(fast, NOBODY)
        saved(other, other.read_bytes())  # a change to grep while the claim is being written
        racing = hook()
        time.sleep(rng.random() * 0.004)
        saved(path, claimed)
        assert racing.wait() == 0
        assert hook().wait() == 0 and started.exists(), "the claim was hidden by the stamp"

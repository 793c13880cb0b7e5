"""state/taskfile.py: a save's task.json is exactly `store.dump`'s bytes, and the copy a process
keeps of what it saved never stands in for a check (journal, validation) of a file it did not
write."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.errors import CorruptState, TaskprotoError, Untrusted, ValidationFailed
from taskproto.state import store
from taskproto.state.models import DEFAULT_PRIORITY, Interruption, LogEntry, Task
from taskproto.state.taskfile import TaskFiles

T0 = datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)


def entry(i: int, note: str | None = None) -> LogEntry:
    return LogEntry(
        from_state=None if i == 0 else f"S{i - 1}",
        to_state=f"S{i}",
        trigger=f"go_{i}",
        time=T0 + timedelta(seconds=i),
        session="s" if i % 2 else None,
        kind="transition" if i % 3 else "note",
        note=note,
    )


def task(log: list[LogEntry], **extra: object) -> Task:
    return Task.model_validate(
        {
            "name": "t1",
            "workflow": "task-protocol",
            "state": log[-1].to_state if log else "INIT",
            "created_at": T0,
            "updated_at": T0,
            "transition_log": log,
            **extra,
        }
    )


ODD_NOTES = [
    None,
    "line one\nline two",
    'quotes " and \\ backslashes',
    '\n  "transition_log": [],\n',
    "ünïcödé ✓ 𝄞",
    "",
]


@pytest.mark.parametrize("size", [0, 1, 2, 7])
def test_dump_is_store_dump_byte_for_byte(size: int) -> None:
    log = [entry(i, ODD_NOTES[i % len(ODD_NOTES)]) for i in range(size)]
    t = task(
        log,
        description='a "task"\nwith lines',
        artifacts={
            "transition_log": [],
            "nested": {"transition_log": [1, {"a": [None, True]}]},
            "floats": [1.5, math.inf, -math.inf, math.nan],
            "text": "ünïcödé",
        },
        context={"k": ["v"]},
        interruptions=[Interruption(type="QUESTION", time=T0, state="INIT", text="why?\n")],
    )
    assert TaskFiles().dump(t) == store.dump(t)


def test_entries_dumped_before_are_reused_only_while_they_are_the_same_objects() -> None:
    files = TaskFiles()
    log = [entry(i) for i in range(5)]
    t = task(log)
    assert files.dump(t) == store.dump(t)
    grown = task([*log, entry(5, "next")])
    assert files.dump(grown) == store.dump(grown)
    # an entry replaced in the middle (a new object with other contents) is dumped anew
    changed = list(grown.transition_log)
    changed[2] = entry(2, "rewritten")
    other = task(changed)
    assert files.dump(other) == store.dump(other)
    shorter = task(changed[:3])
    assert files.dump(shorter) == store.dump(shorter)


@pytest.mark.parametrize("where", ["log", "description"])
def test_what_store_dump_refuses_is_refused_in_the_same_words(where: str) -> None:
    lone = "\ud800"  # a lone surrogate: not UTF-8, never written
    t = task([entry(0), entry(1, lone if where == "log" else None)])
    if where == "description":
        t.description = lone
    with pytest.raises(ValidationFailed) as expected:
        store.dump(t)
    with pytest.raises(ValidationFailed) as refused:
        TaskFiles().dump(t)
    assert str(refused.value) == str(expected.value)


def test_take_gives_what_this_process_saved_once_and_only_for_the_same_bytes() -> None:
    files = TaskFiles()
    t = task([entry(0), entry(1)], artifacts={"when": "x", "n": [1, 2]})
    data = files.dump(t)
    files.remember("t1", data)
    assert files.take("t1", data + b" ") is None  # other bytes: nothing (and it is gone)
    assert files.take("t1", data) is None
    files.remember("t1", files.dump(t))
    kept = files.take("t1", data)
    assert kept is not None and kept is not t
    loaded = store.parse(Task, Path("task.json"), data, move_aside=False)
    assert kept.model_dump() == loaded.model_dump()
    assert kept.transition_log is not t.transition_log  # its own list: the caller may change it
    assert files.take("t1", data) is None  # once


def test_a_value_that_would_not_load_is_refused_before_anything_is_written(
    engine: Engine,
) -> None:
    files = TaskFiles()
    t = task([entry(0)])
    t.priority = 9  # set without validation: no load would accept the file
    with pytest.raises(CorruptState):
        store.parse(Task, Path("task.json"), store.dump(t), move_aside=False)
    with pytest.raises(TaskprotoError, match=r"refused to save task t1: it does not validate"):
        files.dump(t)
    # through the engine: neither task.json nor the journal moves
    engine.create_task("t1")
    path = engine.config.task_file("t1")
    before, head = path.read_bytes(), engine.journal_head("t1")
    with engine.locked("t1") as loaded:
        bad = loaded.model_copy(deep=True)
        bad.priority = 9
        with pytest.raises(TaskprotoError, match=r"\(priority: .*nothing was written"):
            engine.save(loaded, bad, "a wrong priority")
    assert path.read_bytes() == before and engine.journal_head("t1") == head
    assert engine.load("t1").priority == DEFAULT_PRIORITY


def test_many_saves_write_what_a_fresh_process_reads_and_dumps(engine: Engine, repo: Path) -> None:
    engine.create_task("t1")
    for state in ("CLASSIFIED", "REQUIREMENTS", "SYNTHESIS"):
        engine.fire("t1", target=state, note=f"to {state}\nsecond line")
    engine.approve("t1", "plan", "user")
    engine.fire("t1", target="IMPLEMENTATION")
    for i in range(6):
        engine.fire("t1", target="VALIDATION" if i % 2 == 0 else "IMPLEMENTATION")
    path = engine.config.task_file("t1")
    fresh = Engine(load_config(repo)).load("t1")
    assert path.read_bytes() == store.dump(fresh)
    assert engine.load("t1").model_dump() == fresh.model_dump()


def to_implementation(engine: Engine) -> None:
    engine.create_task("t1")
    for state in ("CLASSIFIED", "REQUIREMENTS", "SYNTHESIS"):
        engine.fire("t1", target=state)
    engine.approve("t1", "plan", "user")
    engine.fire("t1", target="IMPLEMENTATION")


def test_a_save_by_another_process_is_read_from_the_file(engine: Engine, repo: Path) -> None:
    to_implementation(engine)
    other = Engine(load_config(repo))
    other.fire("t1", target="VALIDATION", note="by the other one")
    moved = engine.fire("t1", target="IMPLEMENTATION")
    notes = [e.note for e in moved.transition_log]
    assert "by the other one" in notes
    assert engine.config.task_file("t1").read_bytes() == store.dump(
        Engine(load_config(repo)).load("t1")
    )


def test_the_journal_is_checked_even_for_the_bytes_this_process_wrote(
    engine: Engine, repo: Path
) -> None:
    """A stale copy of task.json put back after another process saved: the bytes are the very
    ones this process wrote, but the journal has moved on, so it is refused."""
    to_implementation(engine)
    path = engine.config.task_file("t1")
    engine.fire("t1", target="VALIDATION")
    mine = path.read_bytes()
    Engine(load_config(repo)).fire("t1", target="IMPLEMENTATION")
    path.write_bytes(mine)  # the older copy, byte for byte
    with pytest.raises(Untrusted, match="journal-ahead"):
        engine.fire("t1", target="IMPLEMENTATION")
    assert path.read_bytes() == mine

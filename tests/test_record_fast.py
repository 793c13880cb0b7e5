"""The compiled load of a record (state/record_fast.py) accepts only what the checking load accepts,
and builds it equal; anything else it hands back (Slow), so the checking load words the problem."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from taskproto.engine import Engine
from taskproto.state import record
from taskproto.state.models import AgentStatus, Task
from taskproto.state.record_fast import FAST_AFTER, Slow, compile_fast
from taskproto.state.record_fields import FAILED

T = "2026-11-28T10:00:00.123456Z"


def full_task(engine: Engine) -> dict[str, Any]:
    """A task.json that uses every kind of field: owner, approvals with what the approver saw,
    interruptions, free-form artifacts, the counts."""
    engine.create_task("t", ["a", "b"])
    data: dict[str, Any] = json.loads(engine.config.task_file("t").read_text())
    data["owner"] = {
        "session": "s1",
        "host": "h",
        "pid": 12,
        "claimed_at": T,
        "heartbeat_at": T,
    }
    data["checkpoint"]["plan_approval"] = {
        "by": "user",
        "at": T,
        "seen": {"terminal": True, "processes": ["bash"], "variables": []},
    }
    data["interruptions"] = [{"type": "QUESTION", "time": T, "state": "INIT", "text": "why?"}]
    data["artifacts"] = {"plan": {"deep": [1, {"x": None}]}}
    data["interruption_counts"] = {"QUESTION": 1}
    return data


def checking(cls: Any, data: dict[str, Any]) -> Any:
    errors: list[dict[str, Any]] = []
    built = cls._build(copy.deepcopy(data), (), errors)
    return None if errors or built is FAILED else built


def compiled(cls: Any) -> Callable[[dict[str, Any]], Any]:
    fast = compile_fast(cls, record._MISSING, record._copy_value)
    assert callable(fast)
    return fast  # type: ignore[no-any-return]


def changed(data: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    out = copy.deepcopy(data)
    change(out)
    return out


VALID: list[Callable[[dict[str, Any]], None]] = [
    lambda d: None,
    lambda d: d.update(priority=4),
    lambda d: d.update(owner=None),
    lambda d: d.pop("reached"),  # a file of schema 1: counted on load
    lambda d: d["transition_log"][0].pop("note"),
]
# valid, but not in the exact types JSON gives for them: the checking load takes them
VALID_SLOW: list[Callable[[dict[str, Any]], None]] = [
    lambda d: d.update(revision=float(d["revision"])),  # an int written as 2.0 loads as 2
    lambda d: d.update(required_agents=("a", "b")),
]
INVALID: list[Callable[[dict[str, Any]], None]] = [
    lambda d: d.update(priority=9),
    lambda d: d.update(priority="2"),
    lambda d: d.update(priority=True),
    lambda d: d.update(revision=1.5),
    lambda d: d.update(name=5),
    lambda d: d.update(zzz=1),
    lambda d: d.pop("state"),
    lambda d: d["owner"].update(session=""),
    lambda d: d["transition_log"][0].update(kind="bogus"),
    lambda d: d["transition_log"][0].update(time="not a time"),
    lambda d: d.update(transition_log="x"),
    lambda d: d.update(required_agents=[1]),
    lambda d: d["checkpoint"]["plan_approval"].update(at=None),
    lambda d: d.update(counters=[]),
    lambda d: d.update(interruption_counts={"a": "b"}),
    lambda d: d["checkpoint"]["plan_approval"]["seen"].update(extra=1),
]


def test_what_the_compiled_load_accepts_the_checking_load_builds_equal(engine: Engine) -> None:
    base = full_task(engine)
    fast = compiled(Task)
    for change in VALID:
        data = changed(base, change)
        want = checking(Task, data)
        assert want is not None
        got = fast(copy.deepcopy(data))
        assert got == want
        assert got.model_dump(mode="json") == want.model_dump(mode="json")
    for change in VALID_SLOW:
        data = changed(base, change)
        with pytest.raises(Slow):
            fast(copy.deepcopy(data))
        assert Task.model_validate(copy.deepcopy(data)) == checking(Task, data)


@pytest.mark.parametrize("i", range(len(INVALID)))
def test_what_the_checking_load_refuses_the_compiled_load_hands_back(
    engine: Engine, i: int
) -> None:
    data = changed(full_task(engine), INVALID[i])
    assert checking(Task, data) is None
    with pytest.raises(Slow):
        compiled(Task)(data)


def test_an_agent_status_loads_the_same_both_ways() -> None:
    status = {
        "schema_version": 1,
        "agent": "a",
        "status": "WORKING",
        "updated_at": T,
        "retry_count": 1,
    }
    fast = compiled(AgentStatus)
    got = fast(dict(status))
    assert got == checking(AgentStatus, status)
    assert got.status == "WORKING" and type(got.status).__name__ == "AgentState"
    with pytest.raises(Slow):
        fast({**status, "status": "SLEEPING"})


def test_many_loads_switch_to_the_compiled_load_with_the_same_answers(engine: Engine) -> None:
    base = full_task(engine)
    for _ in range(FAST_AFTER + 1):
        Task.model_validate(copy.deepcopy(base))
    assert callable(Task.__dict__.get("_fast"))
    assert Task.model_validate(copy.deepcopy(base)) == checking(Task, base)
    bad = changed(base, INVALID[0])
    with pytest.raises(record.RecordError, match="priority: Input should be less than or equal"):
        Task.model_validate(bad)  # the checking load's words

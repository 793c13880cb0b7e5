"""The task-protocol transition table, straight from its definition: every pair of states."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from taskproto.errors import TransitionRejected
from taskproto.machine.registry import get_workflow
from taskproto.machine.steps import FireContext
from taskproto.machine.workflow import fire, to_mermaid, transition_to
from taskproto.state.models import Approval, Task

WF = get_workflow("task-protocol")
NOW = datetime(2026, 1, 1, tzinfo=UTC)
HEAD = "a" * 40
LEGAL = {(src, t.dest) for t in WF.transitions for src in t.source}
ALL_PAIRS = [(a, b) for a in WF.state_names() for b in WF.state_names()]


def make_task(state: str, **kw: object) -> Task:
    fields: dict[str, object] = {"required_agents": ["dev"], **kw}
    return Task(name="t", workflow=WF.name, state=state, created_at=NOW, updated_at=NOW, **fields)  # type: ignore[arg-type]


def permissive(task: Task) -> tuple[Task, FireContext]:
    task.checkpoint.plan_approval = Approval(at=NOW)
    task.checkpoint.commit_approval = Approval(sha=HEAD, at=NOW)
    return task, FireContext(time=NOW, agent_statuses={"dev": "COMPLETE"}, branch_head=HEAD)


def test_table_has_the_ten_states_and_back_edges() -> None:
    assert WF.state_names() == [
        "INIT",
        "CLASSIFIED",
        "REQUIREMENTS",
        "SYNTHESIS",
        "IMPLEMENTATION",
        "VALIDATION",
        "REVIEW",
        "AWAITING_USER_APPROVAL",
        "COMPLETE",
        "CLEANUP",
    ]
    assert ("VALIDATION", "IMPLEMENTATION") in LEGAL
    assert ("REVIEW", "IMPLEMENTATION") in LEGAL
    assert ("REVIEW", "SYNTHESIS") in LEGAL


@pytest.mark.parametrize("src,dst", ALL_PAIRS)
def test_every_pair(src: str, dst: str) -> None:
    task, ctx = permissive(make_task(src))
    before = task.model_dump_json()
    if (src, dst) in LEGAL:
        new = fire(WF, task, transition_to(WF, "t", src, dst), ctx)
        assert new.state == dst
        assert new.transition_log[-1].from_state == src and new.transition_log[-1].to_state == dst
    else:
        with pytest.raises(TransitionRejected):
            fire(WF, task, transition_to(WF, "t", src, dst), ctx)
    assert task.model_dump_json() == before  # fire() never modifies its input


@pytest.mark.parametrize(
    "src,dst",
    [
        ("INIT", "REVIEW"),
        ("REVIEW", "COMPLETE"),
        ("SYNTHESIS", "VALIDATION"),
        ("INIT", "CLEANUP"),
        ("CLEANUP", "INIT"),
    ],
)
def test_skips_refused_with_reason(src: str, dst: str) -> None:
    with pytest.raises(TransitionRejected) as info:
        transition_to(WF, "t", src, dst)
    assert "is not a transition" in str(info.value)


def test_guard_plan_approved_refuses_then_passes() -> None:
    task = make_task("SYNTHESIS")
    ctx = FireContext(time=NOW)
    with pytest.raises(TransitionRejected) as info:
        fire(WF, task, "implement", ctx)
    assert info.value.guard == "plan_approved"
    assert info.value.state == "SYNTHESIS"
    task.checkpoint.plan_approval = Approval(at=NOW)
    assert fire(WF, task, "implement", ctx).state == "IMPLEMENTATION"


def test_guard_agents_complete_names_the_incomplete_ones() -> None:
    task = make_task("IMPLEMENTATION", required_agents=["a", "b"])
    with pytest.raises(TransitionRejected) as info:
        fire(
            WF,
            task,
            "validate",
            FireContext(time=NOW, agent_statuses={"a": "COMPLETE", "b": "WORKING"}),
        )
    assert info.value.guard == "agents_complete"
    assert "b is WORKING" in info.value.reason and "a is" not in info.value.reason
    ok = fire(
        WF,
        task,
        "validate",
        FireContext(time=NOW, agent_statuses={"a": "COMPLETE", "b": "COMPLETE"}),
    )
    assert ok.state == "VALIDATION"


def test_guard_commit_approved_stale_names_both_shas() -> None:
    task = make_task("AWAITING_USER_APPROVAL")
    with pytest.raises(TransitionRejected) as info:
        fire(WF, task, "complete", FireContext(time=NOW, branch_head=HEAD))
    assert "not approved" in info.value.reason
    task.checkpoint.commit_approval = Approval(sha="b" * 40, at=NOW)
    with pytest.raises(TransitionRejected) as info:
        fire(WF, task, "complete", FireContext(time=NOW, branch_head=HEAD))
    assert (
        "stale" in info.value.reason
        and "bbbbbbbbbbbb" in info.value.reason
        and "aaaaaaaaaaaa" in info.value.reason
    )
    task.checkpoint.commit_approval = Approval(sha=HEAD, at=NOW)
    assert fire(WF, task, "complete", FireContext(time=NOW, branch_head=HEAD)).state == "COMPLETE"


def test_review_rejection_to_synthesis_requires_a_new_plan_approval() -> None:
    task, ctx = permissive(make_task("REVIEW"))
    back = fire(WF, task, "reject_to_synthesis", ctx)
    assert back.checkpoint.plan_approval is None
    with pytest.raises(TransitionRejected):
        fire(WF, back, "implement", ctx)


def test_unknown_trigger_lists_allowed() -> None:
    with pytest.raises(TransitionRejected) as info:
        fire(WF, make_task("INIT"), "bogus", FireContext(time=NOW))
    assert "classify" in str(info.value)


def test_mermaid_has_every_transition() -> None:
    text = to_mermaid(WF)
    assert text.startswith("stateDiagram-v2")
    assert text.count("-->") == len(LEGAL) + 2  # plus [*] --> INIT and CLEANUP --> [*]

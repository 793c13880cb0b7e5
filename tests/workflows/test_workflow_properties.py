"""Property: random trigger sequences never leave the transition table, and journal == task.json.

Each example drives a fresh task in a real repository through the library (the
same calls the CLI and the MCP server make). After every step: a refused step
changed neither task.json nor the journal; an accepted one moved only along
transitions of the table (source, trigger, dest), and the newest journal
commit's task.json agrees with task.json.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wf_data import ARTIFACT_OF, CONTEXT, journal_agrees, make_bin

from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.errors import TaskprotoError
from taskproto.machine.registry import get_workflow
from taskproto.machine.workflow import Workflow
from taskproto.ops import phone_a_team as team
from taskproto.ops import plan_task as planning
from taskproto.ops import tight_loop as tightloop
from taskproto.state import journal

NAMES = itertools.count()
SETTINGS = settings(
    max_examples=12,
    deadline=None,
    derandomize=False,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def table(wf: Workflow) -> set[tuple[str, str, str]]:
    return {(src, t.trigger, t.dest) for t in wf.transitions for src in t.source}


def drive(
    engine: Engine, name: str, actions: list[Any], step: Callable[[Engine, str, Any], object]
) -> None:
    wf = get_workflow(engine.load(name).workflow)
    allowed = table(wf)
    path = engine.config.task_file(name)
    for action in actions:
        before = engine.load(name)
        raw, head = path.read_bytes(), journal.head(engine.git, name)
        try:
            step(engine, name, action)
        except TaskprotoError:
            assert (path.read_bytes(), journal.head(engine.git, name)) == (raw, head), action
            continue
        after = engine.load(name)
        assert after.state in wf.state_names()
        state = before.state
        for entry in after.transition_log[len(before.transition_log) :]:
            if entry.kind != "transition":
                continue
            assert (entry.from_state, entry.trigger, entry.to_state) in allowed, (action, entry)
            assert entry.from_state == state
            state = entry.to_state
        assert state == after.state, action
        if wf.state(before.state).terminal:
            assert after.state == before.state
        assert journal_agrees(engine, name), action


@pytest.fixture
def engine(repo: Path) -> Engine:
    return Engine(load_config(repo))


# --- plan-task ------------------------------------------------------------------

NO_QUESTIONS = {**CONTEXT, "questions_for_developer": []}
PLAN_ARTIFACTS = {**ARTIFACT_OF, "CONTEXT_NO_Q": NO_QUESTIONS, "garbage": {"approach": 3}}
plan_actions = st.one_of(
    st.tuples(st.just("submit"), st.sampled_from(sorted(PLAN_ARTIFACTS))),
    st.tuples(st.just("approve")),
    st.tuples(st.just("revise"), st.sampled_from(["", "redo it"])),
    st.tuples(st.just("answer"), st.integers(0, 3)),
    st.tuples(st.just("fire"), st.sampled_from(["submit", "approve", "request_revision", "bogus"])),
)


def plan_step(engine: Engine, name: str, action: Any) -> object:
    kind = action[0]
    if kind == "submit":
        return planning.submit(engine, name, PLAN_ARTIFACTS[action[1]])
    if kind == "approve":
        return planning.approve(engine, name)
    if kind == "revise":
        return planning.revise(engine, name, action[1])
    if kind == "answer":
        return planning.answer(engine, name, action[1], "an answer")
    return engine.fire(name, trigger=action[1])


@SETTINGS
@given(actions=st.lists(plan_actions, max_size=16))
def test_plan_task_random_sequences(engine, actions):
    name = f"p{next(NAMES)}"
    engine.create_task(name, workflow="plan-task")
    drive(engine, name, actions, plan_step)


# --- tight-loop -----------------------------------------------------------------------

PHASES = ["PLAN", "EXECUTE", "REVIEW", "FULL_AUTO", "BOGUS"]
loop_actions = st.one_of(
    st.tuples(
        st.just("handoff"),
        st.sampled_from(PHASES),
        st.sampled_from(["YES", "NO"]),
        st.sampled_from([None, "PLAN", "EXECUTE", "REVIEW"]),
    ),
    st.tuples(st.just("add"), st.sampled_from(["tests", "Tests ", "lint", "docs"])),
    st.tuples(st.just("finish"), st.sampled_from(["T1", "T2", "T3"]), st.booleans()),
    st.tuples(st.just("fire"), st.sampled_from(["execute", "review", "loop", "break_loop"])),
)


def loop_step(engine: Engine, name: str, action: Any) -> object:
    kind = action[0]
    if kind == "handoff":
        return tightloop.handoff(engine, name, action[1], action[2], {"n": 1}, action[3])
    if kind == "add":
        return tightloop.add(engine, name, action[1])
    if kind == "finish":
        return tightloop.finish(engine, name, action[1], action[2])
    return engine.fire(name, trigger=action[1])  # no decision: the guards must refuse


@SETTINGS
@given(actions=st.lists(loop_actions, max_size=16))
def test_tight_loop_random_sequences(engine, actions):
    name = f"l{next(NAMES)}"
    context, counters = tightloop.creation()
    engine.create_task(name, workflow="tight-loop", context=context, counters=counters)
    drive(engine, name, actions, loop_step)
    task = engine.load(name)
    loops = sum(1 for e in task.transition_log if e.trigger == "loop")
    assert task.counters.iteration == 1 + loops


# --- phone-a-team -----------------------------------------------------------------------

RUBRICS = [
    {"acceptance": a, "risks": r, "validation": v}
    for a in ("pass", "fail")
    for r in ("pass", "fail")
    for v in ("pass", "documented", "fail")
]
team_actions = st.one_of(
    st.tuples(st.just("review")),
    st.tuples(
        st.just("decide"), st.sampled_from(range(len(RUBRICS))), st.sampled_from([None, "reason"])
    ),
    st.tuples(
        st.just("fail"),
        st.sampled_from(["codex", "gemini", "ollama"]),
        st.sampled_from(team.REASONS),
    ),
    st.tuples(
        st.just("fire"),
        st.sampled_from(["converge", "iterate", "force_stop", "retry_round", "fail_stop"]),
    ),
)


def team_step(engine: Engine, name: str, action: Any) -> object:
    kind = action[0]
    if kind == "review":
        return team.review(engine, name, "output")
    if kind == "decide":
        return team.decide(engine, name, RUBRICS[action[1]], action[2])
    if kind == "fail":
        return team.fail(engine, name, action[1], action[2])
    return engine.fire(name, trigger=action[1])


@SETTINGS
@given(
    actions=st.lists(team_actions, max_size=16),
    rounds=st.integers(1, 3),
    backend=st.sampled_from(["codex", "both"]),
)
def test_phone_a_team_random_sequences(engine, tmp_path, actions, rounds, backend):
    name = f"t{next(NAMES)}"
    bins = make_bin(tmp_path / "bin", "codex", "gemini")
    context, counters, _ = team.creation(engine, rounds, backend, path=str(bins))
    engine.create_task(name, workflow="phone-a-team", context=context, counters=counters)
    drive(engine, name, actions, team_step)
    task = engine.load(name)
    assert 1 <= task.counters.round <= rounds
    if task.state == "SYNTHESIS":
        assert task.context["outcome"] in (
            "converged",
            "forced_stop",
            "backends_failed",
            "round_failed_at_last_round",
        )


# --- task-protocol ----------------------------------------------------------------------

proto_actions = st.one_of(
    st.tuples(
        st.just("fire"),
        st.sampled_from([t.trigger for t in get_workflow("task-protocol").transitions]),
    ),
    st.tuples(st.just("approve"), st.sampled_from(["plan", "commit"])),
)


def proto_step(engine: Engine, name: str, action: Any) -> object:
    if action[0] == "approve":
        return engine.approve(name, action[1], "s1")
    return engine.fire(name, trigger=action[1])


@SETTINGS
@given(actions=st.lists(proto_actions, max_size=20))
def test_task_protocol_random_sequences(engine, actions):
    name = f"tp{next(NAMES)}"
    engine.create_task(name)
    drive(engine, name, actions, proto_step)

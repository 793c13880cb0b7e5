"""engine/attention.py reads "what needs the user" from task.json's JSON and the shipped state
tables, on the standard library; the engine decides from its models and the workflow definitions.
They must not disagree: over every state of the four built-in workflows, with and without each
approval, a stale one, a question and an escalation, the inbox's reasons match what the board's
and the TUI's controls offer (ops/review.choices) and where `taskproto next` stops for the user."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from taskproto.engine import Engine, attention
from taskproto.machine import progress
from taskproto.machine.registry import builtin, builtin_names
from taskproto.machine.steps import FireContext
from taskproto.ops import review
from taskproto.state.models import Approval, Escalation, Interruption, Task
from tests.conftest import git

NOW = datetime(2026, 11, 28, 4, 0, tzinfo=UTC)
OLD = "1" * 40
VARIANTS = (
    "none",
    "plan-approved",
    "commit-approved",
    "stale",
    "question",
    "question-elsewhere",
    "resumed",
    "escalation",
    "revised",
)
EARLIER = datetime(2026, 11, 28, 3, 0, tzinfo=UTC)
APPROVALS = {"plan-approval", "commit-approval", "review", "revision-answered"}
APPROVAL_GUARDS = {"plan_approved", "commit_approved"}


def cases() -> list[tuple[str, str, str]]:
    return [
        (wf, state.name, variant)
        for wf in builtin_names()
        for state in builtin(wf).states
        for variant in VARIANTS
    ]


def task_in(workflow: str, state: str, variant: str, head: str) -> Task:
    task = Task(
        name="t",
        workflow=workflow,
        state=state,
        created_at=NOW,
        updated_at=NOW,
        reached={state: NOW},
    )
    cp = task.checkpoint
    if variant == "plan-approved":
        cp.plan_approval = Approval(by="user", at=NOW, kind="plan")
    elif variant == "commit-approved":
        cp.commit_approval = Approval(sha=head, by="user", at=NOW, kind="commit")
    elif variant == "stale":
        cp.commit_approval = Approval(
            sha=OLD, by="user", at=NOW, kind="commit", stale=True, stale_reason="it moved"
        )
    elif variant == "question":
        task.interruptions.append(Interruption(type="QUESTION", time=NOW, state=state, text="?"))
    elif variant == "question-elsewhere":  # asked in another state: the task moved on since
        task.interruptions.append(Interruption(type="QUESTION", time=NOW, state="X", text="?"))
    elif variant == "resumed":
        for kind in ("QUESTION", "RESUMPTION"):
            task.interruptions.append(Interruption(type=kind, time=NOW, state=state, text="."))
    elif variant == "revised":  # sent back from here before, reached again since
        sent = {"from_state": state, "time": EARLIER.isoformat(), "message": "again"}
        task.context["review"] = {"sent": [sent]}
    elif variant == "escalation":
        task.escalations.append(Escalation(reason="external-dependency", detail="db", at=NOW))
    return task


@pytest.fixture(scope="module")
def head_engine(tmp_path_factory: pytest.TempPathFactory) -> tuple[Engine, str]:
    from taskproto.config import load_config
    from tests.conftest import make_repo

    repo: Path = make_repo(tmp_path_factory.mktemp("equivalence") / "repo")
    git(repo, "branch", "t")  # the task branch the engine reads the head of
    return Engine(load_config(repo)), git(repo, "rev-parse", "t")


@pytest.mark.parametrize(("workflow", "state", "variant"), cases())
def test_the_inbox_agrees_with_the_engine(
    head_engine: tuple[Engine, str], workflow: str, state: str, variant: str
) -> None:
    engine, head = head_engine
    task = task_in(workflow, state, variant, head)
    data = task.model_dump(mode="json", by_alias=True)
    reasons = {i["reason"] for i in attention.items(engine.config.layout, data, head)}
    wf = engine.workflow(task)

    # what the board's and the TUI's controls offer (the engine's models)
    offered = review.choices(engine, task)
    at_commit = wf.state(state).approval == "commit"
    answered = "revision-answered" in reasons  # the approval waiting again, after a revision
    assert offered.approve_commit == (
        "commit-approval" in reasons
        or (bool(reasons & {"stale-approval"}) or answered)
        and at_commit
    )
    assert offered.approve_plan == (
        bool(reasons & {"plan-approval", "review"}) or (answered and not at_commit)
    )
    assert offered.resume == bool(reasons & {"question", "escalation"})
    assert ("stale-approval" in reasons) == (variant == "stale")
    assert ("question" in reasons) == (variant == "question")
    if "revision-answered" in reasons:
        assert variant == "revised"

    # where `taskproto next` stops for the user's approval, the inbox says so, and back
    step = progress.plan(wf, task, FireContext(NOW, branch_head=head))
    guard = step.reason.split(" waits for ")[-1].split(":")[0] if step.kind == "guard" else ""
    user_approves = step.kind == "user" and "taskproto approve" in step.reason
    stops_for_approval = guard in APPROVAL_GUARDS or user_approves
    # a stale approval is an approval to make again at the checkpoint; elsewhere it is news
    waits = APPROVALS | ({"stale-approval"} if at_commit else set())
    assert stops_for_approval == bool(reasons & waits), (step, reasons)


def test_a_revision_answered_is_read_in_each_kind_of_review(
    head_engine: tuple[Engine, str],
) -> None:
    engine, head = head_engine
    for workflow, state in (
        ("plan-task", "REVIEW_PLAN"),
        ("task-protocol", "SYNTHESIS"),
        ("task-protocol", "AWAITING_USER_APPROVAL"),
    ):
        data = task_in(workflow, state, "revised", head).model_dump(mode="json", by_alias=True)
        found = attention.items(engine.config.layout, data, head)
        assert [i["reason"] for i in found] == ["revision-answered"], (workflow, state)

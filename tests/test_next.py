"""`taskproto next`: the one step ahead, or a walk to a state, stopping at a guard or a user's step
and saying which. The planner on the built-in definitions, then the command on real repositories."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taskproto.engine import Engine
from taskproto.machine import progress
from taskproto.machine.registry import get_workflow
from taskproto.state import journal
from tests.conftest import commit_file, run_taskproto

SESSION = {"TASKPROTO_SESSION": "s1"}


@pytest.mark.parametrize(
    ("workflow", "line"),
    [
        (
            "task-protocol",
            "INIT CLASSIFIED REQUIREMENTS SYNTHESIS IMPLEMENTATION VALIDATION REVIEW "
            "AWAITING_USER_APPROVAL COMPLETE CLEANUP",
        ),
        (
            "plan-task",
            "CONTEXTUALIZE REVIEW_CONTEXT STRATEGIZE REVIEW_STRATEGY DESIGN REVIEW_DESIGN "
            "GENERATE_SLOTS REVIEW_PLAN VERIFIED",
        ),
        ("tight-loop", "PLAN EXECUTE REVIEW FULL_AUTO"),
        ("phone-a-team", "DO REVIEW DECIDE SYNTHESIS"),
    ],
)
def test_the_main_line_of_each_builtin(workflow: str, line: str) -> None:
    wf = get_workflow(workflow)
    rank = progress.ranks(wf)
    assert sorted(rank, key=rank.__getitem__) == line.split()
    assert [rank[s] for s in line.split()] == list(range(len(line.split())))


@pytest.mark.parametrize(
    ("state", "ahead"),
    [
        ("VALIDATION", ["review"]),  # not validation_failed: it goes back
        ("REVIEW", ["request_approval"]),  # not the two rejections
        ("AWAITING_USER_APPROVAL", ["complete"]),  # not request_changes
        ("COMPLETE", ["cleanup"]),
        ("CLEANUP", []),
    ],
)
def test_what_goes_ahead_in_task_protocol(state: str, ahead: list[str]) -> None:
    wf = get_workflow("task-protocol")
    assert [t.trigger for t in progress.ahead(wf, state)] == ahead


def tp(repo: Path, *args: str) -> tuple[int, str, str]:
    r = run_taskproto(*args, cwd=repo, env=SESSION)
    return r.code, r.out, r.err


def test_next_walks_a_task_through_its_day_stopping_where_it_must(
    engine: Engine, repo: Path
) -> None:
    engine.create_task("t", ["dev"])
    assert tp(repo, "claim", "t")[0] == 0
    code, out, err = tp(repo, "next", "t")
    assert (code, out) == (0, "t: INIT -> CLASSIFIED\n"), err
    # a walk: each step its own transition; it stops at the plan approval and says what acts
    before = len(engine.load("t").transition_log)
    code, out, err = tp(repo, "next", "t", "--to", "IMPLEMENTATION")
    assert code == 1
    assert out == "t: CLASSIFIED -> REQUIREMENTS\nt: REQUIREMENTS -> SYNTHESIS\n"
    assert err == (
        "taskproto: task 't' stays in SYNTHESIS: implement (-> IMPLEMENTATION) waits for "
        "plan_approved: no plan approval is recorded; the user approves the plan with "
        "`taskproto approve t --plan`\n"
    )
    task = engine.load("t")
    assert [e.trigger for e in task.transition_log[before:]] == [
        "gather_requirements",
        "synthesize",
    ]
    # a refusal before any step writes nothing
    head = journal.head(engine.git, "t")
    data = engine.config.task_file("t").read_bytes()
    assert tp(repo, "next", "t")[0] == 1
    assert (
        journal.head(engine.git, "t") == head and engine.config.task_file("t").read_bytes() == data
    )
    assert tp(repo, "approve", "t", "--plan")[0] == 0
    assert tp(repo, "next", "t")[1] == "t: SYNTHESIS -> IMPLEMENTATION\n"
    commit_file(engine.config.agent_worktree("t", "dev"), "dev.txt")
    assert tp(repo, "agent", "set", "t", "dev", "--status", "COMPLETE")[0] == 0
    assert tp(repo, "merge", "t")[0] == 0
    code, out, err = tp(repo, "next", "t", "--to", "COMPLETE", "--json")
    assert code == 1
    walked = json.loads(out)
    assert [s["to"] for s in walked["steps"]] == ["VALIDATION", "REVIEW", "AWAITING_USER_APPROVAL"]
    assert walked["reached"] is False and walked["stopped"]["kind"] == "guard"
    assert "`taskproto approve t --commit`" in walked["stopped"]["reason"]
    assert tp(repo, "approve", "t", "--commit")[0] == 0
    code, out, err = tp(repo, "next", "t", "--to", "COMPLETE", "--json")
    assert code == 0 and json.loads(out)["reached"] is True, err
    # COMPLETE: the next step is the landing, the user's; next never cleans up unlanded work
    code, out, err = tp(repo, "next", "t")
    assert code == 1 and out == ""
    assert "the next step is the user's: `taskproto land t` (-> CLEANUP)" in err
    assert engine.load("t").state == "COMPLETE"
    code, out, err = tp(repo, "next", "t", "--to", "COMPLETE")
    assert (code, out) == (0, "t: already in COMPLETE\n")


def test_next_refuses_a_state_behind_or_unknown(engine: Engine, repo: Path) -> None:
    engine.create_task("t")
    engine.fire("t", target="CLASSIFIED")
    code, _, err = tp(repo, "next", "t", "--to", "INIT")
    assert code == 1 and "INIT is not ahead of CLASSIFIED" in err and "rollback t --to INIT" in err
    code, _, err = tp(repo, "next", "t", "--to", "NOWHERE")
    assert code == 1 and "NOWHERE is not a state of workflow task-protocol" in err
    assert engine.load("t").state == "CLASSIFIED"


def test_next_stops_at_a_users_step_in_plan_task(engine: Engine, repo: Path) -> None:
    engine.create_task("p", workflow="plan-task", description="plan it")
    code, _, err = tp(repo, "next", "p")
    # CONTEXTUALIZE -> REVIEW_CONTEXT needs a valid artifact: the guard says how to submit one
    assert code == 1 and "submit (-> REVIEW_CONTEXT) waits for artifact_valid" in err


def test_a_user_workflow_names_its_own_command_for_a_users_step(repo: Path) -> None:
    (repo / ".taskproto.toml").write_text(
        """
[workflows.shipit]
initial = "WORK"
states = [{name = "WORK"}, {name = "READY"}, {name = "SHIPPED", terminal = true}]
transitions = [
  {trigger = "finish", source = "WORK", dest = "READY"},
  {trigger = "ship", source = "READY", dest = "SHIPPED", by = "user", hint = "make ship T={task}"},
]
"""
    )
    assert tp(repo, "task", "create", "x", "--workflow", "shipit")[0] == 0
    code, out, err = tp(repo, "next", "x", "--to", "SHIPPED")
    assert code == 1 and out == "x: WORK -> READY\n"
    assert "the next step is the user's: `make ship T=x` (-> SHIPPED)" in err


def test_cleanup_without_landing_is_the_users(engine: Engine, repo: Path) -> None:
    engine.create_task("t")
    engine.claim("t", "s1")
    from tests.hooks.agents.conftest import move_to

    move_to(engine, "t", "AWAITING_USER_APPROVAL")
    engine.approve("t", "commit", "user")
    engine.fire("t", target="COMPLETE", session="s1")
    r = run_taskproto("fire", "t", "cleanup", cwd=repo, env={**SESSION, "CLAUDECODE": "1"})
    assert r.code == 1 and "is the user's to do" in r.err
    assert engine.load("t").state == "COMPLETE"

"""plan-task's plan as a person reads it: artifacts as Markdown in the prompts and `task show`,
and each state's persona."""

from __future__ import annotations

import copy
import json

import pytest
from wf_data import CONTEXT, DESIGN, PLAN, STRATEGY

PERSONA = {
    "CONTEXTUALIZE": "a senior engineer new to this codebase",
    "REVIEW_CONTEXT": "a patient interviewer running the clarification loop",
    "STRATEGIZE": "a software architect",
    "REVIEW_STRATEGY": "a sceptical reviewer of the strategy",
    "DESIGN": "a technical lead",
    "REVIEW_DESIGN": "a meticulous design reviewer",
    "GENERATE_SLOTS": "a delivery planner",
    "REVIEW_PLAN": "a QA lead",
    "VERIFIED": "the engineer who carries out the verified plan",
}

TWO_SLOTS = copy.deepcopy(PLAN)
TWO_SLOTS["slots"].append(
    {
        "slot_id": 'S2 "final"',
        "title": "Document <--verbose>",
        "spec": "README says what -v does",
        "location": "README.md",
        "operation": "MODIFY",
        "taskflow": {"steps": ["write the section", "link it"], "verification_steps": []},
    }
)


@pytest.fixture
def walk(cli, write_json):
    """Create plan task p and move it to `state`, returning each prompt on the way."""
    artifacts = {
        "CONTEXTUALIZE": CONTEXT,
        "STRATEGIZE": STRATEGY,
        "DESIGN": {**DESIGN, "file_breakdown": [
            {"file_path": "main.py", "operation": "MODIFY", "summary": "add --verbose | -v"},
        ]},
        "GENERATE_SLOTS": TWO_SLOTS,
    }  # fmt: skip

    def go(until: str = "VERIFIED") -> dict[str, str]:
        assert (
            cli("task", "create", "p", "--workflow", "plan-task", "-d", "Add --verbose").code == 0
        )
        prompts: dict[str, str] = {}
        while True:
            state = json.loads(cli("task", "show", "p", "--json").out)["state"]
            prompts[state] = cli("prompt", "p").out
            if state == until:
                return prompts
            if state in artifacts:
                path = write_json(f"{state}.json", artifacts[state])
                r = cli("submit", "p", "--artifact", str(path))
            else:
                if state == "REVIEW_CONTEXT":
                    cli("answer", "p", "1", "yes, -v too")
                    cli("answer", "p", "2", "DEBUG")
                r = cli("approve", "p")
            assert r.code == 0, r.err

    return go


def test_every_prompt_opens_with_its_states_persona(walk):
    prompts = walk()
    assert set(prompts) == set(PERSONA)
    for state, text in prompts.items():
        lines = text.splitlines()
        assert lines[0].startswith("# Plan task p")
        assert (
            lines[2]
            == f"**Persona:** you are {PERSONA[state]}" + lines[2].split(PERSONA[state], 1)[1]
        )
        others = [p for s, p in PERSONA.items() if s != state]
        assert not any(f"you are {o}" in text for o in others)


def test_the_review_prompts_render_each_artifact_as_markdown(walk):
    prompts = walk()
    ctx = prompts["REVIEW_CONTEXT"]
    assert "**Affected files**\n- `main.py`\n" in ctx
    assert "1. Add -v as well?\n   _Unanswered._\n" in ctx
    strategy = prompts["REVIEW_STRATEGY"]
    assert "## Strategy\nAdd a click option.\n\n**Key technical decisions**\n- click\n" in strategy
    assert "**Risk factors**\n- (none listed)\n" in strategy
    design = prompts["REVIEW_DESIGN"]
    assert "| File | Operation | Change |\n|------|-----------|--------|\n" in design
    assert "| `main.py` | MODIFY | add --verbose \\| -v |\n" in design  # a | cannot break the row
    plan = prompts["REVIEW_PLAN"]
    assert "Estimated complexity: **LOW**, 2 SLOT(s), in this order." in plan
    assert "### S1 · Add the flag\n\n- **Operation:** MODIFY `main.py`\n" in plan
    assert "**Task flow**\n1. edit main.py\n" in plan
    assert "**Verification**\n- [ ] run tests\n" in plan
    assert "**Delegation:** to **tester**, 1 sub-SLOT(s).\n> Handoff: write the test\n" in plan
    assert "#### S1.1 · Test it (delegated from S1)\n" in plan
    assert "**Task flow**\n1. write the section\n2. link it\n" in plan


def test_the_task_flow_is_a_mermaid_flowchart_with_safe_ids_and_labels(walk):
    plan = walk()["REVIEW_PLAN"]
    chart = plan.split("```mermaid\n", 1)[1].split("```", 1)[0]
    assert chart.splitlines() == [
        "flowchart TD",
        'n_S1["S1 Add the flag"]',
        'n_S1_1["S1.1 Test it"]',
        "n_S1 -. tester .-> n_S1_1",
        'n_S2__final_["S2 #quot;final#quot; Document #lt;--verbose#gt;"]',
        "n_S1 --> n_S2__final_",
    ]


def test_task_show_prints_the_plan_a_person_reads(cli, walk):
    walk("REVIEW_DESIGN")
    out = cli("task", "show", "p").out
    head, plan = out.split("\n# Plan: p\n", 1)
    assert "state      REVIEW_DESIGN" in head
    assert plan.startswith("\nAdd --verbose\n\nState: **REVIEW_DESIGN**\n\n## Context\n")
    assert "1. Add -v as well?\n   **Answer:** yes, -v too\n" in plan
    assert "\n## Strategy\n" in plan and "\n## Design\n" in plan
    assert "## Execution plan" not in plan
    data = json.loads(cli("task", "show", "p", "--json").out)
    assert data["plan_markdown"] == "# Plan: p\n" + plan


def test_task_show_of_other_workflows_has_no_plan(cli):
    cli("task", "create", "l", "--workflow", "tight-loop")
    assert "plan_markdown" not in json.loads(cli("task", "show", "l", "--json").out)


def test_the_persona_and_the_plan_are_overridable_per_repository(cli, engine, walk):
    folder = engine.config.root / "templates" / "plan-task"
    folder.mkdir(parents=True)
    (folder / "_persona.md.j2").write_text("**Persona:** you are our {{ state | lower }} bot.\n")
    (folder / "plan.md.j2").write_text(
        '{% import "_artifacts.md.j2" as md %}PLAN {{ task.name }}\n'
        "{{ md.strategy(context_store.strategy_artifact) | trim }}\n"
    )  # renders only once there is a strategy
    prompts = walk("REVIEW_STRATEGY")
    assert "**Persona:** you are our review_strategy bot." in prompts["REVIEW_STRATEGY"]
    out = json.loads(cli("task", "show", "p", "--json").out)["plan_markdown"]
    assert out.startswith("PLAN p\nAdd a click option.\n\n**Key technical decisions**\n- click")


def test_a_broken_plan_template_does_not_hide_the_task(cli, engine):
    folder = engine.config.root / "templates" / "plan-task"
    folder.mkdir(parents=True)
    (folder / "plan.md.j2").write_text("{{ no_such_name }}\n")
    cli("task", "create", "p", "--workflow", "plan-task")
    r = cli("task", "show", "p")
    assert r.code == 0 and "state      CONTEXTUALIZE" in r.out
    assert "  plan       not shown: the prompt template " in r.out
    assert "plan.md.j2 failed to render (UndefinedError" in r.out

"""plan-task against real repositories, through the CLI: the full path and every refusal."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys

import pytest
from wf_data import CONTEXT, DESIGN, PLAN, STRATEGY, journal_agrees

from taskproto.state import journal

STAGES = [
    ("CONTEXTUALIZE", "REVIEW_CONTEXT", CONTEXT),
    ("STRATEGIZE", "REVIEW_STRATEGY", STRATEGY),
    ("DESIGN", "REVIEW_DESIGN", DESIGN),
    ("GENERATE_SLOTS", "REVIEW_PLAN", PLAN),
]


def state_of(cli, name="p"):
    return json.loads(cli("task", "show", name, "--json").out)["state"]


def snapshot(engine, name="p"):
    return (engine.config.task_file(name).read_bytes(), journal.head(engine.git, name))


@pytest.fixture
def task(cli):
    r = cli("task", "create", "p", "--workflow", "plan-task", "-d", "Add a --verbose flag")
    assert r.code == 0, r.err
    return "p"


def test_full_path_to_verified(cli, engine, task, write_json):
    for work, review, artifact in STAGES:
        assert state_of(cli) == work
        assert "Submit with" in cli("prompt", "p").out
        r = cli("submit", "p", "--artifact", str(write_json(f"{work}.json", artifact)))
        assert (r.code, r.out) == (0, f"p: {work} -> {review}; next prompt: `taskproto prompt p`\n")
        if review == "REVIEW_CONTEXT":
            assert "UNANSWERED" in cli("prompt", "p").out
            assert cli("answer", "p", "1", "yes, -v too").code == 0
            assert cli("answer", "p", "2", "DEBUG").code == 0
        r = cli("approve", "p")
        assert r.code == 0, r.err
    assert state_of(cli) == "VERIFIED"
    task = engine.load("p")
    assert set(task.artifacts) == {
        "context_artifact",
        "strategy_artifact",
        "design_artifact",
        "execution_plan_artifact",
    }
    assert (
        task.artifacts["execution_plan_artifact"]["slots"][0]["delegation"]["sub_slots"][0][
            "slot_id"
        ]
        == "S1.1"
    )
    assert task.context["answers"] == {"1": "yes, -v too", "2": "DEBUG"}
    assert "S1 Add the flag" in cli("prompt", "p").out
    assert journal_agrees(engine, "p")
    # the journal holds every step: create + 4 submits + 2 answers + 4 approvals
    assert len(journal.history(engine.repo, journal.ref_for("p"))) == 11


def test_strategy_prompt_sees_context_and_answers(cli, task, write_json):
    cli("submit", "p", "--artifact", str(write_json("c.json", CONTEXT)))
    cli("answer", "p", "1", "yes")
    cli("answer", "p", "2", "DEBUG")
    cli("approve", "p")
    out = cli("prompt", "p").out
    assert "The CLI lives in main.py." in out
    assert "- Q: Which log level?\n  A: DEBUG" in out


def test_invalid_artifact_is_refused_with_field_errors_and_changes_nothing(
    cli, engine, task, write_json
):
    before = snapshot(engine)
    bad = {"context_summary": "", "questions_for_developer": "not a list", "extra": 1}
    r = cli("submit", "p", "--artifact", str(write_json("bad.json", bad)))
    assert r.code == 1
    assert "not a valid ContextAnalysisArtifact (4 error(s)); nothing changed" in r.err
    for line in (
        "  context_summary: String should have at least 1 character",
        "  affected_files: Field required",
        "  questions_for_developer: Input should be a valid list",
        "  extra: Extra inputs are not permitted",
    ):
        assert line in r.err.splitlines()
    assert r.out == ""
    assert snapshot(engine) == before


def test_invalid_nested_slot_is_refused(cli, engine, write_json):
    cli("task", "create", "p", "--workflow", "plan-task")
    for work, _, artifact in STAGES[:3]:
        cli("submit", "p", "--artifact", str(write_json(f"{work}.json", artifact)))
        if work == "CONTEXTUALIZE":
            cli("answer", "p", "1", "a")
            cli("answer", "p", "2", "b")
        cli("approve", "p")
    bad = json.loads(json.dumps(PLAN))
    bad["slots"][0]["operation"] = "RENAME"
    bad["slots"][0]["delegation"]["sub_slots"][0]["taskflow"] = {"steps": []}
    before = snapshot(engine)
    r = cli("submit", "p", "--artifact", str(write_json("bad.json", bad)))
    assert r.code == 1
    assert (
        "  slots.0.operation: Input should be 'CREATE', 'MODIFY', 'DELETE' or 'REVIEW'"
        in r.err.splitlines()
    )
    assert (
        "  slots.0.delegation.sub_slots.0.taskflow.steps: List should have at least 1 item after "
        "validation, not 0" in r.err.splitlines()
    )
    assert snapshot(engine) == before


def test_not_json_and_missing_file_are_refused(cli, engine, task, write_json, tmp_path):
    before = snapshot(engine)
    r = cli("submit", "p", "--artifact", str(write_json("x.json", "{not json")))
    assert r.code == 1 and "is not valid JSON" in r.err
    r = cli("submit", "p", "--artifact", str(tmp_path / "nope.json"))
    assert r.code == 1 and "no such file" in r.err
    assert snapshot(engine) == before


def test_submit_in_a_review_state_and_approve_in_a_work_state_are_refused(
    cli, engine, task, write_json
):
    r = cli("approve", "p")
    assert r.code == 1
    assert (
        "'approve' is not allowed from CONTEXTUALIZE; allowed now: submit (-> REVIEW_CONTEXT)"
        in r.err
    )
    cli("submit", "p", "--artifact", str(write_json("c.json", CONTEXT)))
    before = snapshot(engine)
    r = cli("submit", "p", "--artifact", str(write_json("c.json", CONTEXT)))
    assert r.code == 1 and "'submit' is not allowed from REVIEW_CONTEXT" in r.err
    assert snapshot(engine) == before


def test_context_cannot_be_approved_with_unanswered_questions(cli, engine, task, write_json):
    cli("submit", "p", "--artifact", str(write_json("c.json", CONTEXT)))
    cli("answer", "p", "2", "DEBUG")
    before = snapshot(engine)
    r = cli("approve", "p")
    assert r.code == 1
    assert r.err == (
        "taskproto: task 'p': approve refused in REVIEW_CONTEXT (guard questions_answered): "
        "questions_for_developer 1 unanswered; answer each with `taskproto answer p N TEXT`\n"
    )
    assert snapshot(engine) == before
    for args, msg in (
        (("3", "x"), "has 2 question(s); 3 is not one of them"),
        (("0", "x"), "0 is not one of them"),
        (("1", "  "), "an answer cannot be empty"),
    ):
        r = cli("answer", "p", *args)
        assert r.code == 1 and msg in r.err
    assert snapshot(engine) == before
    assert cli("answer", "p", "1", "yes").code == 0
    assert cli("approve", "p").code == 0


def test_answer_outside_review_context_is_refused(cli, task):
    r = cli("answer", "p", "1", "x")
    assert r.code == 1 and "questions_for_developer are answered in REVIEW_CONTEXT" in r.err


def test_revision_keeps_feedback_for_the_next_prompt(cli, engine, task, write_json):
    cli(
        "submit",
        "p",
        "--artifact",
        str(write_json("c.json", {**CONTEXT, "questions_for_developer": []})),
    )
    cli("approve", "p")
    cli("submit", "p", "--artifact", str(write_json("s.json", STRATEGY)))
    r = cli("revise", "p")  # click: --feedback is required
    assert r.code == 2
    before = snapshot(engine)
    r = cli("revise", "p", "--feedback", "  ")
    assert r.code == 1 and "a revision needs feedback" in r.err
    assert snapshot(engine) == before
    r = cli("revise", "p", "--feedback", "Consider argparse compatibility.")
    assert (r.code, r.out) == (0, "p: REVIEW_STRATEGY -> STRATEGIZE (feedback kept)\n")
    prompt = cli("prompt", "p").out
    assert "## Revision requested" in prompt and "Consider argparse compatibility." in prompt
    task = engine.load("p")
    assert task.context["feedback_notes"][0]["state"] == "STRATEGIZE"
    assert task.artifacts["strategy_artifact"] == STRATEGY  # the old artifact stays until replaced
    # feedback for STRATEGIZE is not shown in DESIGN's prompt
    cli("submit", "p", "--artifact", str(write_json("s.json", STRATEGY)))
    cli("approve", "p")
    assert "Revision requested" not in cli("prompt", "p").out


def test_resubmitting_context_clears_old_answers(cli, engine, task, write_json):
    cli("submit", "p", "--artifact", str(write_json("c.json", CONTEXT)))
    cli("answer", "p", "1", "yes")
    cli("revise", "p", "--feedback", "ask about config too")
    cli("submit", "p", "--artifact", str(write_json("c.json", CONTEXT)))
    assert engine.load("p").context["answers"] == {}
    assert cli("approve", "p").code == 1


def override(engine, state, text):
    folder = engine.config.root / "templates" / "plan-task"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{state}.md.j2").write_text(text)


def test_override_template_wins(cli, engine, task):
    override(engine, "CONTEXTUALIZE", "custom prompt for {{ task.name }}\n")
    assert cli("prompt", "p").out == "custom prompt for p\n"


@pytest.mark.parametrize(
    "broken", ["{{ context_store.no_such_artifact.x }}", "{% if %}", "{{ undefined_name }}"]
)
def test_rollback_when_the_next_prompt_fails_to_render(cli, engine, task, write_json, broken):
    """The seed's rule: the transition and the artifact are one change; a broken next prompt undoes
    both."""
    override(engine, "REVIEW_CONTEXT", f"# review\n{broken}\n")
    before = snapshot(engine)
    r = cli("submit", "p", "--artifact", str(write_json("c.json", CONTEXT)))
    assert r.code == 1
    assert (
        "REVIEW_CONTEXT.md.j2" in r.err
        and "failed to render" in r.err
        and "nothing was changed" in r.err
    )
    assert snapshot(engine) == before
    task = engine.load("p")
    assert task.state == "CONTEXTUALIZE" and task.artifacts == {}
    (engine.config.root / "templates" / "plan-task" / "REVIEW_CONTEXT.md.j2").unlink()
    assert cli("submit", "p", "--artifact", str(write_json("c.json", CONTEXT))).code == 0


def _limit_file_size(limit: int):
    def preexec() -> None:
        # A real file-size limit: writing past `limit` bytes fails with EFBIG (SIGXFSZ ignored).
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return preexec


def test_rollback_when_the_save_fails(cli, engine, task, write_json, repo):
    """Make the save fail for real (RLIMIT_FSIZE in a real subprocess): state and context store
    unchanged."""
    task_file = engine.config.task_file("p")
    before = snapshot(engine)
    limit = len(before[0]) + 64  # the current task.json fits, the one holding the artifact does not
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "taskproto",
            "submit",
            "p",
            "--artifact",
            str(write_json("c.json", CONTEXT)),
        ],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        preexec_fn=_limit_file_size(limit),
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1, proc.stderr
    assert "saving task.json failed" in proc.stderr and "nothing was changed" in proc.stderr
    assert snapshot(engine) == before
    assert sorted(p.name for p in task_file.parent.iterdir() if p.name.startswith(".tmp-")) == []
    task = engine.load("p")
    assert task.state == "CONTEXTUALIZE" and task.artifacts == {}
    assert journal_agrees(engine, "p")
    # without the limit the same submission goes through
    assert cli("submit", "p", "--artifact", str(write_json("c.json", CONTEXT))).code == 0


def test_prompt_json_and_every_state_has_a_template(cli, engine, task):
    from taskproto.machine.prompts import PACKAGE_TEMPLATES
    from taskproto.machine.registry import get_workflow

    names = set(os.listdir(os.path.join(PACKAGE_TEMPLATES, "plan-task")))
    assert {f"{s}.md.j2" for s in get_workflow("plan-task").state_names()} <= names
    data = json.loads(cli("prompt", "p", "--json").out)
    assert data["task"] == "p" and data["prompt"].startswith("# Plan task p")


def test_prompt_for_a_workflow_without_templates_is_refused(cli):
    cli("task", "create", "tp1")
    r = cli("prompt", "tp1")
    assert r.code == 1 and "has no prompt template for INIT" in r.err


def test_generic_fire_submit_without_artifact_is_refused(cli, engine, task):
    r = cli("fire", "p", "submit")
    assert r.code == 1 and "submit needs an artifact" in r.err


def test_approve_flags_still_work_for_task_protocol(cli):
    cli("task", "create", "tp1")
    for s in ("CLASSIFIED", "REQUIREMENTS", "SYNTHESIS"):
        cli("transition", "tp1", s)
    assert cli("approve", "tp1", "--plan").out == "tp1: plan approved\n"
    r = cli("approve", "tp1")  # a new user's bare approve: told which flag approves what
    assert r.code == 1 and r.out == ""
    assert r.err == (
        "taskproto: task 'tp1': workflow task-protocol has no `approve` trigger; approve its plan "
        "with `taskproto approve tp1 --plan`, or its head with `taskproto approve tp1 --commit`\n"
    )
    assert cli("approve", "tp1", "--plan", "--commit").code == 2

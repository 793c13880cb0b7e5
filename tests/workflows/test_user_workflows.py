"""User-defined workflows: loaded from <root>/workflows/NAME.toml or [workflows.NAME], validated,
used."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from wf_data import commit_in

from taskproto.machine.registry import BUILTINS, builtin_names, get_workflow
from taskproto.machine.steps import EFFECTS, GUARDS
from taskproto.machine.user import problems

DOCS = Path(__file__).parents[2] / "docs" / "workflows.md"


def doc_example() -> str:
    """The complete example in docs/workflows.md (the docs must stay true)."""
    match = re.search(
        r"```toml\n(# \.taskproto/workflows/hotfix\.toml\n.*?)```", DOCS.read_text(), re.DOTALL
    )
    assert match, "docs/workflows.md lost its hotfix.toml example"
    return match.group(1)


def install(engine, name: str, text: str) -> Path:
    folder = engine.config.root / "workflows"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.toml"
    path.write_text(text)
    return path


def test_the_documented_example_runs_end_to_end(cli, engine, repo):
    install(engine, "hotfix", doc_example())
    rows = json.loads(cli("workflow", "list", "--json").out)
    assert {"name": "hotfix", "source": "user"}.items() <= next(
        r for r in rows if r["name"] == "hotfix"
    ).items()
    assert cli("task", "create", "h1", "--workflow", "hotfix").code == 0
    r = cli("transition", "h1", "FIX")
    assert r.code == 1 and "(guard plan_approved)" in r.err
    assert cli("approve", "h1", "--plan").code == 0
    assert cli("transition", "h1", "FIX").code == 0
    commit_in(engine.config.task_worktree("h1"))
    assert cli("transition", "h1", "AWAITING_APPROVAL").code == 0
    assert cli("approve", "h1", "--commit").code == 0
    assert cli("transition", "h1", "DONE").out == "h1: AWAITING_APPROVAL -> DONE\n"
    assert cli("workflow", "show", "hotfix", "--mermaid").out.startswith(
        "stateDiagram-v2\n    [*] --> TRIAGE\n"
    )


def test_validate_the_documented_example(cli, tmp_path):
    path = tmp_path / "hotfix.toml"
    path.write_text(doc_example())
    r = cli("workflow", "validate", str(path))
    assert (r.code, r.out) == (0, f"{path}: workflow hotfix is valid (4 states, 4 transitions)\n")


def test_a_workflow_from_the_repo_config(cli, repo, engine):
    (repo / ".taskproto.toml").write_text(
        '[workflows.mini]\ninitial = "A"\n'
        'states = [{name = "A"}, {name = "B", terminal = true}]\n'
        'transitions = [{trigger = "go", source = "A", dest = "B"}]\n'
    )
    assert cli("task", "create", "m1", "--workflow", "mini").code == 0
    assert cli("fire", "m1", "go").out == "m1: A -> B\n"
    assert "mini" in cli("workflow", "list").out


BROKEN = {
    "unknown state in a transition": (
        (
            'initial = "A"\nstates = [{name = "A"}, {name = "B", terminal = true}]\n'
            'transitions = [{trigger = "go", source = "A", dest = "C"}, {trigger = "x", source = '
            '"Z", dest = "B"}]\n'
        ),
        [
            "transitions[0].dest: unknown state 'C' (trigger 'go')",
            "transitions[1].source[0]: unknown state 'Z' (trigger 'x')",
        ],
    ),
    "unreachable state": (
        (
            'initial = "A"\nstates = [{name = "A"}, {name = "B", terminal = true}, {name = '
            '"LOST"}]\n'
            'transitions = [{trigger = "go", source = "A", dest = "B"}, {trigger = "back", source '
            '= "LOST", dest = "A"}]\n'
        ),
        ["states[2]: LOST is unreachable from the initial state A"],
    ),
    "no initial state": (
        'states = [{name = "A", terminal = true}]\ntransitions = []\n',
        ["initial: missing; name the state a new task starts in"],
    ),
    "initial state not a state": (
        'initial = "Q"\nstates = [{name = "A", terminal = true}]\ntransitions = []\n',
        ["initial: 'Q' is not one of the states (A)"],
    ),
    "terminal state with exits": (
        (
            'initial = "A"\nstates = [{name = "A"}, {name = "B", terminal = true}]\n'
            'transitions = [{trigger = "go", source = "A", dest = "B"}, {trigger = "reopen", '
            'source = "B", dest = "A"}]\n'
        ),
        ["states[1].terminal: B is terminal but has exits (reopen)"],
    ),
    "unknown guard": (
        (
            'initial = "A"\nstates = [{name = "A"}, {name = "B", terminal = true}]\n'
            'transitions = [{trigger = "go", source = "A", dest = "B", guards = ["plan_approved", '
            '"!tests_green"]}]\n'
        ),
        ["transitions[0].guards[1]: unknown guard '!tests_green' (known: "],
    ),
    "unknown effect": (
        (
            'initial = "A"\nstates = [{name = "A"}, {name = "B", terminal = true}]\n'
            'transitions = [{trigger = "go", source = "A", dest = "B", effects = ["send_mail"]}]\n'
        ),
        ["transitions[0].effects[0]: unknown effect 'send_mail'"],
    ),
    "schema error": (
        'initial = "A"\nstates = [{name = "A", colour = "red"}]\ntransitions = [{source = "A", '
        'dest = "A"}]\n',
        [
            "states[0].colour: Extra inputs are not permitted",
            "transitions[0].trigger: Field required",
        ],
    ),
    "duplicate state": (
        'initial = "A"\nstates = [{name = "A"}, {name = "A", terminal = true}]\ntransitions = []\n',
        ["states[1].name: duplicate state 'A'"],
    ),
    "name clash": (
        'name = "other"\ninitial = "A"\nstates = [{name = "A", terminal = true}]\ntransitions = '
        "[]\n",
        ["name: 'other' differs from the workflow's name 'flow'"],
    ),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_validate_reports_each_problem_with_file_and_key(cli, tmp_path, case):
    text, expected = BROKEN[case]
    path = tmp_path / "flow.toml"
    path.write_text(text)
    r = cli("workflow", "validate", str(path))
    assert r.code == 1 and r.out == ""
    lines = r.err.splitlines()
    assert lines[0].startswith(f"taskproto: {path}: workflow 'flow' is invalid (")
    for item in expected:
        assert any(line.startswith(f"  {path}: {item}") for line in lines), (item, r.err)


def test_validate_refuses_bad_toml_and_a_missing_file(cli, tmp_path):
    path = tmp_path / "x.toml"
    path.write_text("initial = [unclosed\n")
    r = cli("workflow", "validate", str(path))
    assert r.code == 1 and f"{path}: not valid TOML" in r.err
    r = cli("workflow", "validate", str(tmp_path / "none.toml"))
    assert r.code == 1 and "no such file" in r.err


def test_a_user_workflow_cannot_shadow_a_builtin(cli, tmp_path):
    path = tmp_path / "plan-task.toml"
    path.write_text('initial = "A"\nstates = [{name = "A", terminal = true}]\ntransitions = []\n')
    r = cli("workflow", "validate", str(path))
    assert (
        r.code == 1
        and "name: 'plan-task' is a built-in workflow; copy it under another name" in r.err
    )


def test_broken_installed_workflow_refuses_task_creation_and_is_listed(cli, engine):
    path = install(engine, "bad", 'initial = "A"\nstates = [{name = "A"}]\ntransitions = []\n')
    r = cli("task", "create", "b1", "--workflow", "bad")
    assert r.code == 1 and f"{path}: workflow 'bad' is invalid" in r.err
    assert "no state is terminal" in r.err
    assert not engine.config.task_dir("b1").exists()
    row = next(r for r in json.loads(cli("workflow", "list", "--json").out) if r["name"] == "bad")
    assert "is invalid" in row["error"]


def test_unknown_workflow_lists_the_available_ones(cli, engine):
    install(
        engine,
        "mine",
        'initial = "A"\nstates = [{name = "A", terminal = true}]\ntransitions = []\n',
    )
    r = cli("task", "create", "x", "--workflow", "nope")
    assert r.code == 1
    assert (
        "no workflow named 'nope'; available: phone-a-team, plan-task, task-protocol, tight-loop, "
        "mine" in r.err
    )


@pytest.mark.parametrize("name", ["task-protocol", "plan-task", "tight-loop", "phone-a-team"])
def test_builtins_pass_the_same_checks(name):
    wf = get_workflow(name)
    data = wf.model_dump(mode="json")
    _, found = problems(data, name + "-copy", BUILTINS, GUARDS, EFFECTS)
    expected = (
        f"name: {name!r} differs from the workflow's name {name + '-copy'!r} (the file's "
        "stem or table key)"
    )
    assert found == [expected]
    assert name in builtin_names()


def test_workflow_commands_outside_a_repository(cli, tmp_path):
    outside = tmp_path / "plain"
    outside.mkdir()
    assert "tight-loop" in cli("workflow", "list", cwd=outside).out
    assert cli("workflow", "show", "plan-task", "--mermaid", cwd=outside).code == 0


@pytest.mark.parametrize("name", ["task-protocol", "plan-task", "tight-loop", "phone-a-team"])
def test_docs_diagrams_match_the_code(cli, name):
    diagram = cli("workflow", "show", name, "--mermaid").out
    assert f"## {name}\n\n```mermaid\n{diagram}```\n" in DOCS.read_text()

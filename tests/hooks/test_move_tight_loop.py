"""tight-loop's everyday commands on the quick path (cli/quick.py, hooks/move.py): `handoff`,
`subtask add|done|fail|skip` and `turn` print, render and write exactly what the engine does,
through the same guards, effects, subtask functions and templates, and leave every refusal, every
odd argument and every broken template to the engine, from any folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from taskproto.config import load_config
from taskproto.state import store
from taskproto.state.models import Task
from tests.conftest import git, make_repo
from tests.hooks.test_move import heavy, journal, same_refusal, shas, task_bytes, tp

TIMES = ("time", "at", "since", "updated_at", "created_at", "claimed_at", "heartbeat_at")


def without_times(data: Any) -> Any:
    """task.json's JSON with every time and commit left out (two repositories differ there)."""
    if isinstance(data, dict):
        return {k: without_times(v) for k, v in data.items() if k not in (*TIMES, "base", "sha")}
    if isinstance(data, list):
        return [without_times(v) for v in data]
    return data


def loop_repo(path: Path, name: str = "loop") -> Path:
    """A repository with tight-loop task `name`, claimed by the tests' owner, in PLAN."""
    repo = make_repo(path)
    for args in [("init", "--git"), ("task", "create", name, "--workflow", "tight-loop")]:
        assert tp(repo, *args, quick=False)[0] == 0, args
    assert tp(repo, "claim", name, quick=False)[0] == 0
    return repo


def test_handoffs_and_subtasks_print_render_and_write_what_the_engine_does(tmp_path: Path) -> None:
    repos = [loop_repo(tmp_path / "quick"), loop_repo(tmp_path / "full")]
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"built": ["parser"], "note": 'tab\t"quoted" ünï 🎉'}))
    text = tmp_path / "results.txt"
    text.write_text("two done, one failed\n")

    steps: list[tuple[str, ...]] = [
        ("subtask", "add", "loop", "Write   the parser "),
        ("subtask", "add", "loop", "Test the parser", "--json"),
        ("subtask", "add", "--json", "loop", "Tidy up"),
        ("handoff", "loop", "--to", "execute", "--decision", "yes", "--results", str(results)),
        ("subtask", "done", "loop", "t1", "--note", 'tab\t"q" ünï 🎉'),
        ("subtask", "fail", "loop", "T2", "--reason=flaky", "--json"),
        ("subtask", "skip", "loop", "T3"),
        ("handoff", "loop", "--from=EXECUTE", "--json", "--to=REVIEW", "--decision=YES"),
        ("subtask", "add", "loop", "Fix the flaky test"),
        ("subtask", "add", "loop", "Speed up the lexer", "--json"),
        # REVIEW -> PLAN: record_handoff, next_iteration, select_next_task (the focus)
        ("handoff", "loop", "--decision", "Yes", "--to", "PLAN", "--results", str(text)),
        ("subtask", "add", "loop", "Fix the flaky test"),  # planned: the discovered task's link
        ("handoff", "loop", "--to", "EXECUTE", "--decision", "YES", "--json"),
        ("subtask", "skip", "loop", "T4", "--reason", "later", "--json"),
        ("handoff", "loop", "--to", "REVIEW", "--decision", "YES"),
        # REVIEW -> FULL_AUTO: end_session, and the summary printed
        ("handoff", "loop", "--to", "FULL_AUTO", "--decision", "no"),
    ]
    prompts = []
    for step in steps:
        got, want = tp(repos[0], *step), tp(repos[1], *step, quick=False)
        assert got[:3] == want[:3], step
        assert got[3] == "quick", (step, got)
        if "--json" in step and step[0] == "handoff":
            prompts.append(json.loads(got[1])["prompt"])
        # `turn` after each handoff, read on the quick path: what the full command prints
        phase = json.loads(task_bytes(repos[0], "loop"))["state"]
        for turn in [
            ("turn", "loop"),
            ("turn", "--json", "loop"),
            ("turn", "loop", "--phase", phase.lower()),
        ]:
            seen, full = tp(repos[0], *turn), tp(repos[0], *turn, quick=False)
            assert seen[:3] == full[:3] and seen[0] == 0, turn
            assert seen[3] == "quick", (turn, seen)
    assert "Results from PLAN" not in prompts[0] and "T1" in prompts[0]
    assert "Completed: T1 Write the parser" in prompts[0]
    assert "session summary:" in got[1] and "tasks discovered    2" in got[1]
    turn = tp(repos[0], "turn", "loop")
    assert turn[1].startswith("loop: the loop has ended (FULL_AUTO)\nsession summary:"), turn
    quick, full = (task_bytes(repo, "loop") for repo in repos)
    assert store.dump(store.parse(Task, Path("task.json"), quick, move_aside=False)) == quick
    assert without_times(json.loads(quick)) == without_times(json.loads(full))
    data = json.loads(quick)
    assert data["state"] == "FULL_AUTO" and data["counters"]["iteration"] == 2
    assert data["context"]["focus"]["title"] == "Fix the flaky test"
    assert data["context"]["handoffs"][0]["results"]["note"] == 'tab\t"quoted" ünï 🎉'
    assert data["context"]["summary"]["subtasks_failed"] == 1
    assert data["context"]["summary"]["subtasks_skipped"] == 2
    assert data["context"]["discovered"][0]["planned_as"] == "T4"
    notes = [e["note"] for e in data["transition_log"] if e["kind"] == "note"]
    assert notes[:3] == ["T1 Write the parser", "T2 Test the parser", "T3 Tidy up"]
    assert shas(tuple(journal(repos[0], "loop"))) == shas(tuple(journal(repos[1], "loop")))
    git(repos[0], "fsck", "--strict", "--no-progress")
    assert tp(repos[0], "doctor", quick=False)[0] == 0


def test_every_refusal_and_odd_argument_is_the_engines(tmp_path: Path) -> None:
    repo = loop_repo(tmp_path / "repo")
    assert tp(repo, "task", "create", "proto", quick=False)[0] == 0
    assert tp(repo, "claim", "proto", quick=False)[0] == 0
    handoff = ("handoff", "loop", "--to", "EXECUTE")
    assert "answered NO" in same_refusal(repo, *handoff, "--decision", "NO")
    assert "does not hold the turn" in same_refusal(
        repo, *handoff, "--decision", "YES", "--from", "REVIEW"
    )
    assert same_refusal(repo, "handoff", "loop", "--to", "FULL_AUTO", "--decision", "NO")
    assert same_refusal(repo, "handoff", "loop", "--to", "NOWHERE", "--decision", "YES")
    assert "not tight-loop" in same_refusal(
        repo, "handoff", "proto", "--to", "CLASSIFIED", "--decision", "YES"
    )
    assert "owner" in same_refusal(repo, *handoff, "--decision", "YES", TASKPROTO_SESSION="other")
    assert same_refusal(repo, "handoff", "nope", "--to", "EXECUTE", "--decision", "YES")
    # what click says about the arguments, and the results file's problems
    questions = tmp_path / "questions.json"
    questions.write_text(json.dumps({"questions": ["why?"]}))
    big = tmp_path / "big.txt"
    big.write_text("x" * (100 * 1024 + 1))
    for extra in [
        ("--decision", "MAYBE"),
        ("--decision",),
        (),
        ("--decision", "YES", "--results", str(questions)),
        ("--decision", "YES", "--results", str(big)),
        ("--decision", "YES", "--results", str(tmp_path / "missing.json")),
        ("--decision", "YES", "--results", str(tmp_path)),
        ("--decision", "YES", "--decision", "NO"),
        ("--decision", "YES", "extra"),
        ("--decision", "YES", "--bogus"),
    ]:
        assert same_refusal(repo, *handoff, *extra), extra
    # `turn`: a phase that does not hold the turn, or is none, and a task of another workflow
    assert "does not hold the turn" in same_refusal(repo, "turn", "loop", "--phase", "REVIEW")
    assert "not a phase" in same_refusal(repo, "turn", "loop", "--phase=NOWHERE")
    assert "not tight-loop" in same_refusal(repo, "turn", "proto")
    assert same_refusal(repo, "turn", "loop", "--phase")
    assert same_refusal(repo, "turn", "nope")
    # `subtask`: what each refuses, in which state, and what click says
    assert tp(repo, "subtask", "add", "loop", "One")[:4:3] == (0, "quick")
    assert "already pending" in same_refusal(repo, "subtask", "add", "loop", " one ")
    assert same_refusal(repo, "subtask", "add", "loop", "   ")
    assert "EXECUTE" in same_refusal(repo, "subtask", "done", "loop", "T1")
    assert "owner" in same_refusal(repo, "subtask", "add", "loop", "Two", TASKPROTO_SESSION="x")
    assert "not tight-loop" in same_refusal(repo, "subtask", "add", "proto", "Two")
    for args in [
        ("subtask", "add", "loop"),
        ("subtask", "add", "loop", "Two", "Three"),
        ("subtask", "add", "loop", "Two", "--note", "n"),
        ("subtask", "done", "loop", "T1", "--reason", "r"),
        ("subtask", "fail", "loop", "T1", "--reason"),
        ("subtask", "skip", "loop", "T1", "--reason", "a", "--reason", "b"),
        ("subtask", "edit", "loop", "T1", "--title", "x"),
        ("subtask", "frobnicate", "loop", "T1"),
    ]:
        assert same_refusal(repo, *args), args
    # not refusals, but the engine's: an option given twice (click takes the last), --force, --help
    code, out, _, path = tp(repo, *handoff, "--decision", "NO", "--decision", "YES")
    assert (code, path) == (0, "full") and "PLAN -> EXECUTE" in out
    code, out, _, path = tp(
        repo, "handoff", "loop", "--to", "REVIEW", "--decision", "yes", "--force"
    )
    assert (code, path) == (0, "full") and "EXECUTE -> REVIEW" in out
    assert tp(repo, "handoff", "--help")[3] == "full"
    assert json.loads(task_bytes(repo, "loop"))["state"] == "REVIEW"
    assert tp(repo, "subtask", "add", "loop", "Two", "--force")[:4:3] == (0, "full")
    for args in [("done", "T1"), ("skip", "T1"), ("fail", "T9")]:
        assert "EXECUTE" in same_refusal(repo, "subtask", args[0], "loop", args[1])
    assert "already exists" in same_refusal(repo, "subtask", "add", "loop", "TWO")


def test_from_other_folders_and_links_it_moves_and_refuses_alike(tmp_path: Path) -> None:
    repo = loop_repo(tmp_path / "repo")
    link = tmp_path / "link"
    link.symlink_to(repo)
    sub = repo / "sub" / "dir"
    sub.mkdir(parents=True)
    worktree = Path(load_config(repo).layout.task_worktree("loop"))
    for cwd in (worktree, sub, link, link / ".taskproto"):
        refused = same_refusal(
            cwd, "handoff", "loop", "--to", "EXECUTE", "--decision", "NO", top=repo
        )
        assert "answered NO" in refused
    for cwd, to in [(worktree, "EXECUTE"), (link / "sub", "REVIEW"), (sub, "PLAN")]:
        code, out, err, path = tp(cwd, "subtask", "add", "loop", f"Work from {cwd.name}")
        assert (code, path) == (0, "quick"), err
        assert "owner" in same_refusal(
            cwd, "subtask", "add", "loop", "Not mine", top=repo, TASKPROTO_SESSION="intruder"
        )
        code, out, err, path = tp(cwd, "handoff", "loop", "--to", to, "--decision", "YES")
        assert (code, path) == (0, "quick"), err
        assert f"-> {to}" in out
    assert "skipped in EXECUTE" in same_refusal(link, "subtask", "skip", "loop", "T1", top=repo)
    # a relative --results is read from where the command runs
    (sub / "r.txt").write_text("relative results\n")
    code, out, err, path = tp(
        sub, "handoff", "loop", "--to", "EXECUTE", "--decision", "YES", "--results", "r.txt"
    )
    assert (code, path) == (0, "quick"), err
    handoffs = json.loads(task_bytes(repo, "loop"))["context"]["handoffs"]
    assert handoffs[-1]["results"] == "relative results\n"
    assert tp(repo, "doctor", quick=False)[0] == 0


def test_the_repositorys_templates_render_here_and_a_broken_one_refuses(tmp_path: Path) -> None:
    repo = loop_repo(tmp_path / "repo")
    worktree = Path(load_config(repo).layout.task_worktree("loop"))
    link = tmp_path / "link"
    link.symlink_to(repo)
    folder = repo / ".taskproto" / "templates" / "tight-loop"
    folder.mkdir(parents=True)
    template = folder / "EXECUTE.md.j2"
    handoff = ("handoff", "loop", "--to", "EXECUTE", "--decision", "YES", "--json")
    plain = handoff[:-1]  # its prompt not shown: rendered all the same
    for broken, why in [
        ("{{ task.name }} {% if %}", "TemplateSyntaxError"),
        ("{{ questions }}", "UndefinedError"),  # only the named items: never the questions
        ("{% include '_nowhere.md.j2' %}", "TemplateNotFound"),
    ]:
        template.write_text(broken)
        refused = same_refusal(repo, *handoff)
        assert "failed to render" in refused and why in refused, refused
        assert json.loads(task_bytes(repo, "loop"))["state"] == "PLAN"
        # from the task's worktree and a symlinked checkout: the repository's template all the same
        for cwd in (worktree, link):
            assert why in same_refusal(cwd, *handoff, top=repo)
            assert why in same_refusal(cwd, *plain, top=repo)  # its prompt not shown
        assert why in same_refusal(repo, *plain)
    template.write_text("Go, {{ task.name }}: {{ subtasks | length }} subtasks, {{ gate }}\n")
    code, out, err, path = tp(repo, *handoff)
    assert (code, path) == (0, "quick"), err
    assert json.loads(out)["prompt"] == "Go, loop: 0 subtasks, Ready for review?\n"


def test_quick_commands_import_jinja2_for_a_prompt_and_nothing_else_heavy(tmp_path: Path) -> None:
    repo = loop_repo(tmp_path / "repo")

    def loaded(*args: str) -> tuple[str, int]:
        out, code = heavy(repo, *args)
        return out[-1], code

    # refused: the engine, with everything it needs
    assert "pydantic" in loaded("handoff", "loop", "--to", "EXECUTE", "--decision", "NO")[0]
    assert "pydantic" in loaded("subtask", "done", "loop", "T1")[0]
    assert loaded("subtask", "add", "loop", "One") == ("[]", 0)
    assert loaded("turn", "loop", "--json") == ("[]", 0)
    # the prompt is rendered when it is shown (--json); jinja2 imports json, re and enum itself
    assert loaded("handoff", "loop", "--to", "EXECUTE", "--decision", "YES", "--json") == (
        "['enum', 'jinja2', 'json', 're']",
        0,
    )
    assert loaded("subtask", "done", "loop", "T1") == ("[]", 0)
    # not shown, from the package's templates (they render on every task: below): not rendered
    assert loaded("handoff", "loop", "--to", "REVIEW", "--decision", "YES") == ("[]", 0)
    # the repository's own templates may be broken: rendered, shown or not
    (repo / ".taskproto" / "templates" / "tight-loop").mkdir(parents=True)
    assert loaded("handoff", "loop", "--to", "PLAN", "--decision", "YES") == (
        "['enum', 'jinja2', 'json', 're']",
        0,
    )


def test_option_values_are_read_as_click_reads_them(tmp_path: Path) -> None:
    """A value that looks like an option (`--note --json`, `--reason -x`) or is empty is the
    option's value, on both paths."""
    repos = [loop_repo(tmp_path / "quick"), loop_repo(tmp_path / "full")]
    steps = [
        ("subtask", "add", "loop", "One"),
        ("subtask", "add", "loop", "Two"),
        ("subtask", "add", "loop", "Three"),
        ("handoff", "loop", "--to", "EXECUTE", "--decision", "YES"),
        ("subtask", "done", "loop", "T1", "--note", "--json"),
        ("subtask", "fail", "loop", "T2", "--reason", "-x", "--json"),
        ("subtask", "skip", "loop", "T3", "--reason="),
    ]
    for step in steps:
        got, want = tp(repos[0], *step), tp(repos[1], *step, quick=False)
        assert got[:3] == want[:3] and got[0] == 0, step
        assert got[3] == "quick", step
    notes = [s["note"] for s in json.loads(task_bytes(repos[0], "loop"))["context"]["subtasks"]]
    assert notes == ["--json", "-x", ""]

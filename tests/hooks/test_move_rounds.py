"""phone-a-team's `round review` and `round decide` on the quick path (cli/quick_team.py,
hooks/move.py `chain`): they print and write exactly what the engine does (ops/phone_a_team.py),
`round decide`'s two transitions as one change, and leave every refusal and odd argument to the
engine, from any folder and for any session."""

from __future__ import annotations

import json
import os
from pathlib import Path

from taskproto.config import load_config
from taskproto.state import store
from taskproto.state.models import Task
from tests.conftest import git, make_repo
from tests.hooks.test_move import (
    AGENT_ENV,
    NOTE,
    heavy,
    journal,
    same_refusal,
    shas,
    task_bytes,
    tp,
    without_times,
)

FAIL = "acceptance=pass,risks=fail,validation=pass"


def team_repo(path: Path, *names: str) -> tuple[Path, str]:
    """A repository with phone-a-team tasks `names` (two rounds, backends codex and gemini,
    stand-ins on PATH), claimed by the tests' owner, in DO; and that PATH."""
    folder = path.parent / "bin"  # one for every repository of a test: their task.json alike
    folder.mkdir(exist_ok=True)
    for backend in ("codex", "gemini"):  # creating the task only looks them up
        (folder / backend).write_text("#!/bin/sh\nexit 0\n")
        (folder / backend).chmod(0o755)
    found = f"{folder}{os.pathsep}{os.environ['PATH']}"
    repo = make_repo(path)
    assert tp(repo, "init", "--git", quick=False)[0] == 0
    for name in names:
        create = ("task", "create", name, "--workflow", "phone-a-team", "-d", "Speed it up")
        made = tp(repo, *create, "--backend", "both", "--max-rounds", "2", quick=False, PATH=found)
        assert made[0] == 0, made
    for name in names:  # one session may own several (it may not start one inside another)
        assert tp(repo, "claim", name, quick=False)[0] == 0
    return repo, found


def both_ways(quick: Path, full: Path, steps: list[tuple[str, ...]]) -> list[str]:
    """Each step on the quick path in `quick` and by the engine in `full`: the same output and
    exit code, every step answered on the quick path. What each printed."""
    printed = []
    for step in steps:
        got, want = tp(quick, *step), tp(full, *step, quick=False)
        assert shas(got[:3]) == shas(want[:3]), step
        assert got[0] == 0 and got[3] == "quick", (step, got)
        printed.append(got[1])
    return printed


def test_rounds_print_and_write_what_the_engine_does(tmp_path: Path) -> None:
    (quick, _), (full, _) = (team_repo(tmp_path / w, "t", "c") for w in ("quick", "full"))
    output = tmp_path / "output.txt"
    output.write_text(f"round one: {NOTE}\n")
    steps: list[tuple[str, ...]] = [
        ("round", "review", "t", "--output", str(output)),
        ("round", "decide", "t", "--rubric", FAIL, "--note", NOTE),  # iterate: round 2
        ("round", "review", "--json", "t"),
        # the last round: force_stop, what is unresolved printed
        ("round", "decide", "t", f"--rubric={FAIL.replace('pass', 'fail')}", "--json"),
        ("round", "review", "c", "--output=" + str(output), "--json"),
        # converge: validation documented, with its reason; the rubric's words as click reads them
        (
            "round",
            "decide",
            "c",
            "--rubric",
            " Acceptance=PASS, risks=pass,validation=documented",
            "--note",
            "no tests for the CLI",
        ),
    ]
    printed = both_ways(quick, full, steps)
    assert printed[1] == "t: REVIEW -> DO (round 2 of 2)\n"
    assert json.loads(printed[3])["unresolved"] == [
        "acceptance criteria not met",
        "critical risks or correctness issues remain",
        "validation not done and no documented reason",
    ]
    assert printed[5] == "c: REVIEW -> SYNTHESIS (converged)\n"
    assert "not allowed from SYNTHESIS" in same_refusal(quick, *steps[3])  # nothing left to decide
    for name in ("t", "c"):
        mine, theirs = task_bytes(quick, name), task_bytes(full, name)
        assert store.dump(store.parse(Task, Path("task.json"), mine, move_aside=False)) == mine
        assert without_times(json.loads(mine)) == without_times(json.loads(theirs))
        assert journal(quick, name) == journal(full, name)
    t, c = (json.loads(task_bytes(quick, name)) for name in ("t", "c"))
    assert t["context"]["outcome"] == "forced_stop" and t["counters"]["round"] == 2
    assert [e["trigger"] for e in t["transition_log"][-3:]] == ["review", "decide", "force_stop"]
    assert t["context"]["rounds"][0]["note"] == NOTE
    assert c["context"]["outcome"] == "converged" and c["context"]["unresolved"] == []
    assert [m.split("\n")[0] for m in journal(quick, "t")[:4]] == [
        "decide: round 2 -> SYNTHESIS (force_stop)",
        "review: round 2",
        "decide: round 1 -> DO (iterate)",
        "review: round 1",
    ]
    git(quick, "fsck", "--strict", "--no-progress")
    assert tp(quick, "doctor", quick=False)[0] == 0


def test_round_fail_prints_and_writes_what_the_engine_does(tmp_path: Path) -> None:
    """The failure matrix on the quick path: a 429 skips a backend, a lost round starts the next,
    both backends failing stops the loop; each a note, and a transition when the round is lost."""
    (quick, _), (full, _) = (team_repo(tmp_path / w, "f") for w in ("quick", "full"))
    steps: list[tuple[str, ...]] = [
        ("round", "fail", "f", "--backend", "codex", "--reason", "rate-limited"),  # continue
        ("round", "fail", "f", "--backend=gemini", "--reason=timeout", "--json"),  # retry_round
        ("round", "fail", "--json", "f", "--reason", "crash", "--backend", "codex"),  # continue
        ("round", "fail", "f", "--backend", "gemini", "--reason", "crash"),  # fail_stop
    ]
    printed = both_ways(quick, full, steps)
    assert printed[0] == "f: backend codex rate-limited in round 1; continuing with gemini\n"
    assert json.loads(printed[1])["action"] == "retry_round"
    assert json.loads(printed[1])["message"].endswith("round 1 lost, round 2 starts")
    assert printed[3].startswith("f: backend gemini crash in round 2; loop stopped (backends")
    assert "  unresolved: backend codex failed: crash\n" in printed[3]
    mine, theirs = task_bytes(quick, "f"), task_bytes(full, "f")
    assert store.dump(store.parse(Task, Path("task.json"), mine, move_aside=False)) == mine
    assert without_times(json.loads(mine)) == without_times(json.loads(theirs))
    assert journal(quick, "f") == journal(full, "f")
    log = json.loads(mine)["transition_log"]
    assert [(e["trigger"], e["kind"]) for e in log[-3:]] == [
        ("backend_failure", "note"),
        ("backend_failure", "note"),
        ("fail_stop", "transition"),
    ]
    # refused, or odd: the engine's, in its words, nothing written
    for odd in [
        ("--backend", "codex", "--reason", "crash"),  # the loop has stopped: not in a round
        ("--backend", "codex"),
        ("--reason", "crash"),
        ("--backend", "codex", "--reason", "bored"),
        ("--backend", "codex", "--reason", "crash", "--force"),
    ]:
        assert same_refusal(quick, "round", "fail", "f", *odd), odd
    repo, _ = team_repo(tmp_path / "again", "g")
    assert "not a backend" in same_refusal(
        repo, "round", "fail", "g", "--backend", "ollama", "--reason", "crash"
    )
    assert tp(repo, "round", "fail", "g", "--backend", "codex", "--reason", "timeout")[3] == "quick"
    assert "already down" in same_refusal(
        repo, "round", "fail", "g", "--backend", "codex", "--reason", "crash"
    )
    assert "owner" in same_refusal(
        repo,
        "round",
        "fail",
        "g",
        "--backend",
        "gemini",
        "--reason",
        "crash",
        TASKPROTO_SESSION="x",
    )
    git(quick, "fsck", "--strict", "--no-progress")
    assert tp(quick, "doctor", quick=False)[0] == 0


def test_a_round_imports_no_pydantic_click_gitpython_or_jinja(tmp_path: Path) -> None:
    repo, _ = team_repo(tmp_path / "repo", "t")
    assert heavy(repo, "round", "review", "t") == (["t: DO -> REVIEW (round 1 of 2)", "[]"], 0)
    out, code = heavy(repo, "round", "decide", "t", "--rubric", FAIL)
    assert (out, code) == (["t: REVIEW -> DO (round 2 of 2)", "[]"], 0)
    out, code = heavy(repo, "round", "fail", "t", "--backend", "codex", "--reason", "crash")
    assert (out, code) == (["t: backend codex crash in round 2; continuing with gemini", "[]"], 0)
    # refused (the rubric misses an item): the engine, with everything it needs
    out, code = heavy(repo, "round", "decide", "t", "--rubric", "acceptance=pass")
    assert code == 1 and "pydantic" in out[-1], out


def test_every_refusal_and_odd_argument_is_the_engines(tmp_path: Path) -> None:
    repo, path = team_repo(tmp_path / "repo", "t", "mine")
    assert tp(repo, "task", "create", "proto", quick=False)[0] == 0
    assert tp(repo, "claim", "proto", quick=False)[0] == 0
    decide = ("round", "decide", "t", "--rubric", FAIL)
    # in DO: nothing to decide yet; the rubric's and the note's problems
    assert "not allowed from DO" in same_refusal(repo, *decide)
    missing = same_refusal(repo, "round", "review", "t", "--output", str(tmp_path / "missing.txt"))
    assert missing.startswith("taskproto: --output ") and "No such file" in missing, missing
    assert same_refusal(repo, "round", "review", "t", "--output", str(tmp_path))
    assert tp(repo, "round", "review", "t")[3] == "quick"
    for odd in [
        ("--rubric", "acceptance=pass"),
        ("--rubric", "acceptance=maybe,risks=pass,validation=pass"),
        ("--rubric", "speed=pass,acceptance=pass,risks=pass,validation=pass"),
        ("--rubric", "acceptance=pass,risks=pass,validation=documented"),  # no --note
        ("--rubric", FAIL, "--note"),
        ("--rubric",),
        (),
        ("--rubric", FAIL, "extra"),
        ("--rubric", FAIL, "--bogus"),
    ]:
        assert same_refusal(repo, "round", "decide", "t", *odd), odd
    # another session, a task of another workflow, no such task, the journal not vouching for it
    assert "owner" in same_refusal(repo, *decide, TASKPROTO_SESSION="other")
    other = {**AGENT_ENV, "CLAUDE_CODE_SESSION_ID": "x", "TASKPROTO_SESSION": "x"}
    assert "owner" in same_refusal(repo, *decide, **other)  # an agent of another session
    assert "not phone-a-team" in same_refusal(repo, "round", "review", "proto")
    assert same_refusal(repo, "round", "review", "nope")
    task_file = repo / ".taskproto" / "tasks" / "t" / "task.json"
    good = task_file.read_bytes()
    task_file.write_bytes(good.replace(b'"round": 1', b'"round": 2'))
    assert "cannot be trusted" in same_refusal(repo, *decide)
    task_file.write_bytes(good)
    # from the task's worktree, a link to the checkout and its .taskproto folder: refused and
    # moved as from the top
    link = tmp_path / "link"
    link.symlink_to(repo)
    worktree = Path(load_config(repo).layout.task_worktree("t"))
    for cwd in (worktree, link, link / ".taskproto"):
        assert same_refusal(cwd, "round", "review", "t", top=repo)
    assert tp(worktree, *decide)[:2] == (0, "t: REVIEW -> DO (round 2 of 2)\n")
    # the user's interruption holds the work: an agent waits until the user resumes
    assert tp(repo, "round", "review", "mine", quick=False)[0] == 0
    assert tp(repo, "interrupt", "record", "mine", "Why?", quick=False, PATH=path)[0] == 0
    assert "interrupted" in same_refusal(
        repo, "round", "decide", "mine", "--rubric", FAIL, **AGENT_ENV
    )

"""Plain transitions on the standard library (hooks/move.py, through cli/quick.py): they write
exactly what the engine writes, import neither pydantic nor click, leave every other case and
every refusal to the engine, and share its lock with it."""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.hooks import quicksave
from taskproto.machine import prompts
from taskproto.machine.steps import EFFECTS, GUARDS, LIGHT, FireContext, Record
from taskproto.state import store
from taskproto.state.models import Task
from tests.cli.test_quick_read_path import run
from tests.conftest import commit_file, git, make_repo

OWNER = "move-owner"
AGENT_ENV = {"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": OWNER}
# the note of every transition below: what JSON escapes, and what it does not
NOTE = 'tab\there, "quotes", back\\slash, ctrl \x01\x1f, ünïcödé, 🎉, \u2028 end'


def tp(repo: Path, *args: str, quick: bool = True, **env: str) -> tuple[int, str, str, str]:
    return run(repo, *args, quick=quick, **{"TASKPROTO_SESSION": OWNER, **env})


def build(path: Path, agents: str = "") -> Path:
    """A repository with task `t` (task-protocol) claimed by OWNER, in SYNTHESIS."""
    repo = make_repo(path)
    steps = [
        ("init", "--git"),
        ("task", "create", "t", *(("--agents", agents) if agents else ())),
        ("claim", "t"),
        ("transition", "t", "CLASSIFIED"),
        ("transition", "t", "REQUIREMENTS"),
        ("transition", "t", "SYNTHESIS"),
    ]
    for args in steps:
        code, _, err, _ = tp(repo, *args, quick=False)
        assert code == 0, (args, err)
    return repo


def task_bytes(repo: Path, name: str = "t") -> bytes:
    path = repo / ".taskproto" / "tasks" / name / "task.json"
    return path.read_bytes() if path.is_file() else b""


def without_times(data: Any) -> Any:
    """task.json's JSON with every time left out (two runs differ only there)."""
    if isinstance(data, dict):
        return {
            k: without_times(v)
            for k, v in data.items()
            # every time, and the commits the two repositories made at different times
            if k not in ("time", "at", "updated_at", "created_at", "claimed_at", "heartbeat_at")
            and k not in ("base", "sha", "commit_sha")
        }
    if isinstance(data, list):
        return [without_times(v) for v in data]
    return data


MINE = """
initial = "READY"

[[states]]
name = "READY"

[[states]]
name = "WORK"
allows_edits = true

[[states]]
name = "HANDED"

[[states]]
name = "DONE"
terminal = true

[[transitions]]
trigger = "start"
source = "READY"
dest = "WORK"

[[transitions]]
trigger = "hand_over"
source = "WORK"
dest = "HANDED"
guards = ["!artifact_valid"]

[[transitions]]
trigger = "finish"
source = "HANDED"
dest = "DONE"
"""


def shas(result: tuple[Any, ...]) -> tuple[Any, ...]:
    """A command's result with commit ids left out."""
    return tuple(
        re.sub(r"\b[0-9a-f]{12,40}\b", "<sha>", v) if isinstance(v, str) else v for v in result
    )


def journal(repo: Path, name: str = "t") -> list[str]:
    out = git(repo, "log", "--format=%B%x00", f"refs/taskproto/tasks/{name}")
    return [m.strip().split("\ndigest:")[0] for m in out.split("\x00") if m.strip()]


def test_a_plain_transition_writes_what_the_engine_writes(tmp_path: Path) -> None:
    quick, full = build(tmp_path / "quick", "a1"), build(tmp_path / "full", "a1")
    for repo in (quick, full):
        assert tp(repo, "approve", "t", "--plan", quick=False)[0] == 0
    steps = [
        (("transition", "t", "implementation", "--note", NOTE), "quick"),  # guard plan_approved
        (("transition", "t", "VALIDATION", "--json"), "full"),  # agents_complete fails: refused
        (("agent", "set", "t", "a1", "--status", "COMPLETE"), "quick"),
        (("transition", "t", "VALIDATION", f"--note={NOTE}", "--json"), "quick"),
        (("fire", "t", "validation_failed"), "quick"),
        (("fire", "t", "validate", "--note", ""), "quick"),
        (("fire", "t", "review"), "quick"),
        # task-protocol's effects: present_head, then clear_commit_approval, clear_plan_approval
        (("fire", "t", "request_approval", "--note", NOTE), "quick"),
        (("approve", "t", "--commit"), "full"),
        (("fire", "t", "request_changes"), "quick"),
        (("fire", "t", "validate"), "quick"),
        (("fire", "t", "review"), "quick"),
        (("fire", "t", "reject_to_synthesis"), "quick"),
    ]
    for args, path in steps:
        got = tp(quick, *args)
        want = tp(full, *args, quick=False)
        assert shas(got[:3]) == shas(want[:3]), args  # the two repositories' commits differ
        assert got[3] == path, args
    data = task_bytes(quick)
    # the bytes the models write for what they read: byte for byte, the notes too
    assert store.dump(store.parse(Task, Path("task.json"), data, move_aside=False)) == data
    loaded = json.loads(data)
    assert without_times(json.loads(shas((data.decode(),))[0])) == without_times(
        json.loads(shas((task_bytes(full).decode(),))[0])
    )
    notes = [e["note"] for e in loaded["transition_log"] if e["kind"] == "transition"]
    assert notes[-10:] == [NOTE, NOTE, None, "", None, NOTE, None, None, None, None]
    # what the effects left: the head presented, both approvals cleared
    checkpoint = loaded["checkpoint"]
    assert checkpoint["plan_approval"] is None and checkpoint["commit_approval"] is None
    head = git(quick, "rev-parse", "refs/heads/t").strip()
    assert checkpoint["commit_sha"] == head
    assert shas(tuple(journal(quick))) == shas(tuple(journal(full)))
    git(quick, "fsck", "--strict", "--no-progress")
    assert tp(quick, "doctor", quick=False)[0] == 0


def test_phone_a_teams_transitions_write_what_the_engine_writes(tmp_path: Path) -> None:
    """phone-a-team's guards and effects (rounds, rubric, synthesis) run on the quick path too."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for backend in ("codex", "gemini"):  # stand-ins: creating the task only looks them up
        (folder / backend).write_text("#!/bin/sh\nexit 0\n")
        (folder / backend).chmod(0o755)
    path = f"{folder}{os.pathsep}{os.environ['PATH']}"
    repos = [make_repo(tmp_path / "quick"), make_repo(tmp_path / "full")]
    create = ("task", "create", "t", "--workflow", "phone-a-team", "-d", "Speed up the parser")
    for repo in repos:
        for args in [("init", "--git"), (*create, "--backend", "both", "--max-rounds", "2")]:
            assert tp(repo, *args, quick=False, PATH=path)[0] == 0, args
        assert tp(repo, "claim", "t", quick=False)[0] == 0
    fail = {"acceptance": "pass", "risks": "fail", "validation": "pass"}

    def decide() -> None:  # REVIEW -> DECIDE only: `round decide` goes on to the next state
        for repo in repos:
            engine = Engine(load_config(repo))
            engine.fire("t", "decide", session=OWNER, params={"rubric": fail, "note": NOTE})

    def elsewhere() -> None:  # the last round's refusals, from the task's worktree and a link
        link = tmp_path / "link"
        link.symlink_to(repos[0])
        worktree = Path(load_config(repos[0]).layout.task_worktree("t"))
        for cwd in (worktree, link, link / ".taskproto"):
            assert "rounds_remain" in same_refusal(cwd, "fire", "t", "iterate", top=repos[0])
            assert "rubric_passes" in same_refusal(cwd, "fire", "t", "converge", top=repos[0])

    steps: list[tuple[tuple[str, ...], str] | Callable[[], None]] = [
        (("transition", "t", "REVIEW", "--note", NOTE), "quick"),  # record_output
        decide,
        (("fire", "t", "iterate"), "quick"),  # next_round: the round closed, round 2
        (("fire", "t", "review", "--json"), "quick"),
        decide,
        elsewhere,
        (("fire", "t", "iterate"), "full"),  # rounds_remain fails: the last round
        (("transition", "t", "SYNTHESIS"), "full"),  # converge: rubric_passes fails
        (("fire", "t", "force_stop", "--note", NOTE), "quick"),  # synthesize
    ]
    for step in steps:
        if callable(step):
            step()
            continue
        args, where = step
        got, want = tp(repos[0], *args), tp(repos[1], *args, quick=False)
        assert shas(got[:3]) == shas(want[:3]), args
        assert got[3] == where, args
    quick, full = (task_bytes(repo) for repo in repos)
    assert store.dump(store.parse(Task, Path("task.json"), quick, move_aside=False)) == quick
    assert without_times(json.loads(shas((quick.decode(),))[0])) == without_times(
        json.loads(shas((full.decode(),))[0])
    )
    context = json.loads(quick)["context"]
    assert context["outcome"] == "forced_stop" and len(context["rounds"]) == 2
    assert shas(tuple(journal(repos[0]))) == shas(tuple(journal(repos[1])))
    git(repos[0], "fsck", "--strict", "--no-progress")
    assert tp(repos[0], "doctor", quick=False)[0] == 0


# Runs the real CLI entry and prints, last, which heavy modules it loaded (pathlib: ~3 ms with
# what it imports, which no quick change needs but one of an agent's status file)
HEAVY = (
    "import sys\n"
    "from taskproto.cli import main\n"
    "code = main(sys.argv[1:])\n"
    "heavy = {'pydantic', 'click', 'git', 'jinja2', 'filelock', 'taskproto.engine', 'pathlib'}\n"
    "heavy |= {'re', 'json', 'enum'}  # ~half the floor: plainjson does without them\n"
    "print(sorted(heavy & set(sys.modules)))\n"
    "raise SystemExit(code)\n"
)


def heavy(repo: Path, *args: str) -> tuple[list[str], int]:
    """`taskproto args` run by OWNER in `repo`: its stdout's lines, the last naming the heavy
    modules it imported, and its exit code. Run as a regular install runs it: without `site`
    (`-S`), which here would import what the editable install's finder imports (pathlib among
    them), and with the package and site-packages on PYTHONPATH instead."""
    import site

    import taskproto

    where = [str(Path(taskproto.__file__).parent.parent), *site.getsitepackages()]
    proc = subprocess.run(
        [sys.executable, "-S", "-c", HEAVY, *args],
        cwd=repo,
        env={**os.environ, "TASKPROTO_SESSION": OWNER, "PYTHONPATH": os.pathsep.join(where)},
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.stdout.splitlines(), proc.returncode


def test_a_quick_transition_imports_no_pydantic_click_gitpython_or_jinja(tmp_path: Path) -> None:
    repo = build(tmp_path / "repo")
    # refused (no plan approval): the engine, with everything it needs
    out, code = heavy(repo, "fire", "t", "implement")
    assert code == 1 and "pydantic" in out[-1], out
    assert tp(repo, "approve", "t", "--plan", quick=False)[0] == 0
    assert heavy(repo, "fire", "t", "implement") == (["t: SYNTHESIS -> IMPLEMENTATION", "[]"], 0)


def test_from_another_folder_it_moves_and_refuses_as_from_the_top(tmp_path: Path) -> None:
    repo = build(tmp_path / "repo")
    worktree = Path(load_config(repo).layout.task_worktree("t"))
    sub = repo / "sub" / "dir"
    sub.mkdir(parents=True)
    for cwd in (worktree, sub):
        assert "plan_approved" in same_refusal(cwd, "fire", "t", "implement", top=repo)
    assert tp(repo, "approve", "t", "--plan", quick=False)[0] == 0
    assert tp(worktree, "fire", "t", "implement")[:4:3] == (0, "quick")
    assert tp(sub, "fire", "t", "validate")[:4:3] == (0, "quick")
    assert json.loads(task_bytes(repo))["state"] == "VALIDATION"
    assert tp(repo, "doctor", quick=False)[0] == 0


def test_links_in_taskprotos_folder_are_never_followed(tmp_path: Path) -> None:
    """A task folder, a task.json or an agent's status file replaced by a link: the engine's
    refusal, never a move through the link, and nothing it points at in the journal."""
    repo = build(tmp_path / "repo", "a1")
    assert tp(repo, "approve", "t", "--plan", quick=False)[0] == 0
    assert tp(repo, "fire", "t", "implement")[:4:3] == (0, "quick")
    tasks = repo / ".taskproto" / "tasks"
    # the agent's status file: a link to a COMPLETE status elsewhere
    status = tasks / "t" / "agents" / "a1" / "status.json"
    assert tp(repo, "agent", "set", "t", "a1", "--status", "COMPLETE", quick=False)[0] == 0
    elsewhere = tmp_path / "status.json"
    elsewhere.write_bytes(status.read_bytes())
    assert tp(repo, "agent", "set", "t", "a1", "--status", "WORKING", quick=False)[0] == 0
    status.unlink()
    status.symlink_to(elsewhere)
    got, full = tp(repo, "fire", "t", "validate"), tp(repo, "fire", "t", "validate", quick=False)
    assert got[3] == "full" and got[:3] == full[:3] and got[0] != 0
    assert json.loads(task_bytes(repo))["state"] == "IMPLEMENTATION"
    status.unlink()
    # task.json a link to a copy of itself
    path = tasks / "t" / "task.json"
    copy = tmp_path / "task.json"
    copy.write_bytes(path.read_bytes())
    path.unlink()
    path.symlink_to(copy)
    assert same_refusal(repo, "fire", "t", "validation_failed")
    path.unlink()
    path.write_bytes(copy.read_bytes())
    # the task's folder a link to a copy of it
    moved = tmp_path / "t-copy"
    (tasks / "t").rename(moved)
    (tasks / "t").symlink_to(moved)
    got = tp(repo, "fire", "t", "validate")
    assert got[0] != 0 and got[3] == "full", got
    assert json.loads((moved / "task.json").read_bytes())["state"] == "IMPLEMENTATION"


def same_refusal(repo: Path, *args: str, top: Path | None = None, **env: str) -> str:
    """Refused both ways with the same words, by the engine, run in `repo` (a folder of the
    repository `top`); the error line."""
    before = task_bytes(top or repo, args[1])
    got = tp(repo, *args, **env)
    assert got == tp(repo, *args, quick=False, **env)
    assert got[0] != 0 and got[3] == "full", got
    assert task_bytes(top or repo, args[1]) == before
    return got[2]


def test_every_refusal_is_the_engines(tmp_path: Path) -> None:
    repo = build(tmp_path / "repo", "a1")
    assert "plan_approved" in same_refusal(repo, "transition", "t", "IMPLEMENTATION")
    assert "not a state" in same_refusal(repo, "transition", "t", "NOWHERE")
    assert "not a transition" in same_refusal(repo, "transition", "t", "COMPLETE")
    assert "no trigger named" in same_refusal(repo, "fire", "t", "fly")
    assert "owner" in same_refusal(repo, "fire", "t", "implement", TASKPROTO_SESSION="other")
    assert "no task named" in same_refusal(repo, "fire", "nope", "implement")
    # a hand edit of task.json the journal does not vouch for
    path = repo / ".taskproto" / "tasks" / "t" / "task.json"
    good = path.read_bytes()
    path.write_bytes(good.replace(b'"SYNTHESIS"', b'"IMPLEMENTATION"'))
    assert "cannot be trusted" in same_refusal(repo, "fire", "t", "validate")
    path.write_bytes(good)
    # the user's interruption holds the work: an agent waits until the user resumes
    assert tp(repo, "approve", "t", "--plan", quick=False)[0] == 0
    assert tp(repo, "interrupt", "record", "t", "Why this design?", quick=False)[0] == 0
    assert "interrupted" in same_refusal(repo, "fire", "t", "implement", **AGENT_ENV)


def test_what_is_not_plain_goes_to_the_engine(tmp_path: Path) -> None:
    repo = build(tmp_path / "repo")
    assert tp(repo, "approve", "t", "--plan", quick=False)[0] == 0
    # options the quick path does not know
    assert tp(repo, "transition", "t", "IMPLEMENTATION", "--force")[3] == "full"
    assert tp(repo, "fire", "t", "validation_failed", "--session", OWNER)[3] == "full"
    for args, path in [
        (("fire", "t", "validate"), "quick"),
        (("fire", "t", "review"), "quick"),
        (("fire", "t", "request_approval"), "quick"),
    ]:
        code, _, err, how = tp(repo, *args)
        assert (code, how) == (0, path), (args, err)
    # a workflow of the repository's own: its table comes from the cache; a guard the quick
    # path does not run (plan-task's), and a table not cached yet, go to the engine (which
    # caches it)
    flow = repo / ".taskproto" / "workflows" / "mine.toml"
    flow.parent.mkdir(parents=True, exist_ok=True)
    flow.write_text(MINE)
    assert tp(repo, "task", "create", "m", "--workflow", "mine", quick=False)[0] == 0
    assert tp(repo, "claim", "m", quick=False)[0] == 0
    cache = repo / ".taskproto" / "cache" / "hook-flags.json"
    cache.unlink(missing_ok=True)
    assert tp(repo, "fire", "m", "start")[:4:3] == (0, "full")
    assert "mine" in json.loads(cache.read_text())
    assert tp(repo, "fire", "m", "hand_over")[:4:3] == (0, "full")  # plan-task's guard
    assert tp(repo, "fire", "m", "finish")[:4:3] == (0, "quick")
    # an argument that is not valid UTF-8: the engine's to refuse
    proc = subprocess.run(
        [sys.executable, "-m", "taskproto", "fire", "t", "review", "--note", b"bad \xff"],
        cwd=repo,
        env={**os.environ, "TASKPROTO_SESSION": OWNER},
        capture_output=True,
        check=False,
    )
    assert proc.returncode in (0, 1)
    assert store.dump(store.load_task(repo / ".taskproto/tasks/t/task.json")) == task_bytes(repo)


def test_a_forged_cache_does_not_change_a_built_in_workflow(tmp_path: Path) -> None:
    """A built-in's table ships with the package: a `<root>/cache/hook-flags.json` that says
    otherwise (written by a git command, say, that overwrote the ignored file) is not read."""
    repo = build(tmp_path / "repo")
    layout = load_config(repo).layout
    from taskproto.hooks.flags import builtin_table, fingerprint

    table = builtin_table("task-protocol")
    assert table is not None
    for t in table["SYNTHESIS"]["triggers"]:
        t["guards"] = []  # no plan approval needed
    table["SYNTHESIS"]["allows_edits"] = True
    cache = repo / ".taskproto" / "cache" / "hook-flags.json"
    cache.parent.mkdir(exist_ok=True)
    forged = {"fingerprint": fingerprint(layout, "task-protocol"), "states": table}
    cache.write_text(json.dumps({"task-protocol": forged}))
    refused = same_refusal(repo, "transition", "t", "IMPLEMENTATION")
    assert "plan approval" in refused
    assert json.loads(task_bytes(repo))["state"] == "SYNTHESIS"


def test_a_dependency_and_a_prompt_template_go_to_the_engine(tmp_path: Path) -> None:
    repo = build(tmp_path / "repo")
    assert tp(repo, "task", "create", "later", "--after", "t", quick=False)[0] == 0
    refused = same_refusal(repo, "transition", "later", "CLASSIFIED")
    assert "waits for" in refused or "t (in SYNTHESIS)" in refused
    # the repository's own template for a state: rendered by the engine before the save
    folder = repo / ".taskproto" / "templates" / "task-protocol"
    folder.mkdir(parents=True)
    (folder / "IMPLEMENTATION.md.j2").write_text("Work on {{ task.name }}\n")
    assert tp(repo, "approve", "t", "--plan", quick=False)[0] == 0
    assert tp(repo, "fire", "t", "implement")[:4:3] == (0, "full")
    (folder / "VALIDATION.md.j2").write_text("{{ broken")
    assert "failed to render" in same_refusal(repo, "fire", "t", "validate")


def test_a_user_trigger_is_refused_to_an_agent_at_this_door_too(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    assert tp(repo, "init", "--git", quick=False)[0] == 0
    engine = Engine(load_config(repo))
    engine.create_task("p", workflow="plan-task")
    engine.claim("p", OWNER)
    artifact = {"context_summary": "small", "affected_files": ["a.py"]}
    engine.fire("p", "submit", session=OWNER, params={"artifact": artifact})
    # approve (REVIEW_CONTEXT -> STRATEGIZE) is the user's: an agent's session is refused
    assert "user" in same_refusal(repo, "fire", "p", "approve", **AGENT_ENV)
    assert "user" in same_refusal(repo, "transition", "p", "STRATEGIZE", **AGENT_ENV)


def _task(workflow: str, state: str, now: datetime, agents: list[str], **context: Any) -> Task:
    return Task(
        name="t",
        workflow=workflow,
        state=state,
        created_at=now,
        updated_at=now,
        required_agents=agents,
        context=context,
    )


def _protocol(now: datetime, plan: bool, statuses: dict[str, str], approved: str | None) -> Task:
    task = _task("task-protocol", "IMPLEMENTATION", now, sorted({"a1", *statuses}))
    if plan:
        task.checkpoint.plan_approval = _approval(None, now)
    if approved:
        task.checkpoint.commit_approval = _approval(approved, now)
    return task


def _team(now: datetime, state: str, round_: int, **context: Any) -> Task:
    task = _task("phone-a-team", state, now, [], max_rounds=3, **context)
    task.counters.round = round_
    return task


def _loop(now: datetime, state: str, iteration: int, **context: Any) -> Task:
    task = _task("tight-loop", state, now, [], **context)
    task.counters.iteration = iteration
    return task


WAITING = [
    {"id": "D1", "title": "Fix the lexer", "iteration": 1, "planned_as": None},
    {"id": "D2", "title": "Dropped one", "iteration": 1, "dropped": True},
    {"id": "D3", "title": "Speed up", "iteration": 2, "selected_in": None},
]
SUBTASKS = [
    {"id": "T1", "title": "a", "status": "done", "iteration": 1},
    {"id": "T2", "title": "b", "status": "failed", "iteration": 1, "note": "flaky"},
    {"id": "T3", "title": "c", "status": "pending", "iteration": 2},
]
PASS = {"acceptance": "pass", "risks": "pass", "validation": "documented"}
FAIL = {"acceptance": "pass", "risks": "fail", "validation": "pass"}
LOST = {"skipped": ["gemini"], "failed": {"codex": "timeout"}, "calls": 2}


@pytest.mark.parametrize(
    ("make", "statuses", "head", "params"),
    [
        (lambda now: _protocol(now, False, {}, None), {}, None, {}),
        (
            lambda now: _protocol(now, True, {"a1": "COMPLETE"}, "abc"),
            {"a1": "COMPLETE"},
            "abc",
            {},
        ),
        (lambda now: _protocol(now, True, {"a2": "WORKING"}, "abc"), {"a2": "WORKING"}, "def", {}),
        (lambda now: _protocol(now, False, {}, None), {"a1": "COMPLETE"}, "abc", {}),
        (lambda now: _protocol(now, True, {"a1": "missing"}, "abc"), {}, None, {}),
        (lambda now: _team(now, "DO", 1, backends=["codex"]), {}, None, {"output": "out"}),
        (lambda now: _team(now, "DECIDE", 3, backends=["codex"], rubric=PASS), {}, None, {}),
        (lambda now: _team(now, "DECIDE", 1, rubric=FAIL, rubric_note="why"), {}, None, {}),
        (lambda now: _team(now, "DECIDE", 3, rubric=FAIL), {}, None, {"note": "last"}),
        (
            lambda now: _team(now, "REVIEW", 2, backends=["codex", "gemini"], round_state=LOST),
            {},
            None,
            {"rubric": PASS, "note": "documented"},
        ),
        (
            lambda now: _team(now, "DO", 3, backends=["codex", "gemini"], round_state=LOST),
            {},
            None,
            {"rubric": {"acceptance": "maybe"}},
        ),
        (lambda now: _loop(now, "PLAN", 1, turn={"phase": "PLAN"}), {}, None, {"decision": "YES"}),
        (
            lambda now: _loop(now, "REVIEW", 2, discovered=WAITING, subtasks=SUBTASKS),
            {},
            None,
            {"decision": "yes", "results": {"done": ["T1"]}, "from": "REVIEW"},
        ),
        (
            lambda now: _loop(now, "REVIEW", 3, discovered=WAITING, handoffs=[{"to": "REVIEW"}]),
            {},
            None,
            {"decision": "NO", "results": "text", "from": "EXECUTE"},
        ),
        (lambda now: _loop(now, "EXECUTE", 1, subtasks=SUBTASKS), {}, None, {}),
    ],
)
def test_guards_and_effects_read_and_change_task_json_as_they_do_the_models(
    make: Any, statuses: dict[str, str], head: str | None, params: dict[str, Any]
) -> None:
    """The quick path runs the workflows' own guards and effects on task.json's JSON
    (machine/steps.py `Record`): each says and writes exactly what it does on the models."""
    now = datetime.now(UTC)
    task = make(now)
    ctx = FireContext(time=now, agent_statuses=statuses, branch_head=head, params=params)
    light = [m for m in LIGHT if importlib.import_module(m)]
    # the JSON the view hands out as it is: the models' free-form dict fields
    assert Record.FREE == {
        k for k, f in Task.model_fields.items() if f.annotation == dict[str, Any]
    }
    assert {f.__module__ for f in GUARDS.values()} >= set(light)
    for name, guard in GUARDS.items():
        if guard.__module__ in light:
            data = json.loads(store.dump(task))
            assert guard(Record(data), ctx) == guard(task, ctx), name
    for name, effect in EFFECTS.items():
        if effect.__module__ not in light:
            continue
        model = task.model_copy(deep=True)
        data = json.loads(store.dump(task))
        try:
            effect(model, ctx)
        except Exception as exc:  # noqa: BLE001 - then the JSON's must fail alike
            with pytest.raises(type(exc)):
                effect(Record(data), ctx)
            continue
        effect(Record(data), ctx)
        assert quicksave.dumps(data) == store.dump(model), name
        if model.workflow in prompts.SCOPES:  # what the prompt sees (quick path: rendered too)
            assert prompts.scope(Record(data)) == prompts.scope(model), name


def _approval(sha: str | None, at: datetime) -> Any:
    from taskproto.state.models import Approval

    return Approval(sha=sha, at=at)


def test_quick_and_engine_transitions_share_the_lock(tmp_path: Path) -> None:
    """Four processes, two on each path, fire the two triggers of a cycle as fast as they can:
    every move that succeeded is one revision and one journal commit, and the log is a chain."""
    repo = build(tmp_path / "repo")
    assert tp(repo, "approve", "t", "--plan", quick=False)[0] == 0
    assert tp(repo, "transition", "t", "IMPLEMENTATION", quick=False)[0] == 0
    start = json.loads(task_bytes(repo))["revision"]
    script = (
        "import os, sys\n"
        "from taskproto.cli import main\n"
        "ok = 0\n"
        "for i in range(12):\n"
        "    ok += main(['fire', 't', ('validate', 'validation_failed')[i % 2]]) == 0\n"
        "print(ok)\n"
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script],
            cwd=repo,
            env={
                **os.environ,
                "TASKPROTO_SESSION": OWNER,
                **({"TASKPROTO_QUICK": "0"} if n % 2 else {}),
            },
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        for n in range(4)
    ]
    moved = sum(int(p.communicate(timeout=300)[0].split()[-1]) for p in procs)
    data = json.loads(task_bytes(repo))
    assert moved > 0
    assert data["revision"] == start + moved
    log = data["transition_log"]
    moves = log[-moved:]
    assert all(a["to"] == b["from"] for a, b in zip(moves, moves[1:], strict=False))
    assert len(journal(repo)) == data["revision"]
    assert tp(repo, "doctor", quick=False)[0] == 0


def test_the_commit_approval_guard_reads_the_task_branch(tmp_path: Path) -> None:
    """commit_approved on the quick path: the approval of the exact head, and a head moved since."""
    repo = build(tmp_path / "repo")
    assert tp(repo, "approve", "t", "--plan", quick=False)[0] == 0
    for trigger in ("implement", "validate"):
        assert tp(repo, "fire", "t", trigger)[0] == 0
    worktree = Path(load_config(repo).layout.task_worktree("t"))
    commit_file(worktree, "a.txt")
    assert tp(repo, "fire", "t", "review")[:4:3] == (0, "quick")
    assert tp(repo, "fire", "t", "request_approval")[:4:3] == (0, "quick")  # present_head
    assert tp(repo, "approve", "t", "--commit", quick=False)[0] == 0
    # the task branch moved after the approval (the user's own commit, hooks off)
    git(worktree, "-c", "core.hooksPath=/dev/null", "commit", "-q", "--allow-empty", "-m", "b")
    assert "stale" in same_refusal(repo, "fire", "t", "complete")
    git(worktree, "-c", "core.hooksPath=/dev/null", "reset", "-q", "--hard", "HEAD~1")
    assert tp(repo, "fire", "t", "complete")[:4:3] == (0, "quick")

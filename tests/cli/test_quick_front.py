"""The quick front (cli/quick.py): the commands that change a task on every turn are read without
click and made by the engine, the one write path. What they print, write and refuse is what the
click command prints, writes and refuses; they import neither click, pydantic, GitPython nor
jinja2; links in taskproto's folder are never followed; a user's trigger is refused to an agent."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from taskproto.config import load_config
from taskproto.engine import Engine
from tests.cli.test_quick_read_path import run
from tests.conftest import git, make_repo

OWNER = "front-owner"
AGENT_ENV = {"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": OWNER}
# a note with what JSON escapes, and what it does not
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


def shas(text: str) -> str:
    """`text` with commit ids and times left out (two runs differ only there)."""
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?", "<time>", text)
    return re.sub(r"\b[0-9a-f]{12,40}\b", "<sha>", text)


def same_both_ways(repos: tuple[Path, Path], *args: str, **env: str) -> tuple[int, str, str]:
    """`args` run on two equal repositories, through the front (the first) and through click (the
    second): the same exit code, output and files (times and commit ids aside)."""
    results = []
    for quick, repo in zip((True, False), repos, strict=True):
        code, out, err, path = tp(repo, *args, quick=quick, **env)
        assert path == ("quick" if quick else "full"), (args, path, err)
        state = json.loads(task_bytes(repo) or b"{}").get("state")
        results.append((code, shas(out), shas(err), state))
    assert results[0] == results[1], results
    return results[0][:3]


def test_each_command_prints_writes_and_refuses_as_the_click_command(tmp_path: Path) -> None:
    """One pair of equal repositories for every case, in turn: a refusal writes nothing (checked
    below), a change is made on both, so each case starts from equal repositories."""
    repos = (build(tmp_path / "a", "a1"), build(tmp_path / "b", "a1"))
    cases = [
        ("transition", "t", "IMPLEMENTATION"),  # refused: no plan approval
        ("transition", "t", "NOWHERE"),
        ("fire", "t", "fly"),
        ("fire", "nope", "implement"),
        ("transition", "t", "REQUIREMENTS", "--note", NOTE),  # not a step from SYNTHESIS
        ("agent", "set", "t", "a1", "--status", "in_progress", "--message", "m"),
        ("agent", "set", "t", "a1", "--status", "ERROR", "--message", NOTE, "--json"),
        ("agent", "set", "t", "zz", "--status", "COMPLETE"),
    ]
    for args in cases:
        before = [snapshot(r) for r in repos]
        code = same_both_ways(repos, *args)[0]
        if code != 0:
            assert [snapshot(r) for r in repos] == before, args  # a refusal wrote nothing
    before = [snapshot(r) for r in repos]
    assert same_both_ways(repos, "fire", "t", "implement", TASKPROTO_SESSION="someone-else")[0]
    assert [snapshot(r) for r in repos] == before


def snapshot(repo: Path) -> tuple[bytes, str]:
    """What a refusal must leave as it was: the task's files and every ref."""
    files = b"".join(
        p.read_bytes() for p in sorted((repo / ".taskproto" / "tasks").rglob("*")) if p.is_file()
    )
    return files, git(repo, "for-each-ref", "--format=%(refname) %(objectname)")


CREATES = [
    ("task", "create", "n1", "--agents", "x, y", "-d", NOTE, "--after", "t", "--priority", "1"),
    ("task", "create", "n2", "--json", "--workflow=tight-loop", "--base", "HEAD"),
    ("task", "create", "t"),  # refused: it exists
    ("task", "create", "bad name"),
    ("task", "create", "n3", "--after", "nope"),
    ("task", "create", "n4", "--workflow", "nope"),
    ("task", "create", "n5", "--base", "no-such-rev"),
    ("task", "create", "n6", "--agents", "a,a"),  # an agent twice
    ("task", "create", "n7", "--priority", "7"),  # click's range error
]


def test_task_create_makes_and_refuses_as_the_click_command(tmp_path: Path) -> None:
    """`task create` through the front and through click, on two equal repositories, case after
    case: the same exit code, output (the repository's path aside) and task.json (times and ids
    aside); a refusal writes nothing."""
    repos = (build(tmp_path / "a"), build(tmp_path / "b"))
    for args in CREATES:
        results = []
        befores = [snapshot(r) for r in repos]
        for quick, repo, before in zip((True, False), repos, befores, strict=True):
            code, out, err, path = tp(repo, *args, quick=quick)
            assert path == ("quick" if quick and args[-1] != "7" else "full"), (args, path, err)
            name = args[2]
            made = task_bytes(repo, name) if name != "t" else b""
            text = [shas(x.replace(str(repo), "<repo>")) for x in (out, err)]
            results.append((code, *text, shas(made.decode())))
            if code != 0:
                assert snapshot(repo) == before, (args, quick)  # a refusal wrote nothing
        assert results[0] == results[1], (args, results)


def test_a_change_prints_what_click_prints_and_journals_once(tmp_path: Path) -> None:
    repos = [build(tmp_path / "a"), build(tmp_path / "b")]
    for repo in repos:
        assert tp(repo, "approve", "t", "--plan", quick=False)[0] == 0
    quick = tp(repos[0], "fire", "t", "implement", "--note", NOTE, "--json")
    full = tp(repos[1], "fire", "t", "implement", "--note", NOTE, "--json", quick=False)
    assert (quick[3], full[3]) == ("quick", "full")
    assert quick[:3] == full[:3]
    assert json.loads(quick[1]) == {
        "task": "t",
        "from": "SYNTHESIS",
        "to": "IMPLEMENTATION",
        "revision": json.loads(full[1])["revision"],
    }
    for repo in repos:
        data = json.loads(task_bytes(repo))
        assert data["state"] == "IMPLEMENTATION" and data["transition_log"][-1]["note"] == NOTE
    log = git(repos[0], "log", "--format=%s", "refs/taskproto/tasks/t").splitlines()
    assert log[0] == "implement: SYNTHESIS -> IMPLEMENTATION"


# Runs the real CLI entry and prints, last, which heavy modules it loaded
HEAVY = (
    "import sys\n"
    "from taskproto.cli import main\n"
    "code = main(sys.argv[1:])\n"
    "heavy = {'pydantic', 'click', 'git', 'jinja2', 'filelock', 'pathlib', 'typing',\n"
    "         'dataclasses', 're', 'json', 'enum', 'tomllib', 'subprocess', 'contextlib'}\n"
    "print(sorted(heavy & set(sys.modules)))\n"
    "raise SystemExit(code)\n"
)


def heavy(repo: Path, *args: str, **env: str) -> tuple[list[str], int]:
    """`taskproto args` run by OWNER in `repo`: its stdout's lines, the last naming the heavy
    modules it imported, and its exit code. Run as a regular install runs it: without `site`
    (`-S`), which here would import what the editable install's finder imports, and with the
    package and site-packages on PYTHONPATH instead."""
    import site

    import taskproto

    where = [str(Path(taskproto.__file__).parent.parent), *site.getsitepackages()]
    proc = subprocess.run(
        [sys.executable, "-S", "-c", HEAVY, *args],
        cwd=repo,
        env={
            **os.environ,
            "TASKPROTO_SESSION": OWNER,
            "PYTHONPATH": os.pathsep.join(where),
            **env,
        },
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.stdout.splitlines(), proc.returncode


def test_a_change_through_the_engine_imports_nothing_heavy(tmp_path: Path) -> None:
    """The one write path is lean: a transition, an agent's status and a refusal import none of
    click, pydantic, GitPython, jinja2, pathlib, typing, dataclasses, re or json."""
    repo = build(tmp_path / "repo", "a1")
    out, code = heavy(repo, "fire", "t", "implement")
    assert code == 1 and out == ["[]"], out
    assert tp(repo, "approve", "t", "--plan", quick=False)[0] == 0
    assert heavy(repo, "fire", "t", "implement") == (["t: SYNTHESIS -> IMPLEMENTATION", "[]"], 0)
    out, code = heavy(repo, "agent", "set", "t", "a1", "--status", "COMPLETE")
    assert (out, code) == (["t/a1: COMPLETE", "[]"], 0)
    assert heavy(repo, "transition", "t", "VALIDATION") == (
        ["t: IMPLEMENTATION -> VALIDATION", "[]"],
        0,
    )
    # a new task with its worktree: no click, GitPython, pydantic or dataclasses either
    out, code = heavy(repo, "task", "create", "fresh")
    assert code == 0 and out[0].startswith("created task fresh")
    assert not {"click", "git", "pydantic", "jinja2", "dataclasses"} & set(
        ast.literal_eval(out[-1])
    ), out


def test_from_another_folder_it_moves_and_refuses_as_from_the_top(tmp_path: Path) -> None:
    repo = build(tmp_path / "repo")
    worktree = Path(load_config(repo).layout.task_worktree("t"))
    sub = repo / "sub" / "dir"
    sub.mkdir(parents=True)
    for cwd in (worktree, sub):
        code, _, err, path = tp(cwd, "fire", "t", "implement")
        assert (code, path) == (1, "quick") and "plan_approved" in err
    # the user approves from a session of their own: an approval under the owner's session by a
    # process with no terminal is what doctor flags (approval-no-terminal)
    assert tp(repo, "approve", "t", "--plan", quick=False, TASKPROTO_SESSION="user")[0] == 0
    assert tp(worktree, "fire", "t", "implement")[:4:3] == (0, "quick")
    assert tp(sub, "fire", "t", "validate")[:4:3] == (0, "quick")
    assert json.loads(task_bytes(repo))["state"] == "VALIDATION"
    r = tp(repo, "doctor", quick=False)
    assert r[0] == 0, r


def test_links_in_taskprotos_folder_are_never_followed(tmp_path: Path) -> None:
    """A task folder, a task.json or an agent's status file replaced by a link: refused, never a
    move through the link, and nothing it points at in the journal."""
    repo = build(tmp_path / "repo", "a1")
    assert tp(repo, "approve", "t", "--plan", quick=False)[0] == 0
    assert tp(repo, "fire", "t", "implement")[0] == 0
    tasks = repo / ".taskproto" / "tasks"
    status = tasks / "t" / "agents" / "a1" / "status.json"
    assert tp(repo, "agent", "set", "t", "a1", "--status", "COMPLETE")[0] == 0
    elsewhere = tmp_path / "status.json"
    elsewhere.write_bytes(status.read_bytes())
    assert tp(repo, "agent", "set", "t", "a1", "--status", "WORKING")[0] == 0
    status.unlink()
    status.symlink_to(elsewhere)  # a COMPLETE status, through a link
    got, full = tp(repo, "fire", "t", "validate"), tp(repo, "fire", "t", "validate", quick=False)
    assert got[0] != 0 and got[:3] == full[:3]
    assert json.loads(task_bytes(repo))["state"] == "IMPLEMENTATION"
    status.unlink()
    path = tasks / "t" / "task.json"
    copy = tmp_path / "task.json"
    copy.write_bytes(path.read_bytes())
    path.unlink()
    path.symlink_to(copy)
    got = tp(repo, "fire", "t", "validation_failed")
    assert got[0] != 0 and "symbolic link" in got[2]
    path.unlink()
    path.write_bytes(copy.read_bytes())
    moved = tmp_path / "t-copy"
    (tasks / "t").rename(moved)
    (tasks / "t").symlink_to(moved)
    got = tp(repo, "fire", "t", "validate")
    assert got[0] != 0, got
    assert json.loads((moved / "task.json").read_bytes())["state"] == "IMPLEMENTATION"


def test_a_user_trigger_is_refused_to_an_agent_at_this_door_too(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    assert tp(repo, "init", "--git", quick=False)[0] == 0
    engine = Engine(load_config(repo))
    engine.create_task("p", workflow="plan-task")
    engine.claim("p", OWNER)
    artifact = {"context_summary": "small", "affected_files": ["a.py"]}
    engine.fire("p", "submit", session=OWNER, params={"artifact": artifact})
    before = task_bytes(repo, "p")
    for args in (("fire", "p", "approve"), ("transition", "p", "STRATEGIZE")):
        code, _, err, path = tp(repo, *args, **AGENT_ENV)
        assert (code, path) == (1, "quick") and "the user's to do" in err
    assert task_bytes(repo, "p") == before

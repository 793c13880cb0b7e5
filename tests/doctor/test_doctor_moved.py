"""Whole-repository events on real repositories: the repository moved, taskproto's root moved,
worktrees an earlier doctor moved aside. Each test checks the repair and that nothing was lost."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from doctor_helpers import commit_file, ids, make_repo

from taskproto.config import load_config
from taskproto.doctor import run
from taskproto.engine import Engine


def git(cwd: Path, *args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return proc.stdout.strip()


def registered(repo: Path) -> dict[str, str]:
    """Worktree path -> branch, from git's own listing."""
    out = git(repo, "worktree", "list", "--porcelain")
    rows: dict[str, str] = {}
    path = ""
    for line in out.splitlines():
        if line.startswith("worktree "):
            path = line[len("worktree ") :]
        elif line.startswith("branch refs/heads/"):
            rows[path] = line[len("branch refs/heads/") :]
        elif line == "prunable" or line.startswith("prunable "):
            rows[path] = rows.get(path, "") + " (prunable)"
    return rows


def _work(root_worktree: Path) -> tuple[str, Path]:
    """A commit and an uncommitted change in a worktree."""
    sha = commit_file(root_worktree, "done.txt", "committed\n")
    (root_worktree / "wip.txt").write_text("uncommitted\n")
    return sha, root_worktree / "wip.txt"


def _no_set_aside(folder: Path) -> None:
    leftovers = [p for p in folder.rglob("*.unregistered-*")]
    assert not leftovers, leftovers


@pytest.fixture
def moved(tmp_path: Path) -> tuple[Path, str]:
    """Task t (agents a, b) with work in agent a, then the whole repository folder renamed."""
    old = make_repo(tmp_path / "old")
    engine = Engine(load_config(old))
    engine.create_task("t", ["a", "b"])
    sha, _ = _work(engine.config.agent_worktree("t", "a"))
    engine.repo.close()
    new = tmp_path / "new"
    os.rename(old, new)
    return new, sha


def test_moved_repository_is_relinked_in_place(moved: tuple[Path, str]) -> None:
    new, sha = moved
    config = load_config(new)
    report = run(config)
    assert {f.check for f in report.findings} == {"worktree-moved"}
    assert len(report.findings) == 3
    assert "worktree-unregistered" not in ids(report)

    report = run(load_config(new), fix=True)
    assert report.healthy, [f.message for f in report.findings]
    rows = registered(new)
    tasks = config.tasks_dir
    assert rows[str(tasks / "t" / "code")] == "t"
    assert rows[str(tasks / "t" / "agents" / "a" / "code")] == "t-a"
    assert rows[str(tasks / "t" / "agents" / "b" / "code")] == "t-b"
    assert not any("old" in p for p in rows), rows
    wt = config.agent_worktree("t", "a")
    assert (wt / "wip.txt").read_text() == "uncommitted\n"
    assert git(wt, "rev-parse", "HEAD") == sha
    assert git(wt, "status", "--porcelain") == "?? wip.txt"
    _no_set_aside(new)
    assert run(load_config(new)).healthy  # and it stays repaired


def test_moved_repository_cli_rerun_is_idempotent(moved: tuple[Path, str]) -> None:
    new, _ = moved
    first = subprocess.run(
        [sys.executable, "-m", "taskproto", "doctor", "--fix"],
        cwd=new,
        capture_output=True,
        text=True,
    )
    assert first.returncode == 0, first.stderr
    assert "worktree-moved" in first.stdout
    again = subprocess.run(
        [sys.executable, "-m", "taskproto", "doctor", "--fix"],
        cwd=new,
        capture_output=True,
        text=True,
    )
    assert again.returncode == 0 and "0 fixed" in again.stdout


def test_moved_task_root_is_relinked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = make_repo(tmp_path / "repo")
    monkeypatch.setenv("TASKPROTO_ROOT", str(tmp_path / "root-a"))
    engine = Engine(load_config(repo))
    engine.create_task("t", ["a"])
    sha, _ = _work(engine.config.task_worktree("t"))
    engine.repo.close()
    os.rename(tmp_path / "root-a", tmp_path / "root-b")
    monkeypatch.setenv("TASKPROTO_ROOT", str(tmp_path / "root-b"))
    config = load_config(repo)
    assert ids(run(config)) == {"worktree-moved"}
    report = run(config, fix=True)
    assert report.healthy, [f.message for f in report.findings]
    wt = config.task_worktree("t")
    assert registered(repo)[str(wt)] == "t"
    assert git(wt, "rev-parse", "HEAD") == sha
    assert (wt / "wip.txt").read_text() == "uncommitted\n"
    _no_set_aside(tmp_path / "root-b")


def test_folders_set_aside_by_an_earlier_doctor_are_moved_back(moved: tuple[Path, str]) -> None:
    new, sha = moved
    config = load_config(new)
    # What the earlier doctor did after a move: code -> code.unregistered-<time>, re-add failed.
    for wt in (config.task_worktree("t"), config.agent_worktree("t", "a")):
        os.rename(wt, wt.with_name("code.unregistered-20260101T000000.000000Z"))
    report = run(config)
    assert ids(report) == {"worktree-set-aside", "worktree-moved"}
    report = run(load_config(new), fix=True)
    assert report.healthy, [f.message for f in report.findings]
    wt = config.agent_worktree("t", "a")
    assert (wt / "wip.txt").read_text() == "uncommitted\n"
    assert git(wt, "rev-parse", "HEAD") == sha
    assert registered(new)[str(wt)] == "t-a"
    _no_set_aside(new)


def test_set_aside_folder_beside_a_live_worktree_is_left_alone(moved: tuple[Path, str]) -> None:
    new, _ = moved
    config = load_config(new)
    wt = config.agent_worktree("t", "a")
    kept = wt.with_name("code.unregistered-20260101T000000.000000Z")
    os.rename(wt, kept)
    git(new, "worktree", "add", "--quiet", "--force", str(wt), "t-a")  # someone re-added it
    report = run(config, fix=True)
    assert "worktree-set-aside" not in ids(report)
    assert not [x for x in report.fixes if x.finding.check == "worktree-set-aside"]
    assert (kept / "wip.txt").read_text() == "uncommitted\n"  # untouched


def test_a_foreign_worktree_at_the_place_is_not_taken_for_a_moved_one(
    tmp_path: Path, repo: Path, engine: Engine
) -> None:
    engine.create_task("t", ["a"])
    other = make_repo(tmp_path / "other")
    git(other, "branch", "t-a")
    wt = engine.config.agent_worktree("t", "a")
    git(repo, "worktree", "remove", "--force", str(wt))
    git(other, "worktree", "add", "--quiet", str(wt), "t-a")
    report = run(load_config(repo))
    assert "worktree-moved" not in ids(report)
    assert "worktree-unregistered" in ids(report)


def test_a_command_run_inside_a_moved_worktree_says_what_to_do(moved: tuple[Path, str]) -> None:
    new, _ = moved
    wt = load_config(new).agent_worktree("t", "a")
    r = subprocess.run(
        [sys.executable, "-m", "taskproto", "task", "list"], cwd=wt, capture_output=True, text=True
    )
    assert r.returncode == 1 and len(r.stderr.strip().splitlines()) == 1
    assert "repository is no longer at" in r.stderr and "taskproto doctor --fix" in r.stderr
    assert not (wt / ".taskproto").exists()  # nothing made inside the worktree
    assert run(load_config(new), fix=True).healthy
    r = subprocess.run(
        [sys.executable, "-m", "taskproto", "task", "list"], cwd=wt, capture_output=True, text=True
    )
    assert r.returncode == 0 and "t " in r.stdout


def taskproto(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "taskproto", *args], cwd=cwd, capture_output=True, text=True
    )


CLIENTS = ("--claude", "--codex", "--gemini")


@pytest.fixture
def moved_with_clients(tmp_path: Path) -> tuple[Path, Path]:
    """The README's set-up, `init --git --claude --codex --gemini` and two tasks, then the
    repository folder renamed (`mv old new`)."""
    old = make_repo(tmp_path / "old")
    for args in (
        ("init", "--git", *CLIENTS),
        ("task", "create", "t1", "--agents", "dev,qa"),
        ("task", "create", "t2", "--agents", "dev"),
    ):
        r = taskproto(*args, cwd=old)
        assert r.returncode == 0, r.stderr
    new = tmp_path / "new"
    os.rename(old, new)
    return old, new


def _names(folder: Path, old: Path) -> list[str]:
    """taskproto's records that still name the old place."""
    return [
        p.name
        for p in (folder / ".taskproto").glob("*.json")
        if str(old) + os.sep in p.read_text() or f'"{old}"' in p.read_text()
    ]


def _all_gone(new: Path) -> None:
    config = load_config(new)
    for top in [new] + [config.task_worktree(t) for t in ("t1", "t2")]:
        for folder in (".claude", ".codex", ".gemini"):
            assert not (top / folder).exists(), top / folder
    assert git(new, "status", "--porcelain") == ""


def test_doctor_reports_and_repairs_what_names_the_old_place(
    moved_with_clients: tuple[Path, Path],
) -> None:
    old, new = moved_with_clients
    assert sorted(_names(new, old)) == ["agent-hooks.json", "git-hooks.json"]
    r = taskproto("doctor", cwd=new)
    assert r.returncode == 1
    assert "hook-records-moved" in r.stdout and "worktree-moved" in r.stdout, r.stdout
    r = taskproto("doctor", "--fix", cwd=new)
    assert r.returncode == 0, r.stdout + r.stderr
    assert _names(new, old) == []
    assert taskproto("doctor", cwd=new).returncode == 0
    r = taskproto("init", *CLIENTS, "--uninstall", cwd=new)
    assert r.returncode == 0, r.stderr
    _all_gone(new)


def test_init_run_again_after_a_move_repairs_it_and_uninstall_works(
    moved_with_clients: tuple[Path, Path],
) -> None:
    old, new = moved_with_clients
    r = taskproto("init", "--git", *CLIENTS, cwd=new)
    assert r.returncode == 0, r.stderr
    assert "moved" in r.stdout + r.stderr
    assert _names(new, old) == []
    rows = registered(new)
    assert not any(str(old) in p or "prunable" in b for p, b in rows.items()), rows
    assert taskproto("doctor", cwd=new).returncode == 0
    # the copies in the worktrees are the ones init keeps up to date, at their new place
    # (a task's worktrees' files are in its own record, named relative to its folder)
    record = json.loads((new / ".taskproto" / "tasks" / "t1" / "agent-hooks.json").read_text())
    wt = load_config(new).agent_worktree("t1", "qa")
    assert (
        str(wt.relative_to(load_config(new).task_dir("t1")) / ".codex" / "hooks.json")
        in (record["files"])
    )
    r = taskproto("init", *CLIENTS, "--uninstall", cwd=new)
    assert r.returncode == 0, r.stderr
    _all_gone(new)


def test_uninstall_right_after_a_move_works(moved_with_clients: tuple[Path, Path]) -> None:
    _, new = moved_with_clients
    r = taskproto("init", *CLIENTS, "--uninstall", cwd=new)
    assert r.returncode == 0, r.stderr
    assert not any((new / f).exists() for f in (".claude", ".codex", ".gemini"))


def test_client_hooks_whose_interpreter_is_gone_are_reported_and_reinstalled(
    tmp_path: Path,
) -> None:
    """A virtualenv inside the repository moves with it (or is removed): the hook commands in the
    clients' settings start an interpreter that is gone; doctor says so and --fix installs them
    again with this taskproto's interpreter, in the main worktree and in every task worktree."""
    repo = make_repo(tmp_path / "repo")
    assert taskproto("init", *CLIENTS, cwd=repo).returncode == 0
    assert taskproto("task", "create", "t1", "--agents", "dev", cwd=repo).returncode == 0
    gone = str(tmp_path / "gone-venv" / "bin" / "python")
    config = load_config(repo)
    copies = [
        repo / ".claude" / "settings.local.json",
        repo / ".codex" / "hooks.json",
        repo / ".gemini" / "settings.json",
        config.agent_worktree("t1", "dev") / ".codex" / "hooks.json",
    ]
    for path in copies:
        path.write_text(path.read_text().replace(sys.executable, gone))
    r = taskproto("doctor", cwd=repo)
    assert r.returncode == 1 and "client-hooks-interpreter-missing" in r.stdout, r.stdout
    assert gone in r.stdout
    r = taskproto("doctor", "--fix", cwd=repo)
    assert r.returncode == 0, r.stdout + r.stderr
    for path in copies:
        assert gone not in path.read_text() and sys.executable in path.read_text(), path


def test_an_escalation_after_a_move_names_the_worktrees_where_they_are_now(
    moved: tuple[Path, str],
) -> None:
    """Git's registration names the old place until the move is repaired; the escalation's impact
    names where the work is now (docs/doctor.md, "A moved repository or task root")."""
    new, _ = moved
    status = new / ".taskproto" / "tasks" / "t" / "agents" / "a" / "status.json"
    data = json.loads(status.read_text())  # past its retries: escalated, with its work at risk
    status.write_text(json.dumps({**data, "status": "ERROR", "retry_count": 3}))
    out = taskproto("doctor", "t", cwd=new).stdout
    (impact,) = [line for line in out.splitlines() if line.startswith("**Impact**")]
    assert "old" not in impact.replace(str(new.parent), ""), impact
    assert "branch t-a at" in impact and "(worktree .taskproto/tasks/t/agents/a/code)" in impact

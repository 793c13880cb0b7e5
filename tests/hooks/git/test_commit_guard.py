"""Issue #39's commit row: a commit runs two of taskproto's hooks (reference-transaction prepared
and committed), not three. pre-commit is no longer installed: every check it made is made on the
branch's move, so `git commit --no-verify` and commands that run no pre-commit (cherry-pick, am)
cannot skip them; `init` and `doctor --fix` take an older install of ours out, and put back the
user's hook it had chained, byte for byte. Real git, the real CLI, real hooks."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from hookutil import BYPASS, advance, head, make_repo, sh, taskproto

from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.git.command import Git
from taskproto.hooks.git import install


def _stage(worktree: Path, *names: str) -> None:
    for name in names:
        (worktree / name).parent.mkdir(parents=True, exist_ok=True)
        (worktree / name).write_text(f"{name}\n")
    assert sh(worktree, "add", *names).returncode == 0


def _ours(proc_stderr: str) -> str:
    """Our one line (git adds its own "fatal: ..." after a refusal in reference-transaction)."""
    lines = proc_stderr.splitlines()
    assert lines and lines[-1] == "fatal: ref updates aborted by hook", proc_stderr
    assert len(lines) == 2, proc_stderr
    return lines[0]


def test_no_verify_does_not_skip_the_prohibited_files(hooked: Engine) -> None:
    """Before: pre-commit checked the staged files, and `--no-verify` skipped it."""
    advance(hooked, "t1", "IMPLEMENTATION")
    code = hooked.config.task_worktree("t1")
    before = head(code)
    _stage(code, "prod.env", "ok.txt")
    proc = sh(code, "commit", "--no-verify", "-m", "skip the hooks")
    assert proc.returncode == 128
    assert _ours(proc.stderr) == (
        "taskproto: refused: moving branch 't1' (task t1): its new commit(s) add or change "
        "prod.env, which match the prohibited pattern(s) *.env (setting prohibited_patterns); "
        "leave them out of the commit (`git restore --staged -- prod.env`, then commit again)"
    )
    assert head(code) == before
    assert "prod.env" in sh(code, "diff", "--cached", "--name-only").stdout  # still staged
    assert sh(code, "restore", "--staged", "--", "prod.env").returncode == 0
    assert sh(code, "commit", "-q", "--no-verify", "-m", "fine").returncode == 0
    assert head(code) != before


def test_no_verify_does_not_skip_the_own_worktree_rule(hooked: Engine, repo: Path) -> None:
    advance(hooked, "t1", "IMPLEMENTATION")
    assert sh(repo, "checkout", "-q", "--ignore-other-worktrees", "t1").returncode == 0
    before = head(repo)
    _stage(repo, "here.txt")
    proc = sh(repo, "commit", "--no-verify", "-m", "from the main worktree")
    expected = hooked.config.task_worktree("t1")
    assert _ours(proc.stderr) == (
        "taskproto: refused: moving branch 't1' (task t1): it is committed from its own worktree "
        f"{expected}, not from {repo}; commit from there: `cd {expected}`"
    )
    assert head(repo) == before


def test_a_cherry_pick_of_a_prohibited_file_is_refused(hooked: Engine, repo: Path) -> None:
    """cherry-pick runs no pre-commit: before, a prohibited file reached the task branch so."""
    advance(hooked, "t1", "IMPLEMENTATION")
    assert sh(repo, "checkout", "-q", "-b", "feature").returncode == 0
    (repo / "sub").mkdir()
    _stage(repo, "sub/task.json")
    assert sh(repo, "commit", "-q", "-m", "a task.json on a branch of no task").returncode == 0
    picked = head(repo)
    code = hooked.config.agent_worktree("t1", "a")
    before = head(code)
    proc = sh(code, "cherry-pick", picked)
    assert proc.returncode != 0
    assert (
        "taskproto: refused: moving branch 't1-a' (agent a of task t1): its new commit(s) add or "
        "change sub/task.json, which match the prohibited pattern(s) task.json"
    ) in proc.stderr, proc.stderr
    assert head(code) == before
    sh(code, "cherry-pick", "--abort")
    sh(code, "reset", "-q", "--hard")


def test_a_new_branch_is_checked_on_its_own_commit_not_its_base(hooked: Engine, repo: Path) -> None:
    """A branch made anew (a push of an agent's branch, one restored by hand) is checked on what
    its tip commit adds: a prohibited file the base already holds is not its work."""
    advance(hooked, "t1", "IMPLEMENTATION")
    _stage(repo, "base.env")
    assert sh(repo, "commit", "-q", "-m", "main holds an .env").returncode == 0
    _stage(repo, "later.txt")
    assert sh(repo, "commit", "-q", "-m", "and more").returncode == 0
    base = head(repo)
    agent = hooked.config.agent_worktree("t1", "b")
    assert sh(agent, "checkout", "-q", "--detach", env=BYPASS).returncode == 0
    assert sh(repo, "branch", "-D", "t1-b", env={"TASKPROTO_INTERNAL": "1"}).returncode == 0
    assert sh(repo, "branch", "t1-b", base).returncode == 0  # the base's .env: not its own
    _stage(repo, "new.env")
    assert sh(repo, "commit", "-q", "-m", "adds one").returncode == 0
    assert sh(repo, "branch", "-D", "t1-b", env={"TASKPROTO_INTERNAL": "1"}).returncode == 0
    proc = sh(repo, "branch", "t1-b", head(repo))
    assert proc.returncode != 0 and "add or change new.env" in proc.stderr, proc.stderr


def test_a_commit_runs_two_of_our_hooks(hooked: Engine, repo: Path, tmp_path: Path) -> None:
    """pre-commit is not installed; a commit on a task branch starts Python for reference-
    transaction's two phases only, and one on a branch of no task starts none."""
    log = tmp_path / "started"
    wrapper = tmp_path / "python"
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> {log}\nexec {sys.executable} "$@"\n')
    wrapper.chmod(0o755)
    report = install.install(Git(repo), python=str(wrapper))
    assert "pre-commit" not in report.hooks
    assert not (repo / ".git" / "hooks" / "pre-commit").exists()
    advance(hooked, "t1", "IMPLEMENTATION")
    _stage(repo, "free.txt")
    assert sh(repo, "commit", "-q", "-m", "main").returncode == 0
    assert not log.exists()
    code = hooked.config.task_worktree("t1")
    _stage(code, "work.txt")
    assert sh(code, "commit", "-q", "-m", "work").returncode == 0
    started = [line.split()[-2:] for line in log.read_text().splitlines()]
    assert started == [
        ["reference-transaction", "prepared"],
        ["reference-transaction", "committed"],
    ]


def _old_install(repo: Path, theirs: bytes | None) -> Path:
    """An install from before this change: pre-commit of ours, theirs chained beside it."""
    hooks = repo / ".git" / "hooks"
    if theirs is not None:
        (hooks / "pre-commit.taskproto-chained").write_bytes(theirs)
        os.chmod(hooks / "pre-commit.taskproto-chained", 0o750)
    (hooks / "pre-commit").write_bytes(install.render("pre-commit"))
    os.chmod(hooks / "pre-commit", 0o755)
    record = repo / ".taskproto" / "git-hooks.json"
    data = json.loads(record.read_text())
    data["hooks"] = ["pre-commit", *data["hooks"]]
    record.write_text(json.dumps(data))
    return hooks


def test_init_takes_our_pre_commit_out_and_puts_theirs_back(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    assert taskproto("init", "--git", cwd=repo).returncode == 0
    theirs = b"#!/bin/sh\necho theirs ran >&2\n"
    hooks = _old_install(repo, theirs)
    stat_before = os.stat(hooks / "pre-commit.taskproto-chained")
    done = taskproto("init", "--git", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "took out taskproto's pre-commit, no longer needed" in done.stdout
    assert "restored the hooks they had chained: pre-commit" in done.stdout
    assert (hooks / "pre-commit").read_bytes() == theirs
    after = os.stat(hooks / "pre-commit")
    assert (after.st_mode, after.st_mtime_ns) == (stat_before.st_mode, stat_before.st_mtime_ns)
    assert not (hooks / "pre-commit.taskproto-chained").exists()
    assert (
        "pre-commit"
        not in json.loads((repo / ".taskproto" / "git-hooks.json").read_text())["hooks"]
    )
    proc = sh(repo, "commit", "-q", "--allow-empty", "-m", "theirs still runs")
    assert proc.returncode == 0 and "theirs ran" in proc.stderr
    again = taskproto("init", "--git", "--json", cwd=repo)
    report = json.loads(again.stdout)["git_hooks"]
    assert report["removed"] == [] and (hooks / "pre-commit").read_bytes() == theirs


def test_doctor_reports_our_old_pre_commit_and_its_fix_takes_it_out(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    assert taskproto("init", "--git", cwd=repo).returncode == 0
    engine = Engine(load_config(repo))
    engine.create_task("t1")
    hooks = _old_install(repo, None)
    found = json.loads(taskproto("doctor", "--json", cwd=repo).stdout)["findings"]
    assert [(f["check"], f["message"]) for f in found] == [
        (
            "git-hooks-outdated",
            f"taskproto's pre-commit hook in {hooks} is no longer needed (reference-transaction "
            "checks every commit): each commit starts it for nothing",
        )
    ]
    fixed = json.loads(taskproto("doctor", "--fix", "--json", cwd=repo).stdout)
    assert fixed["healthy"] is True, fixed
    assert not (hooks / "pre-commit").exists()
    assert json.loads(taskproto("doctor", "--json", cwd=repo).stdout)["findings"] == []


def test_doctor_does_not_ask_for_pre_commit(tmp_path: Path) -> None:
    """A record of an older install lists pre-commit: with ours gone, doctor finds nothing."""
    repo = make_repo(tmp_path / "repo")
    assert taskproto("init", "--git", cwd=repo).returncode == 0
    Engine(load_config(repo)).create_task("t1")
    _old_install(repo, None)
    (repo / ".git" / "hooks" / "pre-commit").unlink()
    found = json.loads(taskproto("doctor", "--json", cwd=repo).stdout)["findings"]
    assert found == []

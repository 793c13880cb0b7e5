"""Worktree states a user leaves behind by hand: a locked worktree (`git worktree lock`, a folder on
a removable drive) whose folder is gone (git never lists a locked worktree as prunable, so doctor
must still see it missing, and --fix must not re-add it behind the lock); a rebase left half done
(git detaches HEAD meanwhile: that is the rebase, not a wrong branch)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from doctor_helpers import Env, commit_file, ids, make_repo

from taskproto.config import load_config
from taskproto.doctor import run
from taskproto.engine import Engine


def test_locked_worktree_whose_folder_is_gone_is_reported_and_not_readded(
    env: Env, cli: Any
) -> None:
    code_dir = env.worktree()
    env.git("worktree", "lock", "--reason", "on a usb drive", str(code_dir))
    shutil.rmtree(code_dir)

    r = cli("doctor")
    assert r.code == 1
    assert "task-worktree-missing" in r.out
    assert "locked" in r.out and "git worktree unlock" in r.out
    # the fix would refuse: no --fix is offered for it, and the decision says how to go on
    assert "no safe fix while its registration is locked" in r.out
    assert "doctor --fix`)" not in r.out and "--fix" not in r.err and "no safe fix" in r.err
    assert f"`git worktree unlock {code_dir}` and run `taskproto doctor --fix`" in r.out
    found = json.loads(cli("doctor", "--json").out)["findings"]
    assert [f["fix_refused"] for f in found] == ["its registration is locked (`git worktree lock`)"]

    r = cli("doctor", "--fix")
    assert r.code == 1 and "0 fixed, 0 failed" in r.out  # not tried
    assert not code_dir.exists()  # nothing re-made behind the lock
    assert "locked" in env.git("worktree", "list", "--porcelain")

    env.git("worktree", "unlock", str(code_dir))
    r = cli("doctor", "--fix")
    assert r.code == 0, r.out + r.err
    assert code_dir.is_dir()
    assert env.git("rev-parse", "--abbrev-ref", "HEAD", cwd=code_dir).strip() == "t"


def test_a_half_done_rebase_is_reported_as_the_rebase_not_as_a_wrong_branch(env: Env) -> None:
    agent_wt = env.worktree("a")
    base = env.git("rev-parse", "HEAD").strip()
    commit_file(agent_wt, "f.txt", "ours\n")
    env.git("switch", "--quiet", "-c", "side", base, cwd=agent_wt)
    commit_file(agent_wt, "f.txt", "theirs\n")
    env.git("switch", "--quiet", "t-a", cwd=agent_wt)
    assert env.git_status("rebase", "side", cwd=agent_wt) != 0  # stops at the conflict

    report = env.doctor()
    assert "git-operation-in-progress" in ids(report)
    assert "worktree-wrong-branch" not in ids(report)  # its fix would say `git switch t-a`


def _rebase_left_half_done(worktree: Path, base: str, branch: str) -> None:
    commit_file(worktree, "f.txt", "ours\n")
    for args in (["switch", "-q", "-c", "side-" + branch, base], ["add", "-A"]):
        subprocess.run(["git", *args], cwd=worktree, check=True, capture_output=True)
    commit_file(worktree, "f.txt", "theirs\n")
    subprocess.run(["git", "switch", "-q", branch], cwd=worktree, check=True, capture_output=True)
    rebase = subprocess.run(["git", "rebase", "side-" + branch], cwd=worktree, capture_output=True)
    assert rebase.returncode != 0  # stopped at the conflict


def test_a_moved_repository_relinks_a_detached_or_rebasing_worktree_and_readds_a_gone_one(
    tmp_path: Path,
) -> None:
    old = make_repo(tmp_path / "old")
    engine = Engine(load_config(old))
    engine.create_task("t", ["a", "b"])
    base = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=old, check=True, capture_output=True, text=True
    ).stdout.strip()
    a, b = engine.config.agent_worktree("t", "a"), engine.config.agent_worktree("t", "b")
    subprocess.run(["git", "switch", "-q", "--detach"], cwd=a, check=True)
    _rebase_left_half_done(b, base, "t-b")
    shutil.rmtree(engine.config.task_worktree("t"))
    engine.repo.close()
    new = tmp_path / "new"
    os.rename(old, new)

    run(load_config(new), fix=True)
    report = run(load_config(new))
    tasks = new / ".taskproto" / "tasks" / "t"
    assert not list(tasks.rglob("*.unregistered-*"))  # nothing taken for a foreign folder
    assert (tasks / "code").is_dir()  # the gone one re-added
    assert ids(report) == {"git-operation-in-progress"}  # the rebase: the user's to finish
    head = subprocess.run(
        ["git", "symbolic-ref", "--short", "HEAD"],
        cwd=tasks / "agents" / "a" / "code",
        capture_output=True,
        text=True,
    ).stdout.strip()
    assert head == "t-a"  # relinked, then switched back from the detached HEAD
    listing = subprocess.run(
        ["git", "worktree", "list"], cwd=new, check=True, capture_output=True, text=True
    ).stdout
    assert str(old) not in listing and "prunable" not in listing
    assert (tasks / "agents" / "b" / "code" / "f.txt").read_text().startswith("<<<<<<<")


def test_a_worktree_moved_away_with_git_worktree_move_is_named_with_the_move_back(
    env: Env, cli: Any, tmp_path: Path
) -> None:
    code_dir = env.worktree()
    elsewhere = tmp_path / "elsewhere"
    env.git("worktree", "move", str(code_dir), str(elsewhere))

    r = cli("doctor", "--fix")
    assert r.code == 1
    assert f"git worktree move {elsewhere} {code_dir}" in r.out
    assert elsewhere.is_dir() and not code_dir.exists()  # nothing made behind it


def test_a_locked_worktree_gone_before_the_repository_moved_is_named_with_the_unlock(
    tmp_path: Path,
) -> None:
    old = make_repo(tmp_path / "old")
    engine = Engine(load_config(old))
    engine.create_task("t", [])
    code_dir = engine.config.task_worktree("t")
    subprocess.run(["git", "worktree", "lock", str(code_dir)], cwd=old, check=True)
    shutil.rmtree(code_dir)
    engine.repo.close()
    new = tmp_path / "new"
    os.rename(old, new)

    report = run(load_config(new), fix=True)
    assert "task-worktree-missing" in ids(report)
    assert any(f"git worktree unlock {code_dir}" in (fix.error or "") for fix in report.fixes)


def test_an_orphan_worktree_is_kept_when_locked_or_holding_a_commit_no_branch_holds(
    env: Env,
) -> None:
    locked = env.config.root / "stray" / "code"
    loose = env.config.root / "other" / "code"
    env.git("worktree", "add", "--quiet", "--detach", str(locked))
    env.git("worktree", "lock", str(locked))
    env.git("worktree", "add", "--quiet", "--detach", str(loose))
    sha = commit_file(loose, "only-here.txt", "made on a detached HEAD\n")

    report = env.doctor(fix=True)
    errors = " ".join(fix.error or "" for fix in report.fixes)
    assert f"git worktree unlock {locked}" in errors
    assert f"git -C {loose} branch NAME {sha[:12]}" in errors
    assert locked.is_dir() and loose.is_dir()
    assert env.git("cat-file", "-t", sha) == "commit"

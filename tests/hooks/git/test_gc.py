"""A user's `git gc` beside many tasks, with taskproto's git hooks installed.

`git gc` runs `git pack-refs --all --prune`, which deletes every loose ref in a transaction of its
own: two reference-transaction hook runs per ref, a process each, however fast the hook exits.
taskproto keeps the refs packed (git/reffiles.py `keep_packed`, after a journal write once more
than PACK_BOUND are loose), so gc's hook runs stay bounded whatever the number of tasks. Hook
runs are counted from git's own trace (GIT_TRACE2_EVENT), which no hook can avoid. And nothing
that merely looks like pack-refs gets a branch or a journal past the guard.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from hookutil import SESSION, sh

from taskproto.engine import Engine
from taskproto.git.command import Git
from taskproto.git.reffiles import PACK_BOUND
from taskproto.hooks.git import install
from tests.conftest import run_taskproto

ZERO = "0" * 40


@pytest.fixture
def hooked(engine: Engine) -> Engine:
    """taskproto's git hooks installed; task t1, in INIT (no commits allowed)."""
    install.install(Git(engine.config.repo))
    engine.create_task("t1")
    return engine


def loose_refs(repo: Path) -> int:
    return sum(len(files) for _, _, files in os.walk(repo / ".git" / "refs"))


def all_refs(repo: Path) -> dict[str, str]:
    out = sh(repo, "for-each-ref", "--format=%(refname) %(objectname)").stdout
    return dict(line.split(" ") for line in out.splitlines())


def traced_git(repo: Path, trace: Path, *args: str) -> int:
    """Run git with its trace2 events in `trace`; the hook runs it (and its children) started."""
    trace.unlink(missing_ok=True)
    proc = sh(repo, *args, env={"GIT_TRACE2_EVENT": str(trace)})
    assert proc.returncode == 0, proc.stderr
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    return sum(e.get("event") == "child_start" and e.get("child_class") == "hook" for e in events)


def many_loose_branches(repo: Path, count: int) -> None:
    """`count` loose branches, written without hooks (as a bulk import, another tool, or a
    taskproto from before this change leaves a repository)."""
    main = sh(repo, "rev-parse", "main").stdout.strip()
    lines = "".join(f"create refs/heads/feature-{n:04d} {main}\n" for n in range(count))
    proc = sh(repo, "-c", "core.hooksPath=/dev/null", "update-ref", "--stdin", input=lines)
    assert proc.returncode == 0, proc.stderr


def test_a_journal_write_packs_the_refs_and_gc_runs_few_hooks(
    hooked: Engine, tmp_path: Path
) -> None:
    repo = hooked.config.repo
    many_loose_branches(repo, 3 * PACK_BOUND)
    trace = tmp_path / "trace.json"
    # what gc costs without the pack: two hook runs per loose ref
    copy = tmp_path / "copy"
    subprocess.run(["cp", "-a", str(repo), str(copy)], check=True)
    assert traced_git(copy, trace, "pack-refs", "--all", "--prune") >= 2 * 3 * PACK_BOUND

    hooked.claim("t1", SESSION)  # a journal write, past the bound: the refs are packed
    assert loose_refs(repo) <= 2
    refs = all_refs(repo)
    listed = run_taskproto("task", "list", "--json", cwd=repo)
    assert listed.code == 0, listed.err

    assert traced_git(repo, trace, "gc", "--quiet") <= 4
    assert all_refs(repo) == refs  # packing moved where the refs are, never what they hold
    after = run_taskproto("task", "list", "--json", cwd=repo)
    assert after.code == 0 and after.out == listed.out
    doctor = run_taskproto("doctor", "--json", cwd=repo)
    assert doctor.code == 0, doctor.out + doctor.err
    # the guard still refuses what it refused: t1 is in INIT
    new = sh(repo, "commit-tree", "-m", "x", "-p", "main", "main^{tree}").stdout.strip()
    moved = sh(repo, "update-ref", "refs/heads/t1", new)
    assert moved.returncode != 0 and "does not allow commits" in moved.stderr
    assert all_refs(repo)["refs/heads/t1"] == refs["refs/heads/t1"]


def test_fewer_loose_refs_than_the_bound_are_left_loose(hooked: Engine) -> None:
    repo = hooked.config.repo
    hooked.claim("t1", SESSION)
    assert not (repo / ".git" / "packed-refs").exists()
    assert (repo / ".git" / "refs" / "taskproto" / "tasks" / "t1").is_file()


@pytest.mark.slow
def test_gc_beside_hundreds_of_tasks_made_by_taskproto(engine: Engine, tmp_path: Path) -> None:
    """Hundreds of tasks, each made by `task create` (a branch, a worktree, a journal): the loose
    refs never pass the bound by much, and gc's hook runs stay within it."""
    repo = engine.config.repo
    install.install(Git(repo))
    most = 0
    for n in range(300):
        engine.create_task(f"t{n:03d}")
        most = max(most, loose_refs(repo))
    assert most <= PACK_BOUND + 3
    refs = all_refs(repo)
    listed = run_taskproto("task", "list", "--json", cwd=repo)
    assert traced_git(repo, tmp_path / "trace.json", "gc", "--quiet") <= 2 * (PACK_BOUND + 3)
    assert all_refs(repo) == refs
    assert run_taskproto("task", "list", "--json", cwd=repo).out == listed.out
    doctor = run_taskproto("doctor", "--json", cwd=repo)
    assert doctor.code == 0, doctor.out + doctor.err


def looks_like_pack_refs(
    repo: Path, tmp_path: Path, command: str
) -> list[subprocess.CompletedProcess[str]]:
    """`command` (a git command line) run by processes that look like `git pack-refs`: a git whose
    first word is spelled `gitpack-refs`, and a shell named `git` whose first argument is
    `pack-refs` (a script of that name) running it as its child."""
    script = tmp_path / "pack-refs"
    script.write_text(f"cd {repo} && {command}\n")
    return [
        subprocess.run(
            ["bash", "-c", f"exec -a gitpack-refs {command}"],
            cwd=repo,
            capture_output=True,
            text=True,
            check=False,
        ),
        subprocess.run(
            ["bash", "-c", "exec -a git bash pack-refs"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=False,
        ),
    ]


def test_a_process_that_looks_like_pack_refs_moves_nothing_unguarded(
    hooked: Engine, tmp_path: Path
) -> None:
    repo = hooked.config.repo
    refs = all_refs(repo)
    new = sh(repo, "commit-tree", "-m", "x", "-p", "main", "main^{tree}").stdout.strip()
    for command in (
        f"git update-ref refs/heads/t1 {new}",
        "git update-ref -d refs/heads/t1",
        f"git update-ref refs/taskproto/tasks/t1 {new}",
        "git update-ref -d refs/taskproto/tasks/t1",
    ):
        for proc in looks_like_pack_refs(repo, tmp_path, command):
            assert proc.returncode != 0, (command, proc.stderr)
            assert "refused" in proc.stderr or "journal" in proc.stderr, proc.stderr
            assert all_refs(repo) == refs, command


def test_a_real_deletion_of_a_ref_packed_with_the_same_value_is_refused(hooked: Engine) -> None:
    """The case a prune looks most like: packed-refs and a loose copy hold the same value (as
    right before gc prunes it). The deletion is refused, in sh and in Python alike: a real
    deletion holds packed-refs.lock while the hook decides, and git hands it no old value."""
    repo = hooked.config.repo
    assert sh(repo, "pack-refs", "--all").returncode == 0  # packs, keeps the loose copies
    refs = all_refs(repo)
    journal = "refs/taskproto/tasks/t1"
    for ref in (journal, "refs/heads/t1"):
        loose = repo / ".git" / ref
        loose.parent.mkdir(parents=True, exist_ok=True)
        loose.write_text(refs[ref] + "\n")
        assert f"{refs[ref]} {ref}" in (repo / ".git" / "packed-refs").read_text()
        for env in ({}, {"TASKPROTO_HOOK_FASTPATH": "0"}):
            # the old value given too (git 2.39 still hands the hook the zero id for it, where a
            # prune's line carries the value; the packed-refs.lock rule holds if git ever does)
            deleted = sh(repo, "update-ref", "-d", ref, refs[ref], env=env)
            assert deleted.returncode != 0, (ref, env)
            assert "refused" in deleted.stderr, deleted.stderr
            assert all_refs(repo) == refs

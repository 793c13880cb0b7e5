"""Doctor's own reads, on real repositories and folders: the three git processes of a snapshot
(doctor/reads.py) answer as git and GitPython do, the git-operation markers are found with one
listing, folder listings spare RealPaths its lstat without changing an answer, and the paths
doctor builds under a task's folder are the ones config gives."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from doctor_helpers import Env, commit_file, ids, make_repo

from taskproto.doctor import reads
from taskproto.doctor.checks_events import operation_in
from taskproto.doctor.checks_git import expected
from taskproto.doctor.snapshot import RealPaths, take
from taskproto.errors import GitError
from taskproto.git.repo import Repo


def _cat(repo: Path, spec: str) -> bytes | None:
    kind = subprocess.run(["git", "cat-file", "-t", spec], cwd=repo, capture_output=True)
    if kind.returncode != 0 or kind.stdout.strip() != b"blob":
        return None
    return subprocess.run(
        ["git", "cat-file", "blob", spec], cwd=repo, capture_output=True, check=True
    ).stdout


def test_blobs_answer_each_spec_as_git_cat_file_does(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    (repo / "dir").mkdir()
    (repo / "dir" / "x").write_bytes(b"inside\n")
    (repo / "bin").write_bytes(b"\x00\xff\nno newline at the end")
    (repo / "empty").write_bytes(b"")
    (repo / "lines").write_bytes(b"one\n\ntwo 12\nabc blob 3\n")
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    subprocess.run(["git", "commit", "-qm", "files"], cwd=repo, check=True)
    specs = [
        "HEAD:README.md",
        "HEAD:missing",
        "HEAD:dir",  # a tree: not a blob
        "HEAD:empty",
        "no-such-rev:README.md",
        "HEAD:bin",
        "HEAD:lines",
        "HEAD",  # a commit
        "HEAD:dir/x",
        "HEAD:README.md",  # asked twice
    ]
    got = reads.blobs(reads.start_blobs(repo, specs), specs, repo)
    assert got == [_cat(repo, s) for s in specs]
    assert got[0] is not None and got[5] == b"\x00\xff\nno newline at the end"
    assert got[1] is None and got[2] is None and got[3] == b"" and got[7] is None
    # answers larger than the pipe's buffer, and questions too (sent when the answers are read)
    readme = (repo / "README.md").read_bytes()
    oid = subprocess.run(
        ["git", "rev-parse", "HEAD:README.md"], cwd=repo, capture_output=True, text=True
    ).stdout.strip()
    for n in (12_000, 30_000):  # 0.5 MB and 1.2 MB of specs (a pipe holds 1 MB); 1 to 3 MB back
        many = [oid] * n
        assert reads.blobs(reads.start_blobs(repo, many), many, repo) == [readme] * n
    # nothing asked: no git process at all
    assert reads.start_blobs(tmp_path / "nowhere", []) is None
    assert reads.blobs(None, [], repo) == []


def test_blobs_go_past_objects_git_finds_corrupt(tmp_path: Path) -> None:
    """git's batch stops at a corrupt object (a crash's empty file): the rest are still answered,
    those of the same commit are None, with one more process per corrupt commit."""
    repo = make_repo(tmp_path / "r")
    commits = []
    for i in range(3):
        commit_file(repo, "f", f"version {i}\n")
        commits.append(
            subprocess.run(
                ["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True
            ).stdout.strip()
        )
    bad = repo / ".git" / "objects" / commits[1][:2] / commits[1][2:]
    os.chmod(bad, 0o644)
    bad.write_bytes(b"")
    specs = [f"{commits[0]}:f", f"{commits[1]}:f", f"{commits[1]}:README.md", f"{commits[2]}:f"]
    assert reads.blobs(reads.start_blobs(repo, specs), specs, repo) == [
        b"version 0\n",
        None,
        None,
        b"version 2\n",
    ]
    assert reads.blobs(reads.start_blobs(repo, specs[1:3]), specs[1:3], repo) == [None, None]


def test_worktrees_and_refs_read_as_gitpython_reads_them(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    git = ["git", "-C", str(repo)]
    subprocess.run([*git, "worktree", "add", "-q", "-b", "b1", str(tmp_path / "w1")], check=True)
    subprocess.run([*git, "worktree", "add", "-q", "--detach", str(tmp_path / "w2")], check=True)
    subprocess.run([*git, "worktree", "add", "-q", "-b", "b3", str(tmp_path / "w3")], check=True)
    subprocess.run([*git, "worktree", "lock", str(tmp_path / "w2")], check=True)
    subprocess.run(["rm", "-rf", str(tmp_path / "w3")], check=True)  # prunable now
    subprocess.run([*git, "update-ref", "refs/taskproto/tasks/t", "HEAD"], check=True)
    ours = reads.worktrees(repo, reads.refs(reads.start_refs(repo, "refs/heads")))
    theirs = Repo(repo).worktrees()  # `git worktree list --porcelain`
    assert ours == theirs
    assert [w.prunable is not None for w in ours] == [False, False, False, True]
    assert ours[2].locked and ours[2].branch is None
    patterns = ("refs/heads", "refs/taskproto/tasks/")
    assert reads.refs(reads.start_refs(repo, *patterns)) == Repo(repo).refs(*patterns)


def test_a_git_command_that_fails_is_a_git_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo(tmp_path / "r")
    with pytest.raises(GitError):
        reads.Started(repo, "rev-parse", "--verify", "no-such-ref").output()
    outside = tmp_path / "plain"  # not a repository (and git must not look above tmp_path)
    outside.mkdir()
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    with pytest.raises(GitError):
        reads.blobs(reads.start_blobs(outside, ["HEAD"]), ["HEAD"], outside)
    with pytest.raises(GitError):
        reads.worktrees(outside, {})


def test_operation_markers_are_found_as_exists_finds_them(tmp_path: Path) -> None:
    admin = tmp_path / "admin"
    admin.mkdir()
    (admin / "HEAD").write_text("ref: refs/heads/x\n")
    assert operation_in(admin) is None
    (admin / "MERGE_HEAD").symlink_to(tmp_path / "nowhere")  # dangling: exists() says no
    assert operation_in(admin) is None
    (admin / "MERGE_HEAD").unlink()
    (admin / "MERGE_HEAD").write_text("sha\n")
    assert operation_in(admin) == "merge"
    (admin / "rebase-apply").mkdir()
    assert operation_in(admin) == "rebase"  # before MERGE_HEAD, as git's own order
    (admin / "rebase-apply" / "applying").write_text("")
    assert operation_in(admin) == "am"
    (admin / "rebase-merge").mkdir()
    assert operation_in(str(admin)) == "rebase"
    assert operation_in(tmp_path / "missing") is None
    (tmp_path / "file").write_text("")
    assert operation_in(tmp_path / "file") is None


def test_listings_spare_lstat_but_not_a_link(tmp_path: Path) -> None:
    base = tmp_path / "t"
    (base / "a" / "b").mkdir(parents=True)
    (base / "elsewhere" / "b").mkdir(parents=True)
    (base / "link").symlink_to(base / "elsewhere")
    (base / "dangling").symlink_to(base / "nowhere")
    (base / "file").write_text("")
    resolve = RealPaths()
    for folder in (base, base / "a"):
        with os.scandir(folder) as it:
            resolve.listed(str(folder), list(it))
    assert str(base / "a") in resolve.plain and str(base / "a" / "b") in resolve.plain
    assert not {str(base / n) for n in ("link", "dangling", "file")} & resolve.plain
    tails = ["a", "a/b", "link", "link/b", "dangling", "file", "missing", "a/../link/b"]
    for t in tails:
        path = str(base / t) if ".." not in t else f"{base}/{t}"
        assert resolve(path) == os.path.realpath(path), t
        assert resolve.exists(path) == os.path.lexists(path), t


def test_paths_built_under_the_task_folder_are_configs(env: Env) -> None:
    snap = take(env.config)
    view = snap.tasks["t"]
    assert expected(snap, view) == [
        (None, env.config.task_worktree("t"), "t"),
        ("a", env.config.agent_worktree("t", "a"), "t-a"),
        ("b", env.config.agent_worktree("t", "b"), "t-b"),
    ]
    # a status file and task.json doctor cannot read name the path config gives
    status = env.config.status_file("t", "a")
    status.unlink()
    status.symlink_to(env.config.status_file("t", "b"))
    report = env.doctor()
    corrupt = [f for f in report.findings if f.check == "agent-status-corrupt"]
    assert len(corrupt) == 1 and str(status) in corrupt[0].message
    task_file = env.config.task_file("t")
    task_file.rename(task_file.with_name("elsewhere.json"))
    task_file.symlink_to(task_file.with_name("elsewhere.json"))
    report = env.doctor()
    assert "lock-unreadable" in ids(report)
    unreadable = [f for f in report.findings if f.check == "lock-unreadable"]
    assert str(task_file) in unreadable[0].message


def test_a_conflicted_merge_in_one_of_many_worktrees_is_found(env: Env) -> None:
    wt = env.worktree("b")
    commit_file(wt, "same.txt", "agent side\n")
    commit_file(env.worktree(), "same.txt", "task side\n")
    assert subprocess.run(["git", "merge", "t"], cwd=wt, capture_output=True).returncode != 0
    found = [f for f in env.doctor().findings if f.check == "git-operation-in-progress"]
    assert [(f.agent, f.data["operation"]) for f in found] == [("b", "merge")]

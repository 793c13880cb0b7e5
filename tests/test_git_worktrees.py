"""git/worktrees.py reads the worktrees from git's files as `git worktree list --porcelain` lists
them: each state is built with real git, and git itself is the answer compared with.

Where git 2.39 and the reader cannot agree (not tested): git's prunable reasons are translated under
a user's locale, the reader's are git's English ones; two registrations of the same path are
ordered by git's qsort, which is not stable.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from taskproto.git.files import find_repo
from taskproto.git.worktrees import WorktreeInfo, read_worktrees
from tests.conftest import git, make_repo

Check = Callable[[list[WorktreeInfo]], object]


def parse_worktrees(out: str) -> list[WorktreeInfo]:
    """`git worktree list --porcelain`, parsed: the oracle the reader is compared with (the
    package itself no longer runs git's listing)."""
    result: list[WorktreeInfo] = []
    for block in out.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            key, _, value = line.partition(" ")
            fields[key] = value
        if "worktree" not in fields:
            continue
        branch = fields.get("branch")
        if branch and branch.startswith("refs/heads/"):
            branch = branch[len("refs/heads/") :]
        result.append(
            WorktreeInfo(
                path=Path(fields["worktree"]),
                head=fields.get("HEAD"),
                branch=branch,
                prunable=fields.get("prunable"),
                locked="locked" in fields,
                bare="bare" in fields,
            )
        )
    return result


def porcelain(cwd: Path) -> list[WorktreeInfo]:
    """git's own answer (English, whatever the machine's locale)."""
    out = subprocess.run(
        ["git", "worktree", "list", "--porcelain"],
        cwd=cwd,
        env={**os.environ, "LC_ALL": "C"},
        capture_output=True,
        check=True,
    ).stdout
    return parse_worktrees(out.decode("utf-8", "surrogateescape"))


def branches(cwd: Path) -> dict[str, str]:
    out = git(cwd, "for-each-ref", "--format=%(objectname) %(refname)", "refs/heads")
    return {ref: sha for sha, _, ref in (line.partition(" ") for line in out.splitlines())}


def add(repo: Path, path: Path, *args: str) -> Path:
    git(repo, "worktree", "add", "-q", *args, str(path))
    return path


def admin(repo: Path, name: str) -> Path:
    return (repo / git(repo, "rev-parse", "--git-common-dir")).resolve() / "worktrees" / name


# Each scenario builds its state in tmp_path and returns the folder git runs in, and what git's
# answer must show (so a scenario that did not build what it says fails).


def plain(tmp: Path) -> tuple[Path, Check]:
    repo = make_repo(tmp / "repo")
    add(repo, tmp / "w2", "-b", "b2")
    add(repo, tmp / "w1", "-b", "b1")
    add(repo, tmp / "w0", "--detach")
    return repo, lambda wts: [w.branch for w in wts] == ["main", None, "b1", "b2"]


def packed_and_loose(tmp: Path) -> tuple[Path, Check]:
    repo = make_repo(tmp / "repo")
    add(repo, tmp / "packed", "-b", "packed")
    loose = add(repo, tmp / "loose", "-b", "loose")
    git(repo, "pack-refs", "--all")
    (loose / "f").write_text("x\n")
    git(loose, "add", "f")
    git(loose, "commit", "-q", "-m", "loose again")  # refs/heads/loose now loose and newer
    assert (repo / ".git" / "refs" / "heads" / "loose").is_file()
    assert not (repo / ".git" / "refs" / "heads" / "packed").exists()
    tip = git(loose, "rev-parse", "HEAD")
    return repo, lambda wts: wts[1].head == tip and wts[1].branch == "loose"


def unborn(tmp: Path) -> tuple[Path, Check]:
    repo = make_repo(tmp / "repo")
    wt = add(repo, tmp / "w", "--detach")
    git(wt, "checkout", "-q", "--orphan", "fresh")
    return repo, lambda wts: wts[1].branch == "fresh" and wts[1].head == "0" * 40


def locked(tmp: Path) -> tuple[Path, Check]:
    repo = make_repo(tmp / "repo")
    for name in ("plain", "reason", "gone"):
        add(repo, tmp / name, "-b", name)
    git(repo, "worktree", "lock", str(tmp / "plain"))
    git(repo, "worktree", "lock", "--reason", "on a USB disk", str(tmp / "reason"))
    git(repo, "worktree", "lock", str(tmp / "gone"))
    shutil.rmtree(tmp / "gone")  # locked: never prunable
    return repo, lambda wts: [(w.locked, w.prunable) for w in wts[1:]] == [(True, None)] * 3


def folder_deleted(tmp: Path) -> tuple[Path, Check]:
    repo = make_repo(tmp / "repo")
    add(repo, tmp / "kept", "-b", "kept")
    add(repo, tmp / "gone", "-b", "gone")
    shutil.rmtree(tmp / "gone")
    return repo, lambda wts: wts[1].prunable == "gitdir file points to non-existent location"


def gitdir_files_broken(tmp: Path) -> tuple[Path, Check]:
    repo = make_repo(tmp / "repo")
    for name in ("removed", "emptied", "newline", "spaces", "crlf", "dotgit-gone"):
        add(repo, tmp / name, "-b", name)
    (admin(repo, "removed") / "gitdir").unlink()  # git lists it no more
    (admin(repo, "emptied") / "gitdir").write_bytes(b"")  # nor this one
    (admin(repo, "newline") / "gitdir").write_bytes(b"\n")  # listed with no path
    (admin(repo, "spaces") / "gitdir").write_bytes(b"  \n")
    crlf = admin(repo, "crlf") / "gitdir"
    crlf.write_bytes(crlf.read_bytes().rstrip(b"\n") + b"\r\n")
    (tmp / "dotgit-gone" / ".git").unlink()  # the folder is there, its .git file not

    def check(wts: list[WorktreeInfo]) -> bool:
        # "removed" and "emptied" are not listed; "newline" and "spaces" are, with no path
        return [(w.path.name, w.prunable) for w in wts[1:]] == [
            ("", "invalid gitdir file"),
            ("", "gitdir file points to non-existent location"),
            ("crlf", None),
            ("dotgit-gone", "gitdir file points to non-existent location"),
        ]

    return repo, check


def admin_entry_a_file(tmp: Path) -> tuple[Path, Check]:
    repo = make_repo(tmp / "repo")
    add(repo, tmp / "w", "-b", "w")
    (admin(repo, "w").parent / "stray").write_text("not a folder\n")
    (admin(repo, "w").parent / ".hidden").mkdir()  # a folder with nothing in it
    return repo, lambda wts: len(wts) == 2


def odd_paths(tmp: Path) -> tuple[Path, Check]:
    repo = make_repo(tmp / "repo")
    add(repo, tmp / "with space", "-b", "space")
    add(repo, tmp / "ünïcödé 名前", "-b", "unicode")
    add(repo, tmp / "Zed", "-b", "zed")  # uppercase sorts before lowercase, as strcmp does
    add(repo, tmp / "a", "-b", "a")
    return (
        repo,
        lambda wts: (
            [w.path.name for w in wts[1:]]
            == [
                "Zed",
                "a",
                "with space",
                "ünïcödé 名前",
            ]
        ),
    )


def ignorecase_order(tmp: Path) -> tuple[Path, Check]:
    # git init sets core.ignoreCase on a file system that ignores case (macOS's): git then sorts
    # the paths with strcasecmp
    repo = make_repo(tmp / "repo")
    git(repo, "config", "core.ignoreCase", "true")
    for name in ("b", "Zed", "a", "C"):
        add(repo, tmp / name, "-b", name.lower())
    return repo, lambda wts: [w.path.name for w in wts[1:]] == ["a", "b", "C", "Zed"]


def moved_by_hand(tmp: Path) -> tuple[Path, Check]:
    repo = make_repo(tmp / "repo")
    add(repo, tmp / "before", "-b", "moved")
    (tmp / "before").rename(tmp / "after")
    return repo, lambda wts: wts[1].path == tmp / "before" and wts[1].prunable is not None


def main_detached(tmp: Path) -> tuple[Path, Check]:
    repo = make_repo(tmp / "repo")
    add(repo, tmp / "w", "-b", "w")
    git(repo, "checkout", "-q", "--detach")
    return repo, lambda wts: wts[0].branch is None and wts[0].head != "0" * 40


def main_unborn(tmp: Path) -> tuple[Path, Check]:
    repo = make_repo(tmp / "repo")
    add(repo, tmp / "w", "-b", "w")
    git(repo, "checkout", "-q", "--orphan", "empty")
    return repo, lambda wts: wts[0].branch == "empty" and wts[0].head == "0" * 40


def relative_gitdir(tmp: Path) -> tuple[Path, Check]:
    # git 2.39 writes absolute paths only (`--relative-paths` came in 2.48): written by hand
    repo = make_repo(tmp / "repo")
    add(repo, tmp / "rel", "-b", "rel")
    add(repo, tmp / "relgone", "-b", "relgone")
    (admin(repo, "rel") / "gitdir").write_text("../rel/.git\n")
    (admin(repo, "relgone") / "gitdir").write_text("../nowhere/.git\n")
    return (
        repo,
        lambda wts: (
            [(str(w.path), w.prunable is None) for w in wts[1:]]
            == [
                ("../nowhere", False),
                ("../rel", True),
            ]
        ),
    )


def head_files_broken(tmp: Path) -> tuple[Path, Check]:
    repo = make_repo(tmp / "repo")
    sha = git(repo, "rev-parse", "HEAD")
    for name in (
        "nohead",
        "garbage",
        "shortsha",
        "junk-after",
        "upper",
        "symref-elsewhere",
        "trailing",
    ):
        add(repo, tmp / name, "-b", name)
    (admin(repo, "nohead") / "HEAD").unlink()
    (admin(repo, "garbage") / "HEAD").write_text("not a ref at all\n")
    # git keeps the hex pairs it read before the first bad one (not detached)
    (admin(repo, "shortsha") / "HEAD").write_text("abc123\n")
    (admin(repo, "junk-after") / "HEAD").write_text(sha + "x\n")
    (admin(repo, "upper") / "HEAD").write_text(sha.upper() + "\n")
    (admin(repo, "symref-elsewhere") / "HEAD").write_text("ref: refs/tags/none\n")
    (admin(repo, "trailing") / "HEAD").write_text(sha + " \n")
    return repo, lambda wts: len(wts) == 8


def symbolic_branches(tmp: Path) -> tuple[Path, Check]:
    # a branch that is itself a symbolic ref: git lists the branch the chain ends at
    repo = make_repo(tmp / "repo")
    git(repo, "symbolic-ref", "refs/heads/alias", "refs/heads/main")
    git(repo, "symbolic-ref", "refs/heads/alias2", "refs/heads/alias")
    git(repo, "symbolic-ref", "refs/heads/to-unborn", "refs/heads/nothing")
    for name in ("alias", "alias2", "to-unborn"):
        add(repo, tmp / name, "--detach")
        (admin(repo, name) / "HEAD").write_text(f"ref: refs/heads/{name}\n")
    git(repo, "pack-refs", "--all")
    for i in range(6):  # deeper than git follows
        git(repo, "symbolic-ref", f"refs/heads/deep{i}", f"refs/heads/deep{i + 1}")
    add(repo, tmp / "deep", "--detach")
    (admin(repo, "deep") / "HEAD").write_text("ref: refs/heads/deep0\n")
    return repo, lambda wts: [w.branch for w in wts] == ["main", "main", "main", None, "nothing"]


def from_a_linked_worktree(tmp: Path) -> tuple[Path, Check]:
    repo = make_repo(tmp / "repo")
    wt = add(repo, tmp / "w", "-b", "w")
    add(repo, tmp / "gone", "-b", "gone")
    shutil.rmtree(tmp / "gone")
    return wt, lambda wts: wts[0].path == repo and wts[1].prunable is not None


def bare_main(tmp: Path) -> tuple[Path, Check]:
    make_repo(tmp / "src")
    bare = tmp / "bare.git"
    git(tmp, "clone", "-q", "--bare", str(tmp / "src"), str(bare))
    add(bare, tmp / "w", "-b", "w")
    return bare, lambda wts: wts[0].bare and wts[0].head is None and wts[1].branch == "w"


def separate_git_dir(tmp: Path) -> tuple[Path, Check]:
    top = tmp / "top"
    top.mkdir()
    git(top, "init", "-q", "--initial-branch=main", f"--separate-git-dir={tmp / 'gd'}")
    (top / "f").write_text("x\n")
    git(top, "add", "f")
    git(top, "commit", "-q", "-m", "first")
    add(top, tmp / "w", "-b", "w")
    return top, lambda wts: wts[0].path == tmp / "gd"  # git names the git dir, not the top


def sha256(tmp: Path) -> tuple[Path, Check]:
    repo = tmp / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "--initial-branch=main", "--object-format=sha256")
    git(repo, "commit", "-q", "--allow-empty", "-m", "first")
    wt = add(repo, tmp / "w", "--detach")
    (admin(repo, "w") / "HEAD").write_text("ref: refs/heads/unborn\n")
    return repo, lambda wts: len(wts[0].head or "") == 64 and wt.is_dir()


SCENARIOS = [
    plain,
    packed_and_loose,
    unborn,
    locked,
    folder_deleted,
    gitdir_files_broken,
    admin_entry_a_file,
    odd_paths,
    ignorecase_order,
    moved_by_hand,
    main_detached,
    main_unborn,
    relative_gitdir,
    head_files_broken,
    symbolic_branches,
    from_a_linked_worktree,
    bare_main,
    separate_git_dir,
    sha256,
]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.__name__ for s in SCENARIOS])
def test_the_reader_lists_what_git_lists(
    tmp_path: Path, scenario: Callable[[Path], tuple[Path, Check]]
) -> None:
    cwd, check = scenario(tmp_path)
    theirs = porcelain(cwd)
    assert check(theirs), theirs  # the state is the one the scenario names
    dirs = find_repo(str(cwd))
    assert dirs is not None
    assert read_worktrees(dirs) == theirs  # refs read from their files
    assert read_worktrees(find_repo(str(cwd)), branches(cwd)) == theirs  # type: ignore[arg-type]

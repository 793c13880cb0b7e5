"""Journal commits written in-process (git/objects.py) are the commits git's plumbing writes."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

from taskproto.engine import Engine
from taskproto.git import objects
from taskproto.state.journal import ref_for


def git(cwd: Path, *args: str, input: bytes | None = None) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, input=input, capture_output=True, check=True)
    return proc.stdout.decode()


def test_a_transition_writes_a_commit_git_accepts(engine: Engine) -> None:
    repo = engine.config.repo
    engine.create_task("t1", agents=["a"])
    engine.claim("t1", "s")
    engine.fire("t1", target="CLASSIFIED", session="s")
    ref = ref_for("t1")
    head = git(repo, "rev-parse", ref).strip()
    git(repo, "fsck", "--strict", "--no-dangling")
    lines = git(repo, "cat-file", "-p", head).splitlines()
    assert lines[0].startswith("tree ") and lines[1].startswith("parent ")
    assert lines[2].startswith("author taskproto <taskproto@localhost> ")
    # the tree is the one mktree makes of the files on disk, and it holds them byte for byte
    task_file = engine.config.task_file("t1")
    status = engine.config.status_file("t1", "a")
    blobs = git(repo, "hash-object", "--no-filters", str(status), str(task_file)).split()
    listing = f"100644 blob {blobs[0]}\tstatus-a.json\n100644 blob {blobs[1]}\ttask.json\n"
    expected_tree = git(repo, "mktree", "--missing", input=listing.encode()).strip()
    assert lines[0] == f"tree {expected_tree}"
    assert git(repo, "show", f"{ref}:task.json").encode() == task_file.read_bytes()
    assert json.loads(git(repo, "show", f"{ref}:task.json"))["state"] == "CLASSIFIED"
    assert len(git(repo, "rev-list", ref).split()) == 3  # create, claim, transition


def test_same_commit_as_commit_tree(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    git(tmp_path, "init", "-q", str(repo))
    common = str(repo / ".git")
    assert objects.sha1_repo(common)
    blobs = [
        (n, objects.write(common, "blob", d)) for n, d in (("b.json", b"{}"), ("a.json", b"1"))
    ]
    tree = objects.write(common, "tree", objects.tree(blobs))
    sha = objects.write(common, "commit", objects.commit(tree, None, "one\n\ntwo\n", when=1e9))
    stamp = "1000000000 +0000"
    proc = subprocess.run(
        ["git", "commit-tree", tree, "-m", "one\n\ntwo"],
        cwd=repo,
        capture_output=True,
        check=True,
        env={
            "PATH": "/usr/bin:/bin",
            "GIT_AUTHOR_NAME": "taskproto",
            "GIT_AUTHOR_EMAIL": "taskproto@localhost",
            "GIT_COMMITTER_NAME": "taskproto",
            "GIT_COMMITTER_EMAIL": "taskproto@localhost",
            "GIT_AUTHOR_DATE": stamp,
            "GIT_COMMITTER_DATE": stamp,
        },
    )
    assert proc.stdout.decode().strip() == sha
    git(repo, "fsck", "--strict", "--no-dangling", "--unreachable")


def test_a_sha256_repository_is_left_to_git(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    git(tmp_path, "init", "-q", "--object-format=sha256", str(repo))
    assert not objects.sha1_repo(str(repo / ".git"))


def test_hashes_are_the_same_whichever_implementation_makes_them() -> None:
    """A hook's small files are hashed without loading OpenSSL; large ones (and every one once
    hashlib is loaded) with it: the same digests and object ids either way."""
    script = (
        "import sys, json\n"
        "from taskproto.git import objects\n"
        "small, large = b'{\"a\": 1}\\n', bytes(range(256)) * 200\n"
        "out = [objects.sha256_hex(small), objects.object_id('blob', small)]\n"
        "out.append('hashlib' in sys.modules)\n"
        "out += [objects.sha256_hex(large), objects.object_id('blob', large)]\n"
        "out.append('hashlib' in sys.modules)\n"
        "out += [objects.sha256_hex(small), objects.object_id('blob', small)]\n"
        "print(json.dumps(out))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-I", "-c", script], capture_output=True, text=True, check=True
    )
    found = json.loads(proc.stdout)
    small, large = b'{"a": 1}\n', bytes(range(256)) * 200
    assert found[2] is False and found[5] is True
    for digest, oid, data in ((0, 1, small), (3, 4, large), (6, 7, small)):
        assert found[digest] == hashlib.sha256(data).hexdigest()
        blob = subprocess.run(
            ["git", "hash-object", "--stdin"], input=data, capture_output=True, check=True
        )
        assert found[oid] == blob.stdout.decode().strip()

"""Real SSH keys (`ssh-keygen -t ed25519 -N ''`) in tmp_path, and git's own signing set up in the
test repository as docs/verify.md tells a user to."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from taskproto.engine import Engine
from taskproto.git.command import Git
from taskproto.hooks.git import install
from tests.conftest import commit_file, git
from tests.hooks.agents.conftest import move_to

PRINCIPAL = "user@example.invalid"


class Key:
    """An ed25519 key pair made by ssh-keygen: the private key's path and the public key line."""

    def __init__(self, folder: Path, name: str) -> None:
        if shutil.which("ssh-keygen") is None:
            pytest.skip("ssh-keygen is not installed (openssh-client; .ci/run installs it)")
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / name
        subprocess.run(
            ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(self.path)],
            check=True,
        )
        self.public = (folder / f"{name}.pub").read_text().strip()


@pytest.fixture
def key(tmp_path: Path) -> Key:
    return Key(tmp_path / "keys", "user")


@pytest.fixture
def allowed(tmp_path: Path, key: Key) -> Path:
    path = tmp_path / "allowed_signers"
    path.write_text(f"{PRINCIPAL} {key.public}\n")
    return path


def use_key(repo: Path, key: Key, allowed: Path | None = None) -> None:
    """Set up SSH signing in `repo`'s git config, as docs/verify.md says."""
    git(repo, "config", "gpg.format", "ssh")
    git(repo, "config", "user.signingkey", f"{key.path}.pub")
    if allowed is not None:
        git(repo, "config", "gpg.ssh.allowedSignersFile", str(allowed))


@pytest.fixture
def signing(repo: Path, key: Key, allowed: Path) -> Key:
    use_key(repo, key, allowed)
    return key


def policy(repo: Path) -> None:
    (repo / ".taskproto.toml").write_text("[verify]\nrequire_signed_approvals = true\n")


def ready(engine: Engine, name: str = "t") -> None:
    """Task `name` (agent dev, merged) in AWAITING_USER_APPROVAL, its plan approved."""
    engine.create_task(name, ["dev"], description="Add the greeting")
    engine.claim(name, "s1")
    move_to(engine, name, "IMPLEMENTATION")
    commit_file(engine.config.agent_worktree(name, "dev"), f"{name}.py", "print('hi')\n")
    engine.merge(name, session="s1")
    move_to(engine, name, "AWAITING_USER_APPROVAL")


def landed(engine: Engine, name: str = "t", strategy: str = "merge") -> None:
    """Task `name` approved, COMPLETE and landed onto main."""
    ready(engine, name)
    engine.approve(name, "commit", "user")
    engine.fire(name, target="COMPLETE", session="s1")
    engine.land(name, strategy=strategy)  # type: ignore[arg-type]


def hooks(repo: Path) -> None:
    install.install(Git(repo))


def signature_of(repo: Path, sha: str) -> bool:
    """Whether the commit carries a signature header."""
    return "gpgsig " in git(repo, "cat-file", "commit", sha)


def journal_ref(repo: Path, task: str = "t") -> str:
    """The task's journal ref, or its newest archive once the task was removed (a land does)."""
    live = f"refs/taskproto/tasks/{task}"
    archived = git(repo, "for-each-ref", "--format=%(refname)", f"refs/taskproto/archive/{task}/")
    if git(repo, "for-each-ref", "--format=%(refname)", live):
        return live
    return archived.splitlines()[-1]


# --- forging journal commits, as a process of the user could -------------------------------


def raw(repo: Path, sha: str) -> bytes:
    return subprocess.run(
        ["git", "cat-file", "commit", sha], cwd=repo, capture_output=True, check=True
    ).stdout


def write_object(repo: Path, kind: str, data: bytes) -> str:
    return (
        subprocess.run(
            ["git", "hash-object", "-t", kind, "-w", "--stdin", "--literally"],
            cwd=repo,
            input=data,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .strip()
    )


def forge(
    repo: Path,
    sha: str,
    parent: str | None = None,
    change: Callable[[dict[str, Any]], None] | None = None,
    keep_signature: bool = True,
) -> str:
    """A copy of journal commit `sha` (its parent `parent` when given), its task.json changed by
    `change` with the digest in its message made to match, its signature kept or dropped."""
    from taskproto.git.signing import split_signature
    from taskproto.state import integrity

    body = raw(repo, sha)
    payload, sig = split_signature(body)
    head, _, message = payload.partition(b"\n\n")
    lines = head.split(b"\n")
    if change is not None:
        tree = lines[0][5:].decode()
        data = json.loads(git(repo, "show", f"{sha}:task.json"))
        change(data)
        blob_bytes = json.dumps(data, indent=2).encode() + b"\n"
        blob = write_object(repo, "blob", blob_bytes)
        listing = git(repo, "ls-tree", tree).splitlines()
        entries = [
            line if not line.endswith("\ttask.json") else f"100644 blob {blob}\ttask.json"
            for line in listing
        ]
        new_tree = git(repo, "mktree", input="\n".join(entries) + "\n")
        lines[0] = f"tree {new_tree}".encode()
        old_digest = integrity.parse(message)[1]
        message = message.replace(str(old_digest).encode(), integrity.digest(blob_bytes).encode())
    if parent is not None:
        lines = [ln for ln in lines if not ln.startswith(b"parent ")]
        lines.insert(1, f"parent {parent}".encode())
    if keep_signature and sig is not None:
        armored = sig.rstrip(b"\n").split(b"\n")
        lines.append(b"gpgsig " + armored[0])
        lines += [b" " + ln for ln in armored[1:]]
    return write_object(repo, "commit", b"\n".join(lines) + b"\n\n" + message)


def journal_list(repo: Path, ref: str) -> list[str]:
    """The journal's commits, oldest first."""
    return git(repo, "rev-list", "--reverse", ref).split()


def rebuild(repo: Path, ref: str, commits: list[str], keep_signature: bool = True) -> list[str]:
    """Move `ref` to copies of `commits` (oldest first) chained anew; returns the copies."""
    copies: list[str] = []
    for sha in commits:
        copies.append(
            forge(repo, sha, parent=copies[-1] if copies else None, keep_signature=keep_signature)
            if copies
            else sha
        )
    git(repo, "update-ref", ref, copies[-1])
    return copies

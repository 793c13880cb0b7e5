"""Real SSH keys (`ssh-keygen -t ed25519 -N ''`) in tmp_path, and git's own signing set up in the
test repository as docs/verify.md tells a user to."""

from __future__ import annotations

import subprocess
from pathlib import Path

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

"""Slice 1 of #42: the user's actions are journal commits signed through git's own signing, the
agents' are not, and `[verify] require_signed_approvals` refuses an approval that cannot be signed
(when made) and a task whose approval is unsigned (land, pre-push)."""

from __future__ import annotations

import os
from pathlib import Path

from taskproto.engine import Engine
from taskproto.state import journal
from tests.conftest import git, run_taskproto
from tests.hooks.agents.conftest import move_to
from tests.verify.conftest import (
    Key,
    hooks,
    journal_ref,
    landed,
    policy,
    ready,
    signature_of,
    use_key,
)


def planning(engine: Engine) -> None:
    """Task t in SYNTHESIS, where its plan is approved."""
    engine.create_task("t", ["dev"])
    engine.claim("t", "s1")
    move_to(engine, "t", "SYNTHESIS")


def journal_commits(repo: Path, task: str = "t") -> list[tuple[str, str]]:
    """(sha, subject) of the task's journal commits, oldest first."""
    out = git(repo, "log", "--reverse", "--format=%H %s", journal_ref(repo, task))
    return [(line[:40], line[41:]) for line in out.splitlines()]


def test_the_users_actions_are_signed_and_git_verifies_them(
    engine: Engine, repo: Path, signing: Key
) -> None:
    landed(engine)
    commits = journal_commits(repo)
    signed = {subject.split(":")[0] for sha, subject in commits if signature_of(repo, sha)}
    assert signed == {"approve", "land"}  # the plan, the commit, the land
    assert sum(signature_of(repo, sha) for sha, _ in commits) == 3
    # git's own check, with nothing of taskproto's: the approvals are the user's key's
    for sha, subject in commits:
        if subject.startswith("approve"):
            out = git(repo, "verify-commit", "--raw", sha)  # raises when the signature is bad
            assert out == ""
    # the agents' steps and the owner's transitions are not signed
    assert not signature_of(repo, next(sha for sha, s in commits if s.startswith("agent dev")))


def test_a_resumption_and_a_rollback_are_signed(engine: Engine, repo: Path, signing: Key) -> None:
    engine.create_task("t")
    assert run_taskproto("interrupt", "record", "t", "what is this?", cwd=repo).code == 0
    assert run_taskproto("resume", "t", cwd=repo).code == 0
    assert run_taskproto("next", "t", "--to", "REQUIREMENTS", cwd=repo).code == 0
    assert run_taskproto("rollback", "t", "--to", "CLASSIFIED", cwd=repo).code == 0
    signed = [s.split(":")[0] for sha, s in journal_commits(repo) if signature_of(repo, sha)]
    assert signed == ["interrupt", "rollback"]  # the resumption (not the question) and the rollback
    assert "RESUMPTION" in [s for _, s in journal_commits(repo) if s.startswith("interrupt")][1]


def test_without_a_signing_key_nothing_is_signed_and_nothing_is_refused(
    engine: Engine, repo: Path
) -> None:
    landed(engine)
    assert not any(signature_of(repo, sha) for sha, _ in journal_commits(repo))


def test_an_agents_commands_are_never_signed(engine: Engine, repo: Path, signing: Key) -> None:
    engine.create_task("t", ["dev"])
    out = run_taskproto(
        "agent", "set", "t", "dev", "WORKING", "--force", cwd=repo, env={"CLAUDECODE": "1"}
    )
    assert out.code != 0 or not signature_of(repo, journal.head(engine.git, "t") or "")
    r = run_taskproto("approve", "t", "--plan", cwd=repo, env={"CLAUDECODE": "1"})
    assert r.code == 1
    assert not any(signature_of(repo, sha) for sha, _ in journal_commits(repo))


def test_the_policy_refuses_an_approval_that_cannot_be_signed(engine: Engine, repo: Path) -> None:
    policy(repo)
    planning(engine)
    before = (engine.config.task_file("t").read_bytes(), journal.head(engine.git, "t"))
    r = run_taskproto("approve", "t", "--plan", cwd=repo)
    assert r.code == 1
    lines = r.err.strip().splitlines()
    assert len(lines) == 1
    assert "cannot be signed" in lines[0] and "git config gpg.format ssh" in lines[0]
    assert (engine.config.task_file("t").read_bytes(), journal.head(engine.git, "t")) == before


def test_the_policy_refuses_when_git_cannot_sign_with_the_key(
    engine: Engine, repo: Path, tmp_path: Path
) -> None:
    policy(repo)
    git(repo, "config", "gpg.format", "ssh")
    git(repo, "config", "user.signingkey", str(tmp_path / "no-such-key.pub"))
    planning(engine)
    head = journal.head(engine.git, "t")
    r = run_taskproto("approve", "t", "--plan", cwd=repo)
    assert r.code == 1 and "could not sign" in r.err and len(r.err.strip().splitlines()) == 1
    assert journal.head(engine.git, "t") == head


def test_without_the_policy_a_key_git_cannot_use_warns_and_saves_unsigned(
    engine: Engine, repo: Path, tmp_path: Path
) -> None:
    git(repo, "config", "gpg.format", "ssh")
    git(repo, "config", "user.signingkey", str(tmp_path / "no-such-key.pub"))
    planning(engine)
    r = run_taskproto("approve", "t", "--plan", cwd=repo)
    assert r.code == 0, r.err
    assert "is not signed" in r.err
    assert not signature_of(repo, journal.head(engine.git, "t") or "")


def test_the_policy_refuses_to_land_or_push_a_task_whose_approval_is_unsigned(
    engine: Engine, repo: Path, key: Key, tmp_path: Path
) -> None:
    hooks(repo)
    ready(engine)
    engine.approve("t", "commit", "user")  # no signing set up yet: unsigned
    engine.fire("t", target="COMPLETE", session="s1")
    policy(repo)
    use_key(repo, key)
    main = git(repo, "rev-parse", "main")
    r = run_taskproto("land", "t", cwd=repo)
    assert r.code == 1 and len(r.err.strip().splitlines()) == 1
    assert "not signed" in r.err and "taskproto approve t --commit" in r.err
    assert git(repo, "rev-parse", "main") == main
    # pre-push, from the task worktree, to a protected branch
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "--quiet", "--bare", str(bare))
    worktree = engine.config.task_worktree("t")
    proc = git_push(worktree, str(bare), "t:main")
    assert proc[0] != 0 and "not signed" in proc[1]
    # signed again: land goes through
    engine.rollback("t", "AWAITING_USER_APPROVAL", None, "user")
    engine.approve("t", "commit", "user")
    engine.fire("t", target="COMPLETE", session="s1")
    assert git_push(worktree, str(bare), "t:main")[0] == 0
    assert run_taskproto("land", "t", cwd=repo).code == 0


def git_push(cwd: Path, remote: str, spec: str) -> tuple[int, str]:
    import subprocess

    proc = subprocess.run(
        ["git", "push", remote, spec], cwd=cwd, capture_output=True, text=True, env=os.environ
    )
    return proc.returncode, proc.stderr

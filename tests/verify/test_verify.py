"""`taskproto verify` (#42, slice 2): every journal replayed from its first commit, in the
repository and in a bare clone that fetched nothing but the journal refs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from taskproto.engine import Engine
from tests.conftest import git, run_taskproto
from tests.verify.conftest import Key, landed, policy, ready


def test_landed_signed_tasks_verify(engine: Engine, repo: Path, signing: Key) -> None:
    landed(engine, "t")
    landed(engine, "u", strategy="ff")
    ready(engine, "w")  # a live journal too
    r = run_taskproto("verify", "--json", cwd=repo)
    assert r.code == 0, r.out + r.err
    data = json.loads(r.out)
    assert data["ok"] is True
    by_task = {j["task"]: j for j in data["journals"]}
    assert set(by_task) == {"t", "u", "w"}
    assert by_task["t"]["signed"] == 3 and by_task["t"]["warnings"] == []
    assert by_task["w"]["signed"] == 1  # its plan approval
    human = run_taskproto("verify", "t", cwd=repo)
    assert human.code == 0 and human.out.startswith("t: ok (")


def test_unsigned_approvals_are_flagged_and_fail_under_the_policy(
    engine: Engine, repo: Path
) -> None:
    landed(engine)
    r = run_taskproto("verify", cwd=repo)
    assert r.code == 0
    assert "warning at journal commit" in r.out and "approval is not signed" in r.out
    policy(repo)
    r = run_taskproto("verify", cwd=repo)
    assert r.code == 1
    assert "FAILED at journal commit" in r.out and "plan approval is not signed" in r.out
    assert run_taskproto("verify", "--require-signed", cwd=repo).code == 1


def test_a_bare_clone_with_only_the_journals_and_the_allowed_signers_verifies(
    engine: Engine, repo: Path, signing: Key, allowed: Path, tmp_path: Path
) -> None:
    landed(engine)
    clone = tmp_path / "audit.git"
    git(tmp_path, "init", "--quiet", "--bare", str(clone))
    git(clone, "fetch", "--quiet", str(repo), "refs/taskproto/*:refs/taskproto/*")
    assert git(clone, "for-each-ref", "--format=%(refname)", "refs/heads/") == ""
    r = run_taskproto("verify", "--all", "--allowed-signers", str(allowed), cwd=clone)
    assert r.code == 0, r.out + r.err
    assert "t: ok (" in r.out and "not in this repository" in r.out  # the code was not fetched
    # without the allowed signers, signed approvals cannot be checked: that fails
    r = run_taskproto("verify", "--all", cwd=clone)
    assert r.code == 1 and "no allowed-signers file" in r.out


def test_a_task_without_a_journal_is_one_line(repo: Path) -> None:
    r = run_taskproto("verify", "nope", cwd=repo)
    assert r.code == 1 and "no journal of task 'nope'" in r.err
    assert len(r.err.strip().splitlines()) == 1


def test_packed_journals_verify_and_the_push_guard_reads_them(
    engine: Engine, repo: Path, signing: Key
) -> None:
    from taskproto.state.approvals import is_signed, recorded_by

    ready(engine)
    engine.approve("t", "commit", "user")
    git(repo, "gc", "--quiet")
    assert not list((repo / ".git" / "objects").glob("??/*"))  # every object packed
    dirs = engine.config.layout.dirs
    assert dirs is not None
    approval = recorded_by(dirs, "t")
    assert approval is not None and is_signed(dirs, approval)
    assert "approve: commit" in git(repo, "log", "-1", "--format=%s", approval)
    r = run_taskproto("verify", "t", cwd=repo)
    assert r.code == 0 and r.out.startswith("t: ok (")


def test_doctor_is_quiet_when_approvals_are_signed_and_the_key_is_hidden(
    engine: Engine, repo: Path, signing: Key
) -> None:
    ready(engine)  # its plan approval signed; the key under /tmp, which the sandbox hides
    r = run_taskproto("doctor", "--json", cwd=repo)
    found = {f["check"] for f in json.loads(r.out)["findings"]}
    assert not found & {"approval-unsigned", "approval-agent-signed", "signing-key-exposed"}, r.out
    git(repo, "config", "--unset", "user.signingkey")
    engine.approve("t", "commit", "user")  # unsigned
    git(repo, "config", "user.signingkey", f"{signing.path}.pub")
    r = run_taskproto("doctor", "--json", cwd=repo)
    unsigned = [f for f in json.loads(r.out)["findings"] if f["check"] == "approval-unsigned"]
    assert len(unsigned) == 1 and "commit approval" in unsigned[0]["message"]


def test_a_journal_of_one_commit_is_said_in_the_singular(cli: Any, repo: Path) -> None:
    assert cli("task", "create", "t").code == 0
    r = cli("verify", "t")
    assert (r.code, r.out) == (0, "t: ok (1 commit, 0 signed)\n")

"""Claims made before the shared remote was turned on: `init --remote` publishes them by the
claim's compare-and-swap, reports one another session holds there as a conflict, and records them
for the next `sync` when the remote cannot be reached. A real bare remote over file:// and two
clones."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import git

ALICE = {"TASKPROTO_SESSION": "alice"}
BOB = {"TASKPROTO_SESSION": "bob"}


Run = Callable[..., Any]


@pytest.fixture
def ok(cli: Run) -> Run:
    """The CLI in-process (the steps before the one under test), which must succeed."""

    def run(*args: str, cwd: Path, env: dict[str, str] | None = None) -> str:
        r = cli(*args, cwd=cwd, env=env)
        assert r.code == 0, r.err
        return str(r.out)

    return run


def remote_claims(bare: Path) -> dict[str, str]:
    """{task: session} of the claims the bare remote holds."""
    out = git(bare, "for-each-ref", "--format=%(refname)", "refs/taskproto/claims/")
    claims = {}
    for ref in out.splitlines():
        data = json.loads(git(bare, "show", f"{ref}:claim.json"))
        claims[ref.rsplit("/", 1)[1]] = data["session"]
    return claims


def two_tasks_on_the_remote(tmp_path: Path, a: Path, ok: Run) -> Path:
    """A bare remote `shared` that holds a's tasks t1 and t2 (a sync with the remote on for a
    moment), while a's own setting leaves the remote off: the claims made next are made before
    it. Returns the bare repository."""
    bare = tmp_path / "shared.git"
    git(tmp_path, "init", "-q", "--bare", "--initial-branch=main", str(bare))
    git(a, "remote", "add", "shared", f"file://{bare}")
    git(a, "push", "-q", "shared", "main")
    ok("init", cwd=a)
    ok("task", "create", "t1", cwd=a)
    ok("task", "create", "t2", cwd=a)
    (a / ".taskproto.toml").write_text('remote = "shared"\n')
    ok("sync", cwd=a)
    (a / ".taskproto.toml").unlink()
    return bare


def test_init_remote_publishes_the_claims_made_before_and_reports_a_conflict(
    tmp_path: Path, repo: Path, ok: Run, cli: Run
) -> None:
    a = repo
    # t1 and t2 reach the remote, and machine b claims t2 there
    bare = two_tasks_on_the_remote(tmp_path, a, ok)
    b = tmp_path / "b"
    git(tmp_path, "clone", "-q", "-o", "shared", f"file://{bare}", str(b))
    ok("init", "--remote", "shared", cwd=b)
    ok("sync", cwd=b)
    ok("claim", "t2", cwd=b, env=BOB)
    # on machine a, without the remote: alice claims both
    ok("claim", "t1", cwd=a, env=ALICE)
    ok("claim", "t2", cwd=a, env=ALICE)
    assert remote_claims(bare) == {"t2": "bob"}

    r = cli("init", "--remote", "shared", "--json", cwd=a, env=ALICE)
    assert r.code == 1, r.err
    claims = json.loads(r.out)["remote"]["claims"]
    assert claims["published"] == ["t1"] and claims["pending"] == []
    assert list(claims["conflicts"]) == ["t2"]
    assert "claimed on remote 'shared' by session bob" in claims["conflicts"]["t2"]
    assert remote_claims(bare) == {"t1": "alice", "t2": "bob"}  # bob's claim not overwritten

    # the second machine can no longer take t1
    ok("sync", cwd=b)
    r = cli("claim", "t1", cwd=b, env=BOB)
    assert r.code == 1 and "claimed on remote 'shared' by session alice" in r.err

    # once published, init says nothing more about it; the conflict, one line
    r = cli("init", "--remote", "shared", cwd=a, env=ALICE)
    assert r.code == 1 and "claims made here published" not in r.out
    err = [line for line in r.err.splitlines() if line.strip()]
    assert len(err) == 1 and err[0].startswith("taskproto: t2: claim not published: task 't2' ")


def test_an_unreachable_remote_leaves_the_claims_to_the_next_sync(
    tmp_path: Path, repo: Path, ok: Run, cli: Run
) -> None:
    bare = tmp_path / "shared.git"  # not made yet: unreachable
    a = repo
    git(a, "remote", "add", "shared", f"file://{bare}")
    ok("init", cwd=a)
    ok("task", "create", "t1", cwd=a)
    ok("claim", "t1", cwd=a, env=ALICE)

    r = cli("init", "--remote", "shared", cwd=a, env=ALICE)
    assert r.code == 0, r.err
    err = [line for line in r.err.splitlines() if line.strip()]
    assert len(err) == 1
    assert "the claims of t1 are not on shared yet" in err[0]
    assert "the next `taskproto sync` publishes them" in err[0]
    assert (a / ".taskproto" / "claims-pending" / "t1").read_text() == "alice\n"

    git(tmp_path, "init", "-q", "--bare", "--initial-branch=main", str(bare))
    r = cli("sync", "--json", cwd=a, env=ALICE)
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["claims_published"] == ["t1"] and data["claims"]["t1"]["session"] == "alice"
    assert remote_claims(bare) == {"t1": "alice"}
    assert not (a / ".taskproto" / "claims-pending" / "t1").exists()
    r = cli("sync", "--json", cwd=a, env=ALICE)  # published once
    assert r.code == 0 and json.loads(r.out)["claims_published"] == []


def test_doctor_names_the_claims_and_removals_waiting_for_an_unreachable_remote(
    tmp_path: Path, repo: Path, ok: Run, cli: Run
) -> None:
    a = repo
    bare = two_tasks_on_the_remote(tmp_path, a, ok)  # both tasks on the remote
    ok("claim", "t1", cwd=a, env=ALICE)  # before the remote is on
    away = tmp_path / "away.git"
    bare.rename(away)  # the remote cannot be reached
    ok("init", "--remote", "shared", cwd=a, env=ALICE)  # t1's claim: pending
    ok("task", "remove", "t2", cwd=a)  # the removal: pending
    assert (a / ".taskproto" / "removals-pending" / "t2").exists()

    r = cli("doctor", "--json", cwd=a, env=ALICE)
    findings = json.loads(r.out)["findings"]
    named = sorted((f["check"], f["task"]) for f in findings if f["check"].startswith("remote-"))
    assert named == [
        ("remote-claim-pending", "t1"),
        ("remote-removal-pending", "t2"),
        ("remote-unreachable", None),
    ]
    claim = next(f for f in findings if f["check"] == "remote-claim-pending")
    assert claim["message"] == (
        "the claim of session alice waits for remote 'shared'; run `taskproto sync` once the "
        "remote is reachable"
    )
    r = cli("doctor", cwd=a, env=ALICE)
    assert "remote-removal-pending  the removal waits for remote 'shared'; run" in r.out, r.out

    away.rename(bare)
    ok("sync", cwd=a, env=ALICE)
    r = cli("doctor", "--json", cwd=a, env=ALICE)
    assert not [f for f in json.loads(r.out)["findings"] if f["check"].startswith("remote-")]


def test_a_waiting_claim_whose_session_is_gone_is_not_published(
    tmp_path: Path, repo: Path, ok: Run, cli: Run
) -> None:
    """A claim recorded for the next sync whose session's process has since ended is not
    published with a fresh heartbeat: sync says so in one line and drops the record."""
    import subprocess

    from taskproto.config import load_config
    from taskproto.engine import Engine

    bare = tmp_path / "shared.git"  # not made yet: unreachable
    a = repo
    git(a, "remote", "add", "shared", f"file://{bare}")
    ok("init", cwd=a)
    ok("task", "create", "t1", cwd=a)
    gone = subprocess.Popen(["true"])
    gone.wait()  # a pid of a process that has ended
    Engine(load_config(a)).claim("t1", "alice", gone.pid)
    assert cli("init", "--remote", "shared", cwd=a, env=ALICE).code == 0
    assert (a / ".taskproto" / "claims-pending" / "t1").read_text() == "alice\n"

    git(tmp_path, "init", "-q", "--bare", "--initial-branch=main", str(bare))
    r = cli("sync", "--json", cwd=a, env=ALICE)
    assert r.code == 1, r.err
    data = json.loads(r.out)
    assert data["claims_published"] == [] and list(data["claim_conflicts"]) == ["t1"]
    why = data["claim_conflicts"]["t1"]
    assert f"process {gone.pid} on this host is gone" in why and "taskproto claim t1" in why
    assert remote_claims(bare) == {}
    assert not (a / ".taskproto" / "claims-pending" / "t1").exists()
    r = cli("sync", "--json", cwd=a, env=ALICE)  # said once: the record is gone
    assert r.code == 0 and json.loads(r.out)["claim_conflicts"] == {}, r.out


def test_init_remote_does_not_publish_a_claim_whose_session_is_gone(
    tmp_path: Path, repo: Path, ok: Run, cli: Run
) -> None:
    """The other door to the same rule: `init --remote` with the remote reachable publishes the
    claims made before it, but not one whose session's process has ended (one line, exit 1, as a
    conflict is), and a live one beside it still is."""
    import subprocess

    from taskproto.config import load_config
    from taskproto.engine import Engine

    a = repo
    bare = two_tasks_on_the_remote(tmp_path, a, ok)
    gone = subprocess.Popen(["true"])
    gone.wait()
    Engine(load_config(a)).claim("t1", "alice", gone.pid)
    ok("claim", "t2", cwd=a, env=BOB)  # the CLI's claim: no pid, a live session as far as known
    r = cli("init", "--remote", "shared", "--json", cwd=a, env=ALICE)
    assert r.code == 1, r.err
    claims = json.loads(r.out)["remote"]["claims"]
    assert claims["published"] == ["t2"] and list(claims["conflicts"]) == ["t1"]
    assert f"process {gone.pid} on this host is gone" in claims["conflicts"]["t1"]
    assert remote_claims(bare) == {"t2": "bob"}


def test_the_escalation_of_a_waiting_removal_says_the_task_was_removed(
    tmp_path: Path, repo: Path, ok: Run, cli: Run
) -> None:
    """The removal waits for the remote: its escalation says so (removed here, `taskproto sync`
    once the remote is reachable), not that a task.json is unreadable."""
    a = repo
    bare = two_tasks_on_the_remote(tmp_path, a, ok)
    ok("init", "--remote", "shared", cwd=a)
    bare.rename(tmp_path / "away.git")  # the remote cannot be reached
    ok("task", "remove", "t2", cwd=a)
    r = cli("doctor", "t2", cwd=a)
    assert "Task 't2' encountered a recovery scenario" in r.out, r.out
    assert "unreadable" not in r.out, r.out
    assert (
        "**Current State**: removed here; the removal waits for remote 'shared': run "
        "`taskproto sync` once it is reachable"
    ) in r.out, r.out
    assert "Abandon the task" not in r.out  # nothing is left here to abandon


def test_init_remote_names_a_claim_it_cannot_read_and_does_not_publish_it(
    tmp_path: Path, repo: Path, ok: Run, cli: Run
) -> None:
    """A task claimed here whose task.json was edited by hand (refused by every command until
    doctor restores it) is not published, and init says so, with what to do, rather than
    nothing."""
    bare = tmp_path / "shared.git"
    git(tmp_path, "init", "-q", "--bare", "--initial-branch=main", str(bare))
    git(repo, "remote", "add", "shared", f"file://{bare}")
    git(repo, "push", "-q", "shared", "main")
    ok("init", cwd=repo)
    ok("task", "create", "t1", cwd=repo)
    ok("claim", "t1", cwd=repo, env=ALICE)
    path = repo / ".taskproto" / "tasks" / "t1" / "task.json"
    path.write_text(path.read_text().replace('"state": "INIT"', '"state": "SYNTHESIS"'))

    r = cli("init", "--remote", "shared", cwd=repo, env=ALICE)
    assert r.code == 1
    assert r.err == (
        "taskproto: t1: claim not published: task t1 cannot be trusted: its state is SYNTHESIS "
        "but its transition log ends at INIT [state-log-mismatch]; run `taskproto doctor --fix`, "
        "then `taskproto init --remote shared` again\n"
    )
    assert remote_claims(bare) == {}
    assert 'remote = "shared"' in (repo / ".taskproto.toml").read_text()

    fixed = cli("doctor", "--fix", cwd=repo, env=ALICE)
    assert "t1: remote-claim-unknown" in fixed.out  # restored; its claim is what is left
    out = ok("init", "--remote", "shared", cwd=repo, env=ALICE)
    assert "claims made here published on shared: t1" in out
    assert remote_claims(bare) == {"t1": "alice"}

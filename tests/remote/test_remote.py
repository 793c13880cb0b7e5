"""Claims and journals through a shared remote, against real servers on 127.0.0.1 and real
subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import remote_servers
from remote_servers import Server, clone, git, ok, race, remote_claim, tp

from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.remote import RemoteClaimHeld, RemoteError

# real git servers on 127.0.0.1 and racing processes: heavy (docs/testing.md), run by CI
pytestmark = pytest.mark.heavy

# One racer: sync, say it is ready, wait for the go file, then act. Prints one JSON line.
RACER = r"""
import json, sys, time
from pathlib import Path
from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.errors import TaskprotoError
action, task, *extra = sys.argv[1:-2]
session, gate = sys.argv[-2], Path(sys.argv[-1])
engine = Engine(load_config(Path.cwd()))
engine.sync()
(gate / f"ready-{session}").touch()
while not (gate / "go").exists():
    time.sleep(0.001)
try:
    if action == "claim":
        out = {"ok": True, "outcome": engine.claim(task, session).outcome}
    else:
        out = {"ok": True, "state": engine.fire(task, trigger=extra[0], session=session).state}
except TaskprotoError as exc:
    out = {"ok": False, "error": str(exc)}
print(json.dumps(out))
"""

server = remote_servers.server  # the fixture: seeded servers over file:// and git daemon


def machines(url: str, base: Path, n: int) -> list[Path]:
    return [clone(url, base / f"m{i}") for i in range(n)]


def remote_ref(bare: Path, ref: str) -> str | None:
    proc = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", ref],
        cwd=bare,
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.stdout.strip() or None


def snapshot(repo: Path) -> tuple[bytes, ...] | tuple[object, ...]:
    files = sorted(
        p
        for p in (repo / ".taskproto").rglob("*")
        if p.is_file() and p.name != "task.json.lock" and "/code/" not in str(p)
    )
    return (git(repo, "for-each-ref"), tuple((str(p), p.read_bytes()) for p in files))


# --- claims ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("racers", "rounds"),
    [
        (4, 2),
        pytest.param(6, 8, marks=pytest.mark.slow),
    ],
)
def test_claim_race_exactly_one_wins_every_round(
    server: Server, tmp_path: Path, racers: int, rounds: int
) -> None:
    url = server.make()
    clones = machines(url, tmp_path, racers)
    ok(clones[0], "task", "create", "t1")
    ok(clones[0], "sync")
    for round_ in range(rounds):
        sessions = [f"r{round_}-s{i}" for i in range(len(clones))]
        results = race(RACER, clones, sessions, tmp_path / f"gate{round_}", "claim", "t1")
        winners = [i for i, r in enumerate(results) if r["ok"]]
        assert len(winners) == 1, results
        winner = sessions[winners[0]]
        assert server.bare is not None
        assert remote_claim(server.bare, "t1")["session"] == winner  # type: ignore[index]
        for i, r in enumerate(results):
            if i != winners[0]:
                assert winner in str(r["error"]) or "taskproto sync" in str(r["error"]), r
        # the winner's claim is in the journal every machine fetches
        ok(clones[winners[0]], "release", "t1", session=winner)
        assert remote_claim(server.bare, "t1") is None


def test_renewal_by_owner_succeeds_and_by_anyone_else_is_refused(
    server: Server, tmp_path: Path
) -> None:
    url = server.make(lease_minutes=0.05)  # 3 s; renewals are pushed once 0.3 s have passed
    a, b = machines(url, tmp_path, 2)
    ok(a, "task", "create", "t1")
    ok(a, "claim", "t1", session="alice")
    assert server.bare is not None
    first = remote_claim(server.bare, "t1")
    time.sleep(0.5)
    ok(a, "heartbeat", "t1", session="alice")
    renewed = remote_claim(server.bare, "t1")
    assert renewed is not None and first is not None
    assert renewed["session"] == "alice" and renewed["expires_at"] > first["expires_at"]
    assert renewed["claimed_at"] == first["claimed_at"]

    ok(b, "sync")
    sha = remote_ref(server.bare, "refs/taskproto/claims/t1")
    proc = tp(b, "heartbeat", "t1", session="bob")
    assert proc.returncode == 1
    assert "claimed on remote 'origin' by session alice" in proc.stderr
    assert remote_ref(server.bare, "refs/taskproto/claims/t1") == sha


def test_takeover_of_an_expired_claim_succeeds_exactly_once(server: Server, tmp_path: Path) -> None:
    url = server.make(lease_minutes=0.02)  # 1.2 s
    clones = machines(url, tmp_path, 4)
    ok(clones[0], "task", "create", "t1")
    ok(clones[0], "claim", "t1", session="dead")
    assert server.bare is not None
    expired_sha = remote_ref(server.bare, "refs/taskproto/claims/t1")
    time.sleep(1.5)
    sessions = ["s1", "s2", "s3"]
    results = race(RACER, clones[1:], sessions, tmp_path / "gate", "claim", "t1")
    winners = [i for i, r in enumerate(results) if r["ok"]]
    assert len(winners) == 1, results
    assert results[winners[0]]["outcome"] == "takeover"
    holder = remote_claim(server.bare, "t1")
    assert holder is not None and holder["session"] == sessions[winners[0]]
    assert remote_ref(server.bare, "refs/taskproto/claims/t1") != expired_sha


def test_release_by_a_non_owner_is_refused(server: Server, tmp_path: Path) -> None:
    url = server.make()
    a, b = machines(url, tmp_path, 2)
    ok(a, "task", "create", "t1")
    ok(a, "claim", "t1", session="alice")
    ok(b, "sync")
    assert server.bare is not None
    sha = remote_ref(server.bare, "refs/taskproto/claims/t1")
    proc = tp(b, "release", "t1", session="bob")
    assert proc.returncode == 1 and "alice" in proc.stderr
    engine = Engine(load_config(b))
    with pytest.raises(RemoteClaimHeld, match="only its owner can release it"):
        engine.remote.release_claim("t1", "bob")
    assert remote_ref(server.bare, "refs/taskproto/claims/t1") == sha
    ok(a, "release", "t1", session="alice")
    assert remote_ref(server.bare, "refs/taskproto/claims/t1") is None


def test_release_before_a_sync_names_the_remote_claim(server: Server, tmp_path: Path) -> None:
    """Before: b, which had not synced since a claimed, said "not claimed by anyone"."""
    url = server.make()
    a, b = machines(url, tmp_path, 2)
    ok(a, "task", "create", "t1")
    ok(a, "sync")
    ok(b, "sync")
    ok(a, "claim", "t1", session="alice")
    assert server.bare is not None
    sha = remote_ref(server.bare, "refs/taskproto/claims/t1")
    task_json = b / ".taskproto" / "tasks" / "t1" / "task.json"
    before = (task_json.read_bytes(), git(b, "rev-parse", "refs/taskproto/tasks/t1"))
    proc = tp(b, "release", "t1", session="bob")
    assert proc.returncode == 1, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert "claimed on remote 'origin' by session alice" in lines[0]
    assert "run `taskproto sync`, then only its owner releases it" in lines[0]
    assert "not claimed" not in lines[0]
    assert (task_json.read_bytes(), git(b, "rev-parse", "refs/taskproto/tasks/t1")) == before
    assert remote_ref(server.bare, "refs/taskproto/claims/t1") == sha
    # after the sync its refusal asked for, b sees the claim as its own
    ok(b, "sync")
    proc = tp(b, "release", "t1", session="bob")
    assert proc.returncode == 1 and "owned by session alice" in proc.stderr


def test_failed_local_claim_gives_the_remote_claim_back(server: Server, tmp_path: Path) -> None:
    url = server.make()
    (a,) = machines(url, tmp_path, 1)
    ok(a, "task", "create", "t1")
    ok(a, "claim", "t1", "--pid", str(os.getpid()), session="alice")
    git(
        a, "push", "--quiet", "origin", ":refs/taskproto/claims/t1"
    )  # as if claimed before remote was on
    proc = tp(a, "claim", "t1", session="bob")
    assert proc.returncode == 1 and "owned by session alice" in proc.stderr
    assert server.bare is not None
    assert remote_ref(server.bare, "refs/taskproto/claims/t1") is None


def test_claim_without_a_name_picks_a_task_free_on_the_remote(
    server: Server, tmp_path: Path
) -> None:
    url = server.make()
    a, b = machines(url, tmp_path, 2)
    ok(a, "task", "create", "t1")
    ok(a, "task", "create", "t2")
    ok(a, "sync")
    ok(b, "sync")
    ok(b, "claim", "t1", session="bob")
    out = ok(a, "claim", "--json", session="alice")  # t1 looks free here, but not on the remote
    assert json.loads(out)["task"] == "t2"


# --- journals ---------------------------------------------------------------------------


def test_task_created_elsewhere_appears_after_sync_with_worktrees_on_claim(
    server: Server, tmp_path: Path
) -> None:
    url = server.make()
    a, b = machines(url, tmp_path, 2)
    ok(a, "task", "create", "t1", "--agents", "coder")
    assert tp(b, "claim", "t1", session="bob").returncode == 1  # not here yet
    ok(a, "sync")
    out = json.loads(ok(b, "sync", "--json"))
    assert out["adopted"] == ["t1"]
    task_a = json.loads((a / ".taskproto/tasks/t1/task.json").read_text())
    task_b = json.loads((b / ".taskproto/tasks/t1/task.json").read_text())
    assert task_a == task_b
    assert not (b / ".taskproto/tasks/t1/code").exists()
    ok(b, "claim", "t1", session="bob")
    assert (b / ".taskproto/tasks/t1/code/README.md").is_file()
    assert (b / ".taskproto/tasks/t1/agents/coder/code/README.md").is_file()
    assert git(b, "rev-parse", "t1") == task_a["base"]


def test_a_transition_on_a_journal_that_moved_elsewhere_is_refused_until_sync(
    server: Server, tmp_path: Path
) -> None:
    url = server.make()
    a, b = machines(url, tmp_path, 2)
    ok(a, "task", "create", "t1")
    ok(a, "sync")
    ok(b, "sync")
    ok(a, "fire", "t1", "classify")
    before = snapshot(b)
    proc = tp(b, "fire", "t1", "classify")
    assert proc.returncode == 1 and "run `taskproto sync` first" in proc.stderr
    assert snapshot(b) == before
    ok(b, "sync")
    ok(b, "fire", "t1", "gather_requirements")
    ok(a, "sync")
    assert json.loads((a / ".taskproto/tasks/t1/task.json").read_text())["state"] == "REQUIREMENTS"
    assert git(a, "rev-parse", "refs/taskproto/tasks/t1") == git(
        b, "rev-parse", "refs/taskproto/tasks/t1"
    )


def test_two_machines_transitioning_at_once_never_fork_the_journal(
    server: Server, tmp_path: Path
) -> None:
    url = server.make()
    clones = machines(url, tmp_path, 3)
    ok(clones[0], "task", "create", "t1")
    ok(clones[0], "sync")
    results = race(RACER, clones, ["s0", "s1", "s2"], tmp_path / "gate", "fire", "t1", "classify")
    assert sum(bool(r["ok"]) for r in results) == 1, results
    assert server.bare is not None
    # linear: every journal commit on the server has at most one parent, and each clone agrees after
    # sync
    parents = git(server.bare, "rev-list", "--parents", "refs/taskproto/tasks/t1").splitlines()
    assert all(len(line.split()) <= 2 for line in parents)
    assert len(parents) == 2  # create, classify
    head = remote_ref(server.bare, "refs/taskproto/tasks/t1")
    for c in clones:
        ok(c, "sync")
        assert git(c, "rev-parse", "refs/taskproto/tasks/t1") == head
        assert (
            json.loads((c / ".taskproto/tasks/t1/task.json").read_text())["state"] == "CLASSIFIED"
        )


# --- failures ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ("claim", "t1"),
        ("claim",),
        ("release", "t1"),
        ("heartbeat", "t1"),
        ("fire", "t1", "classify"),
        ("sync",),
    ],
)
def test_an_unreachable_remote_changes_nothing_here(
    server: Server, tmp_path: Path, command: tuple[str, ...]
) -> None:
    url = server.make(lease_minutes=0.05)  # so the heartbeat below is due to be pushed
    (a,) = machines(url, tmp_path, 1)
    ok(a, "task", "create", "t1")
    if command[0] in ("release", "heartbeat"):
        ok(a, "claim", "t1", session="alice")
        time.sleep(0.4)
    git(a, "remote", "set-url", "origin", server.unreachable)
    before = snapshot(a)
    proc = tp(a, *command, session="alice")
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith("taskproto: remote 'origin': ")
    assert "nothing was changed locally" in proc.stderr
    assert (
        "does not appear to be a git repository" in proc.stderr
        if server.kind == "file"
        else "unable to connect" in proc.stderr
    )
    assert snapshot(a) == before


def test_a_push_the_server_rejects_is_reported_with_gits_reason(
    server: Server, tmp_path: Path
) -> None:
    url = server.make()
    (a,) = machines(url, tmp_path, 1)
    ok(a, "task", "create", "t1")
    assert server.bare is not None
    hook = server.bare / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'no pushes for you' >&2\nexit 1\n")
    hook.chmod(0o755)
    before = snapshot(a)
    proc = tp(a, "claim", "t1", session="alice")
    assert proc.returncode == 1
    assert (
        "remote 'origin': claiming t1 failed" in proc.stderr
        and "pre-receive hook declined" in proc.stderr
    )
    assert snapshot(a) == before


# --- for doctor ---------------------------------------------------------------------------


def test_doctor_helpers_find_claims_the_two_sides_disagree_on(
    server: Server, tmp_path: Path
) -> None:
    url = server.make()
    (a,) = machines(url, tmp_path, 1)
    ok(a, "task", "create", "t1")
    ok(a, "task", "create", "t2")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    ok(a, "claim", "t1", session="alice")
    ok(a, "claim", "t2", "--pid", str(dead.pid), session="ghost")
    git(a, "push", "--quiet", "origin", ":refs/taskproto/claims/t1")
    config = load_config(a)
    # `taskproto doctor` reports both, by check id, with who the remote names
    from taskproto import doctor

    findings = doctor.run(config).findings
    unknown = [
        (f.task, f.data["session"], f.data["remote_holder"])
        for f in findings
        if f.check == "remote-claim-unknown"
    ]
    assert unknown == [("t1", "alice", None)]
    assert [f.task for f in findings if f.check == "remote-claim-dead-session"] == ["t2"]


def remote_nowhere(tmp_path: Path) -> Path:
    """A repository whose shared remote, origin, cannot be read (no repository at its URL)."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "--quiet", "--initial-branch=main")
    git(repo, "commit", "--quiet", "--allow-empty", "-m", "i")
    git(repo, "remote", "add", "origin", str(tmp_path / "nowhere.git"))
    (repo / ".taskproto.toml").write_text('remote = "origin"\n')
    return repo


def test_doctor_says_when_the_remote_cannot_be_read(tmp_path: Path) -> None:
    from taskproto import doctor

    repo = remote_nowhere(tmp_path)
    report = doctor.run(load_config(repo))
    assert [f.check for f in report.findings] == ["remote-unreachable"]
    assert "origin" in report.findings[0].message


def test_doctor_offers_no_task_to_abandon_when_the_remote_cannot_be_read(tmp_path: Path) -> None:
    # A repository's finding has no task: its escalation offers what the user can do, not
    # "Abandon the task and select another one" (docs/doctor.md, "The options of each escalation").
    repo = remote_nowhere(tmp_path)
    proc = tp(repo, "doctor")
    assert proc.returncode == 1, proc.stderr
    assert "1. Check the remote (`git ls-remote origin`) and run doctor again" in proc.stdout
    assert "Abandon the task" not in proc.stdout + proc.stderr


def test_remote_error_names_the_remote(tmp_path: Path) -> None:
    assert "remote 'origin': x failed: y" in str(RemoteError("origin", "x", "y"))


def test_a_task_removed_here_is_not_brought_back_by_sync(server: Server, tmp_path: Path) -> None:
    url = server.make()
    (a,) = machines(url, tmp_path, 1)
    ok(a, "task", "create", "t1")
    ok(a, "sync")
    ok(a, "task", "remove", "t1")  # published on the remote as it was removed (docs/remote.md)
    out = json.loads(ok(a, "sync", "--json"))
    assert out["adopted"] == [] and out["removed_here"] == [] and out["removed_elsewhere"] == []
    assert not (a / ".taskproto/tasks/t1").exists()

"""`taskproto agent set` on the quick path (cli/quick.py, hooks/quicksave.py `set_agent`): it
prints and writes what the engine does (the status file, the journal commit with task.json as it
is), imports nothing heavy, and leaves every refusal and every odd status file to the engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from taskproto.config import load_config
from taskproto.state import store
from taskproto.state.models import AgentStatus
from tests.conftest import git
from tests.hooks.test_move import NOTE, build, heavy, journal, shas, task_bytes, tp


def status_bytes(repo: Path, agent: str) -> bytes:
    path = repo / ".taskproto" / "tasks" / "t" / "agents" / agent / "status.json"
    return path.read_bytes() if path.is_file() else b""


def no_time(raw: bytes) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(raw)
    data.pop("updated_at")
    return data


def test_agent_set_writes_what_the_engine_writes(tmp_path: Path) -> None:
    repos = [build(tmp_path / "quick", "a1,a2"), build(tmp_path / "full", "a1,a2")]
    steps = [
        ("agent", "set", "t", "a1", "--status", "WORKING"),
        ("agent", "set", "t", "a1", "--status", "in_progress", "--json"),
        ("agent", "set", "--json", "t", "a2", f"--message={NOTE}", "--status=ERROR"),
        ("agent", "set", "t", "a2", "--status", "PENDING", "--message", "kept only with ERROR"),
        ("agent", "set", "t", "a1", "--status", "COMPLETE"),
        ("agent", "set", "t", "a2", "--status", "complete", "--json"),
    ]
    for step in steps:
        got, want = tp(repos[0], *step), tp(repos[1], *step, quick=False)
        if "--json" in step:  # the times differ
            got = (got[0], json.dumps(no_time(got[1].encode())), *got[2:])
            want = (want[0], json.dumps(no_time(want[1].encode())), *want[2:])
        assert got[:3] == want[:3], step
        assert got[3] == "quick", (step, got)
        for agent in ("a1", "a2"):
            quick, full = status_bytes(repos[0], agent), status_bytes(repos[1], agent)
            assert (quick == b"") == (full == b"")
            if quick:
                model = store.parse(AgentStatus, Path("status.json"), quick, move_aside=False)
                assert store.dump(model) == quick  # the models' own bytes
                assert no_time(quick) == no_time(full)
    assert json.loads(status_bytes(repos[0], "a2"))["error_message"] is None
    # task.json is as it was, and the journal holds the status files the guard reads
    assert tp(repos[0], "approve", "t", "--plan", quick=False)[0] == 0
    for trigger in ("implement", "validate"):
        assert tp(repos[0], "fire", "t", trigger)[:4:3] == (0, "quick")
    # newest first: the quick repository's three since, then the same history as the engine's
    assert shas(tuple(journal(repos[0])))[3:] == shas(tuple(journal(repos[1])))
    head = git(repos[0], "rev-parse", "refs/taskproto/tasks/t")
    listed = git(repos[0], "ls-tree", "-r", "--name-only", head).split()
    assert listed == ["status-a1.json", "status-a2.json", "task.json"]
    git(repos[0], "fsck", "--strict", "--no-progress")
    assert tp(repos[0], "doctor", quick=False)[0] == 0


def same_refusal(repo: Path, *args: str, top: Path | None = None, **env: str) -> str:
    """Refused both ways with the same words, by the engine, run in `repo` (a folder of the
    repository `top`), with task.json and every status file as they were; the error line."""
    tasks = (top or repo) / ".taskproto" / "tasks"
    files = sorted(tasks.rglob("*.json"))
    before = [p.read_bytes() for p in files], task_bytes(top or repo)
    got = tp(repo, *args, **env)
    assert got == tp(repo, *args, quick=False, **env)
    assert got[0] != 0 and got[3] == "full", got
    assert ([p.read_bytes() for p in files], task_bytes(top or repo)) == before
    assert sorted(tasks.rglob("*.json")) == files
    return got[2]


def test_every_refusal_and_odd_status_file_is_the_engines(tmp_path: Path) -> None:
    repo = build(tmp_path / "repo", "a1")
    set_a1 = ("agent", "set", "t", "a1", "--status")
    assert "not an agent" in same_refusal(repo, "agent", "set", "t", "a9", "--status", "WORKING")
    assert same_refusal(repo, "agent", "set", "t", "../a1", "--status", "WORKING")
    assert "owner" in same_refusal(repo, *set_a1, "WORKING", TASKPROTO_SESSION="intruder")
    assert same_refusal(repo, "agent", "set", "nope", "a1", "--status", "WORKING")
    for odd in [
        ("DONE",),
        ("WORKING", "extra"),
        ("WORKING", "--message"),
        ("WORKING", "--bogus"),
    ]:
        assert same_refusal(repo, *set_a1, *odd), odd
    assert same_refusal(repo, "agent", "set", "t", "a1")
    # another door's words, not the quick path's: --force and --help
    assert tp(repo, *set_a1, "WORKING", "--force")[:4:3] == (0, "full")
    assert tp(repo, *set_a1, "PENDING", "--status", "WORKING")[:4:3] == (0, "full")  # the last
    assert tp(repo, "agent", "set", "--help")[3] == "full"
    folder = repo / ".taskproto" / "tasks" / "t" / "agents" / "a1"
    status = folder / "status.json"
    # a corrupt status file: the engine sets it aside, kept, and refuses; the next one is quick
    status.write_text("{not json")
    got = tp(repo, *set_a1, "COMPLETE")
    assert got[0] == 1 and got[3] == "full" and "doctor" in got[2], got
    assert [p.read_text() for p in folder.glob("status.json.corrupt-*")] == ["{not json"]
    assert tp(repo, *set_a1, "COMPLETE")[:4:3] == (0, "quick")
    assert json.loads(status.read_bytes())["status"] == "COMPLETE"
    # a status file that is a link (to a COMPLETE status elsewhere): never written through
    elsewhere = tmp_path / "status.json"
    elsewhere.write_bytes(status.read_bytes())
    status.unlink()
    status.symlink_to(elsewhere)
    before = elsewhere.read_bytes()
    got = tp(repo, *set_a1, "ERROR")
    assert got[3] == "full" and got == tp(repo, *set_a1, "ERROR", quick=False)
    assert elsewhere.read_bytes() == before
    status.unlink()
    # the agent's folder a link: the same
    moved = tmp_path / "a1-elsewhere"
    moved.mkdir()
    folder.rename(tmp_path / "a1-old")
    folder.symlink_to(moved)
    got = tp(repo, *set_a1, "WORKING")
    assert got[3] == "full" and not (moved / "status.json").exists()


def test_from_other_folders_and_links_it_sets_and_refuses_alike(tmp_path: Path) -> None:
    repo = build(tmp_path / "repo", "a1")
    link = tmp_path / "link"
    link.symlink_to(repo)
    worktree = Path(load_config(repo).layout.task_worktree("t"))
    for cwd, status in [(worktree, "WORKING"), (link, "ERROR"), (link / ".taskproto", "COMPLETE")]:
        code, out, err, path = tp(cwd, "agent", "set", "t", "a1", "--status", status)
        assert (code, path) == (0, "quick"), err
        assert out == f"t/a1: {status}\n"
        assert json.loads(status_bytes(repo, "a1"))["status"] == status
        assert "owner" in same_refusal(
            cwd, "agent", "set", "t", "a1", "--status", "PENDING", top=repo, TASKPROTO_SESSION="x"
        )
    assert tp(repo, "doctor", quick=False)[0] == 0


def test_a_quick_agent_set_imports_nothing_heavy(tmp_path: Path) -> None:
    repo = build(tmp_path / "repo", "a1")
    out = heavy(repo, "agent", "set", "t", "a1", "--status", "COMPLETE")
    assert out == (["t/a1: COMPLETE", "[]"], 0)  # the status file's links checked on str paths

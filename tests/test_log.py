"""`taskproto log` tells everything a task's journal holds: one line per journal commit, whatever
made it (transitions, claims, releases, approvals, interruptions, escalations, agents' statuses,
removals), with --json, and for a removed task from its archived journal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from taskproto.engine import Engine
from tests.conftest import commit_file, git
from tests.hooks.agents.conftest import move_to

S1 = {"TASKPROTO_SESSION": "s1"}


def test_log_has_one_line_per_journal_commit_of_every_kind(cli: Any, repo: Path) -> None:
    for args, env in (
        (("task", "create", "t1", "--agents", "dev"), {}),
        (("claim", "t1"), S1),
        (("interrupt", "record", "t1", "why is the sky blue?"), S1),
        (("escalate", "t1", "--reason", "external-dependency", "--detail", "db down"), S1),
        (("resume", "t1"), {}),  # the user's
        (("agent", "set", "t1", "dev", "--status", "ERROR", "--message", "boom"), S1),
        (("transition", "t1", "CLASSIFIED"), S1),
        (("transition", "t1", "REQUIREMENTS"), S1),
        (("transition", "t1", "SYNTHESIS"), S1),
        (("approve", "t1", "--plan"), {}),
        (("release", "t1"), S1),
    ):
        r = cli(*args, env=env)
        assert r.code == 0, (args, r.err)
    commits = int(git(repo, "rev-list", "--count", "refs/taskproto/tasks/t1"))
    out = cli("log", "t1").out.splitlines()
    assert len(out) == commits == 11
    expected = [
        ("create", "create: INIT", "[-]"),
        ("claim", "claim: s1", "[s1]"),
        ("interruption", 'interrupt: QUESTION in INIT (QUESTION: "why is the sky blue?")', "[s1]"),
        (
            "note",
            "escalate: external-dependency (escalated (external-dependency): db down)",
            "[s1]",
        ),
        ("note", "escalation resolved (external-dependency)", ""),
        ("agent", "agent dev: ERROR (boom)", ""),
        ("transition", "classify: INIT -> CLASSIFIED", "[s1]"),
        ("transition", "REQUIREMENTS", "[s1]"),
        ("transition", "SYNTHESIS", "[s1]"),
        ("approval", "approve: plan", ""),
        ("release", "release: s1", ""),
    ]
    for line, (kind, what, who) in zip(out, expected, strict=True):
        assert f" {kind} " in line and what in line and line.endswith(who or "]"), line
    data = json.loads(cli("log", "t1", "--json").out)
    entries = data["entries"]
    assert data["ref"] == "refs/taskproto/tasks/t1"
    assert [e["revision"] for e in entries] == sorted(e["revision"] for e in entries)
    assert entries[2]["interruptions"][0]["text"] == "why is the sky blue?"
    assert entries[5]["agents"]["dev"]["from"] == "PENDING"
    assert entries[5]["agents"]["dev"]["status"] == "ERROR"
    assert [e["to"] for e in entries if e["kind"] == "transition"] == [
        "CLASSIFIED",
        "REQUIREMENTS",
        "SYNTHESIS",
    ]
    last = json.loads(cli("log", "t1", "--json", "--last", "2").out)["entries"]
    assert [e["commit"] for e in last] == [e["commit"] for e in entries[-2:]]
    assert last[0]["kind"] == "approval"  # told against the commit before it, though not shown


def test_a_removed_tasks_log_is_read_from_its_archive(cli: Any) -> None:
    assert cli("task", "create", "t1").code == 0
    assert cli("transition", "t1", "CLASSIFIED").code == 0
    assert cli("task", "remove", "t1").code == 0
    out = cli("log", "t1").out.splitlines()
    assert "create: INIT" in out[0] and "classify: INIT -> CLASSIFIED" in out[1]
    assert json.loads(cli("log", "t1", "--json").out)["ref"].startswith(
        "refs/taskproto/archive/t1/"
    )


def test_merges_and_doctors_repairs_have_their_lines(cli: Any, engine: Engine, repo: Path) -> None:
    engine.create_task("t1", ["dev"])
    engine.claim("t1", "s1")
    move_to(engine, "t1", "IMPLEMENTATION")
    commit_file(engine.config.agent_worktree("t1", "dev"), "dev.txt", "dev\n", "dev: work")
    assert cli("merge", "t1", env=S1).code == 0
    assert (
        cli("agent", "set", "t1", "dev", "--status", "ERROR", "--message", "boom", env=S1).code == 0
    )
    cli("doctor", "--fix", "--retry-agents")  # re-queues dev within its retries
    out = cli("log", "t1").out.splitlines()
    assert int(git(repo, "rev-list", "--count", "refs/taskproto/tasks/t1")) == len(out)
    assert any(" merge " in x and "merge: dev merged" in x for x in out), out
    (requeued,) = [x for x in out if " repair " in x]
    assert "dev" in requeued, out

"""task.json stays bounded however long a task lives: the log is append-only in the journal, and
task.json keeps its tail, how many entries there have been and when each state was entered. What
reads the whole log reads the journal; what reads the tail still finds what it needs; files of the
older schema (the whole log in task.json) read as before and move up at their next change; and
`taskproto migrate --down` writes schema 1 again for an older taskproto."""

from __future__ import annotations

import json
from pathlib import Path

from taskproto.engine import Engine
from taskproto.state import journal
from taskproto.state.models import INTERRUPTIONS_KEEP, LOG_KEEP, SCHEMA_VERSION
from tests.conftest import git, run_taskproto
from tests.hooks.agents.conftest import move_to

S1 = "s1"
LOOP = ("CLASSIFIED", "REQUIREMENTS", "SYNTHESIS", "REQUIREMENTS")


def churn(engine: Engine, name: str, rounds: int) -> None:
    """`rounds` user rollbacks back and forth between REQUIREMENTS and SYNTHESIS: two entries each
    (a transition, then a rollback)."""
    for _ in range(rounds):
        engine.fire(name, target="SYNTHESIS", session=S1)
        engine.rollback(name, "REQUIREMENTS", None, session=S1)


def task_json(engine: Engine, name: str) -> dict[str, object]:
    data: dict[str, object] = json.loads(engine.config.task_file(name).read_bytes())
    return data


def test_a_long_lived_task_keeps_a_small_task_json_and_its_whole_log_in_the_journal(
    engine: Engine, cli
) -> None:
    engine.create_task("t")
    engine.claim("t", S1)
    for state in LOOP[:2]:
        engine.fire("t", target=state, session=S1)
    churn(engine, "t", 60)  # 120 entries more
    data = task_json(engine, "t")
    assert data["schema_version"] == SCHEMA_VERSION
    log = data["transition_log"]
    assert isinstance(log, list) and len(log) == LOG_KEEP
    assert data["log_count"] == 2 + 2 + 120  # create, claim, two transitions, the churn
    size = engine.config.task_file("t").stat().st_size
    assert size < 12_000, size  # the same after 10 entries as after 10,000
    # the whole log, read from the journal
    r = cli("log", "t", "--json")
    assert r.code == 0, r.err
    changes = json.loads(r.out)["entries"]
    entries = [e for c in changes for e in c["log"]]
    assert len(entries) == data["log_count"]
    assert [e["trigger"] for e in entries[:4]] == [
        "create",
        "claim",
        "classify",
        "gather_requirements",
    ]
    # a state entered long ago, before the tail: rollback finds when
    assert data["reached"].keys() >= {"INIT", "CLASSIFIED", "REQUIREMENTS", "SYNTHESIS"}
    r = cli("rollback", "t", "--to", "CLASSIFIED", env={"TASKPROTO_SESSION": S1})
    assert r.code == 0, r.err
    assert engine.load("t").state == "CLASSIFIED"
    # doctor checks the tail it holds against the workflow, and finds nothing
    r = cli("doctor", "--json")
    assert r.code == 0 and json.loads(r.out)["findings"] == [], r.out


def test_interruptions_are_counted_whole_and_kept_as_a_tail(engine: Engine, cli) -> None:
    engine.create_task("t")
    engine.claim("t", S1)
    for i in range(INTERRUPTIONS_KEEP + 9):
        r = cli(
            "interrupt", "record", "t", f"what does step {i} do?", env={"TASKPROTO_SESSION": S1}
        )
        assert r.code == 0, r.err
    data = task_json(engine, "t")
    assert isinstance(data["interruptions"], list)
    assert len(data["interruptions"]) == INTERRUPTIONS_KEEP
    r = cli("task", "show", "t", "--json")
    shown = json.loads(r.out)["interruptions"]
    assert shown["count"] == INTERRUPTIONS_KEEP + 9 and shown["by_type"] == {
        "QUESTION": INTERRUPTIONS_KEEP + 9
    }
    r = cli("log", "t", "--json")
    recorded = [i for c in json.loads(r.out)["entries"] for i in c["interruptions"]]
    assert len(recorded) == INTERRUPTIONS_KEEP + 9


def _schema1(engine: Engine, name: str, entries: int) -> None:
    """Task `name` as an older taskproto left it: schema 1, the whole log in task.json (written by
    `migrate --down`, journaled)."""
    engine.create_task(name)
    engine.claim(name, S1)
    for state in LOOP[:2]:
        engine.fire(name, target=state, session=S1)
    churn(engine, name, entries // 2)
    from taskproto.engine.migrate import migrate

    assert dict(migrate(engine, True, S1))[name].startswith(f"schema {SCHEMA_VERSION} -> 1")


def test_migrate_down_writes_schema_1_whole_and_up_again(engine: Engine, cli) -> None:
    _schema1(engine, "t", 40)
    data = task_json(engine, "t")
    assert data["schema_version"] == 1 and "log_count" not in data and "reached" not in data
    log = data["transition_log"]
    assert isinstance(log, list) and len(log) == 2 + 2 + 40 + 1  # ... and the migrate note
    assert [e["trigger"] for e in log[:3]] == ["create", "claim", "classify"]
    # what an older taskproto reads: the journal vouches for exactly these bytes
    head = journal.head(engine.git, "t")
    assert git(engine.config.repo, "cat-file", "-p", f"{head}:task.json").encode() + b"\n" == (
        engine.config.task_file("t").read_bytes()
    )
    # this taskproto reads it, counts it, and a change moves it up (or `migrate` does, for all)
    task = engine.load("t")
    assert task.log_count == len(log) and "SYNTHESIS" in task.reached
    r = cli("migrate", "--json")
    assert r.code == 0, r.err
    assert json.loads(r.out)[0]["result"].startswith(f"schema 1 -> {SCHEMA_VERSION}")
    data = task_json(engine, "t")
    assert data["schema_version"] == SCHEMA_VERSION and len(data["transition_log"]) == LOG_KEEP
    assert data["log_count"] == len(log) + 1
    r = cli("migrate")
    assert r.code == 0 and r.out == f"t: already schema {SCHEMA_VERSION}\n"
    # the log reads back whole across both schemas, each entry once
    r = cli("log", "t", "--json")
    entries = [e for c in json.loads(r.out)["entries"] for e in c["log"]]
    assert len(entries) == data["log_count"]
    r = cli("doctor", "--json")
    assert json.loads(r.out)["findings"] == []


def test_migrate_is_the_users(engine: Engine, repo: Path) -> None:
    engine.create_task("t")
    r = run_taskproto("migrate", "--down", cwd=repo, env={"CLAUDECODE": "1"})
    assert r.code == 1 and "the user's to do" in r.err
    assert task_json(engine, "t")["schema_version"] == SCHEMA_VERSION


def test_a_task_that_lands_after_many_entries(engine: Engine, cli) -> None:
    """The whole day still works on the tail: merges, approvals and the landing."""
    from taskproto.git.command import Git
    from taskproto.hooks.git import install
    from tests.conftest import commit_file

    install.install(Git(engine.config.repo))
    engine.create_task("t", ["dev"])
    engine.claim("t", S1)
    for state in LOOP[:2]:
        engine.fire("t", target=state, session=S1)
    churn(engine, "t", 30)
    move_to(engine, "t", "IMPLEMENTATION")
    commit_file(engine.config.agent_worktree("t", "dev"), "dev.txt")
    engine.merge("t", session=S1)
    move_to(engine, "t", "AWAITING_USER_APPROVAL")
    engine.approve("t", "commit", "user")
    engine.fire("t", target="COMPLETE", session=S1)
    r = cli("land", "t", "--json")
    assert r.code == 0 and json.loads(r.out)["removed"] is True, r.err
    r = cli("log", "t", "--json")
    entries = [e for c in json.loads(r.out)["entries"] for e in c["log"]]
    assert entries[-1]["trigger"] == "cleanup" and len(entries) > 70


def test_a_log_entrys_json_made_once_is_the_same_every_time_whatever_a_caller_changes() -> None:
    """A frozen entry's JSON is kept once made (a process that saves a task again and again dumps
    its entries once): each caller gets its own copy, equal to a fresh dump."""
    from datetime import UTC, datetime

    from taskproto.state.models import LogEntry

    entry = LogEntry.model_validate(
        {"from": "INIT", "to": "CLASSIFIED", "trigger": "classify", "time": datetime.now(UTC)}
    )
    first = entry.model_dump(mode="json", by_alias=True)
    first["to"] = "changed by a caller"
    again = entry.model_dump(mode="json", by_alias=True)
    assert again["to"] == "CLASSIFIED" and again == LogEntry.model_validate(again).model_dump(
        mode="json", by_alias=True
    )
    assert entry.model_dump(mode="json")["to_state"] == "CLASSIFIED"  # by name, not alias

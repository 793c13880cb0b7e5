"""`taskproto inbox [--all]`: what waits for the user here, or in every repository `init`
registered on this machine, one of them sharing its tasks through a remote; each item's command
acts on it, and refuses once the task's head has moved."""

from __future__ import annotations

import json
import os
import shlex
import shutil
from pathlib import Path
from typing import Any

import pytest

from taskproto.config import load_config
from taskproto.doctor.escalate import escalate
from taskproto.engine import Engine
from taskproto.ops import interrupts
from tests.conftest import commit_file, git, make_repo
from tests.hooks.agents.conftest import move_to


@pytest.fixture(autouse=True)
def _no_detached_delivery(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TASKPROTO_NOTIFY_DETACH", "0")


def at_approval(engine: Engine, name: str) -> str:
    engine.create_task(name, ["dev"])
    engine.claim(name, "s1")
    move_to(engine, name, "IMPLEMENTATION")
    commit_file(engine.config.agent_worktree(name, "dev"), f"{name}.py")
    engine.merge(name, session="s1")
    move_to(engine, name, "AWAITING_USER_APPROVAL")
    return git(engine.config.repo, "rev-parse", name)


def test_inbox_over_three_repositories_one_on_a_shared_remote(
    repo: Path, tmp_path: Path, cli: Any
) -> None:
    # a: a question paused its task
    a = repo
    assert cli("init", cwd=a).code == 0
    engine_a = Engine(load_config(a))
    engine_a.create_task("parser", ["dev"])
    engine_a.claim("parser", "s1")
    interrupts.record(engine_a, "parser", "wait, which grammar do we follow?", "s1")
    # b: a commit waits for approval (client hooks only: the test moves the branch by hand)
    b = make_repo(tmp_path / "b")
    assert cli("init", "--claude", cwd=b).code == 0
    engine_b = Engine(load_config(b))
    head = at_approval(engine_b, "widget")
    # c: a clone whose shared remote holds an escalated task, made in another clone
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "--initial-branch=main", str(bare))
    first = make_repo(tmp_path / "first")
    git(first, "remote", "add", "origin", f"file://{bare}")
    git(first, "push", "-q", "origin", "main")
    (first / ".taskproto.toml").write_text('remote = "origin"\n')
    engine_first = Engine(load_config(first))
    engine_first.create_task("deploy", ["ops"])
    escalate(engine_first, "deploy", "external-dependency", "the registry is down", [], "s9")
    c = tmp_path / "c"
    git(tmp_path, "clone", "-q", f"file://{bare}", str(c))
    assert cli("init", "--remote", "origin", cwd=c).code == 0
    assert cli("sync", cwd=c).code == 0

    result = cli("inbox", "--all", "--json", cwd=b)
    assert result.code == 0, result.err
    found = [(i["repository"], i["task"], i["reason"]) for i in json.loads(result.out)["items"]]
    assert found == [
        (str(a), "parser", "question"),
        (str(b), "widget", "commit-approval"),
        (str(c), "deploy", "escalation"),
    ]
    human = cli("inbox", "--all", cwd=a).out
    assert f"{c}:\n  deploy  escalation: escalated (external-dependency)" in human
    assert "  -> taskproto resume parser" in human
    # without --all: this repository only
    here = json.loads(cli("inbox", "--json", cwd=b).out)["items"]
    assert [(i["task"], i["head"]) for i in here] == [("widget", head)]

    # the branch moves after the inbox was read: its command is refused, nothing is written
    command = shlex.split(here[0]["command"])
    assert command == ["taskproto", "approve", "widget", "--commit", head[:12]]
    before = engine_b.config.task_file("widget").read_bytes()
    commit_file(engine_b.config.task_worktree("widget"), "late.py")
    refused = cli(*command[1:], cwd=b)
    assert refused.code == 1 and len(refused.err.strip().splitlines()) == 1
    assert f"({head[:12]}) is not the head of branch widget" in refused.err
    assert engine_b.config.task_file("widget").read_bytes() == before
    # the inbox shows the new head, whose command goes through
    item = json.loads(cli("inbox", "--json", cwd=b).out)["items"][0]
    assert item["head"] == git(b, "rev-parse", "widget") != head
    assert cli(*shlex.split(item["command"])[1:], cwd=b).code == 0
    assert json.loads(cli("inbox", "--json", cwd=b).out)["items"] == []


def test_a_registered_repository_that_is_gone_is_a_warning(
    repo: Path, tmp_path: Path, cli: Any
) -> None:
    gone = make_repo(tmp_path / "gone")
    assert cli("init", cwd=gone).code == 0
    assert cli("init", cwd=repo).code == 0
    assert cli("init", cwd=repo).code == 0  # registered once
    shutil.rmtree(gone)
    result = cli("inbox", "--all", cwd=repo)
    assert result.code == 0 and "nothing waits for you" in result.out
    registry = Path(os.environ["XDG_CONFIG_HOME"]) / "taskproto" / "repositories"
    assert result.err.strip() == (
        f"taskproto: warning: {gone}: gone; remove its line from {registry} to stop this warning"
    )


def test_an_agent_past_its_retries_and_a_merge_conflict_wait_for_the_user(
    engine: Engine, repo: Path, cli: Any
) -> None:
    from taskproto.doctor.fixes import requeue
    from taskproto.errors import TaskprotoError
    from taskproto.state.models import AgentState

    engine.create_task("t", ["dev", "qa"])
    engine.claim("t", "s1")
    move_to(engine, "t", "IMPLEMENTATION")
    for _ in range(3):
        engine.set_agent_status("t", "qa", AgentState.ERROR, "tests crash", session="s1")
        requeue(engine, "t", "qa", "agent-error-retryable")
    engine.set_agent_status("t", "qa", AgentState.ERROR, "tests crash", session="s1")
    commit_file(engine.config.agent_worktree("t", "dev"), "same.py", "dev\n")
    commit_file(engine.config.agent_worktree("t", "qa"), "same.py", "qa\n")
    with pytest.raises(TaskprotoError):
        engine.merge("t", session="s1")
    items = json.loads(cli("inbox", "--json").out)["items"]
    assert [(i["reason"], i["command"]) for i in items] == [
        ("agent-retries", "taskproto recover t"),
        ("conflict", "taskproto merge t"),
    ]
    assert items[0]["text"] == "agent qa failed after 3 retries"
    assert "same.py" in items[1]["text"]


def test_the_retry_budget_of_the_inbox_is_the_repositorys_max_retries(
    engine: Engine, repo: Path, cli: Any
) -> None:
    from taskproto.doctor.fixes import requeue
    from taskproto.state.models import AgentState

    (repo / ".taskproto.toml").write_text("max_retries = 1\n")
    engine.create_task("t", ["qa"])
    engine.claim("t", "s1")
    move_to(engine, "t", "IMPLEMENTATION")
    engine.set_agent_status("t", "qa", AgentState.ERROR, "tests crash", session="s1")
    requeue(engine, "t", "qa", "agent-error-retryable")
    engine.set_agent_status("t", "qa", AgentState.ERROR, "tests crash", session="s1")
    items = json.loads(cli("inbox", "--json").out)["items"]
    assert [(i["reason"], i["text"]) for i in items] == [
        ("agent-retries", "agent qa failed after 1 retries")
    ]
    outbox = repo / ".taskproto" / "notify" / "outbox.jsonl"  # the event notify sends
    assert '"reason": "agent-retries"' in outbox.read_text().replace('":"', '": "')

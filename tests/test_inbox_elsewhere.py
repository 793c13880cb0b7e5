"""Found walking `inbox --all` and the notifications as a new user with two repositories: what
names a task of another repository says which repository, so acting on it acts there."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.ops import interrupts
from tests.conftest import make_repo


@pytest.fixture(autouse=True)
def _no_detached_delivery(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TASKPROTO_NOTIFY_DETACH", "0")


def _asked(repo: Path, cli: Any) -> Engine:
    """A task `parser` paused by the user's question, in `repo`."""
    assert cli("init", cwd=repo).code == 0
    engine = Engine(load_config(repo))
    engine.create_task("parser", ["dev"])
    engine.claim("parser", "s1")
    interrupts.record(engine, "parser", "wait, which grammar do we follow?", "s1")
    return engine


def _waiting(repo: Path, cli: Any) -> list[str]:
    return [i["reason"] for i in json.loads(cli("inbox", "--json", cwd=repo).out)["items"]]


def test_inbox_all_names_the_repository_in_the_command_of_anothers_task(
    repo: Path, tmp_path: Path, cli: Any
) -> None:
    _asked(repo, cli)
    there = _asked(make_repo(tmp_path / "other"), cli)
    other = there.config.layout.main
    result = cli("inbox", "--all", cwd=repo)
    assert result.code == 0, result.err
    assert "\n    -> taskproto resume parser\n" in result.out  # this repository's own
    command = f"taskproto -C {shlex.quote(other)} resume parser"
    assert f"    -> {command}\n" in result.out
    items = json.loads(cli("inbox", "--all", "--json", cwd=repo).out)["items"]
    assert [i["command"] for i in items if i["repository"] == other] == [command]
    # run where the user reads it, it resumes the other repository's task, not this one's
    assert cli(*shlex.split(command)[1:], cwd=repo).code == 0
    assert _waiting(Path(other), cli) == [] and _waiting(repo, cli) == ["question"]


def test_a_notification_says_which_repository_it_is_from(
    repo: Path, tmp_path: Path, cli: Any
) -> None:
    """One channel in the user's own config hears every repository: each event names its own."""
    received = tmp_path / "events.jsonl"
    config = Path(__import__("os").environ["XDG_CONFIG_HOME"]) / "taskproto" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(f'[notify]\ncommand = "cat >> {received}; echo >> {received}"\n')
    other = make_repo(tmp_path / "other")
    for where in (repo, other):
        _asked(where, cli)
        assert cli("notify", "flush", cwd=where).code == 0
    events = [json.loads(line) for line in received.read_text().splitlines() if line]
    assert [(e["task"], e["reason"]) for e in events] == [("parser", "question")] * 2
    assert [e["repository"] for e in events] == [str(repo), str(other)]


def test_what_paused_a_task_is_named_in_words(repo: Path, cli: Any) -> None:
    """`agent say` and the clients' prompts pause a task with whatever the user typed: the inbox
    names it a message or a status request, not by the classifier's constant."""
    assert cli("init", cwd=repo).code == 0
    engine = Engine(load_config(repo))
    for name, said in (("t1", "hello sandbox"), ("t2", "what is the status?")):
        engine.create_task(name, [])
        engine.claim(name, "s1")
        interrupts.record(engine, name, said, "s1")
    texts = [i["text"] for i in json.loads(cli("inbox", "--json").out)["items"]]
    assert texts == [
        "paused by your message: hello sandbox",
        "paused by your status request: what is the status?",
    ]

"""The outbox stays bounded: `notify flush` drops events past `keep_days` and, past `keep` events,
the oldest every channel took first; an event not delivered to a channel that is down goes only
past the bound. `seen/` markers go when their key no longer waits, never while it does."""

from __future__ import annotations

import hashlib
import json
import os
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from taskproto.engine import Engine, attention
from taskproto.state.models import AgentState
from tests.conftest import commit_file
from tests.hooks.agents.conftest import move_to


@pytest.fixture
def channel(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A logging command, down while `<tmp>/down` exists; at most 3 events kept."""
    log = tmp_path / "notified.jsonl"
    script = tmp_path / "log-event"
    down = tmp_path / "down"
    script.write_text(f"#!/bin/sh\n[ -e '{down}' ] && exit 1\ncat >> '{log}'\necho >> '{log}'\n")
    script.chmod(0o755)
    (repo / ".taskproto.toml").write_text(f'[notify]\ncommand = "{script}"\nkeep = 3\n')
    monkeypatch.setenv("TASKPROTO_NOTIFY_DETACH", "0")
    return log


def event(engine: Engine, n: int, age: timedelta = timedelta(0)) -> None:
    at = (datetime.now(UTC) - age).isoformat()
    os.makedirs(attention.folder(engine.config.layout), exist_ok=True)
    attention.append(
        engine.config.layout,
        {"id": f"e{n}", "task": "t", "reason": "question", "key": f"t|question|{n}", "time": at}
        | {"text": f"question {n}", "command": "taskproto resume t"},
    )


def outbox(engine: Engine) -> list[str]:
    path = Path(attention.folder(engine.config.layout)) / attention.OUTBOX
    return [json.loads(line)["id"] for line in path.read_text().splitlines()]


def delivered(engine: Engine) -> list[str]:
    path = Path(attention.folder(engine.config.layout)) / "delivered.jsonl"
    return [json.loads(line)["id"] for line in path.read_text().splitlines()]


def logged(log: Path) -> list[str]:
    return [json.loads(x)["id"] for x in log.read_text().splitlines() if x.strip()]


def flush(cli: Any) -> tuple[int, dict[str, Any]]:
    result = cli("notify", "flush", "--json")
    return result.code, dict(json.loads(result.out))


def test_past_the_count_delivered_events_go_first_and_undelivered_only_past_the_bound(
    engine: Engine, channel: Path, cli: Any, tmp_path: Path
) -> None:
    for n in range(1, 6):
        event(engine, n)
    code, report = flush(cli)
    assert code == 0 and report["trimmed"]["events"] == 2
    assert outbox(engine) == ["e3", "e4", "e5"] and delivered(engine) == ["e3", "e4", "e5"]
    # the channel goes down: what it did not take is kept, the delivered go first
    (tmp_path / "down").touch()
    event(engine, 6)
    event(engine, 7)
    code, report = flush(cli)
    assert code == 1 and outbox(engine) == ["e5", "e6", "e7"]
    event(engine, 8)
    event(engine, 9)
    code, report = flush(cli)
    # e5 (delivered) first; still over the bound of 3: the oldest undelivered, e6, goes too
    assert code == 1 and outbox(engine) == ["e7", "e8", "e9"]
    assert report["trimmed"] == {"events": 2, "deliveries": 1, "markers": 0}
    # back up: each kept event is delivered once
    (tmp_path / "down").unlink()
    assert flush(cli)[0] == 0 and flush(cli)[0] == 0
    assert logged(channel) == ["e1", "e2", "e3", "e4", "e5", "e7", "e8", "e9"]


def test_events_past_keep_days_go_even_undelivered(
    engine: Engine, channel: Path, cli: Any, tmp_path: Path, repo: Path
) -> None:
    (repo / ".taskproto.toml").write_text(
        (repo / ".taskproto.toml").read_text().replace("keep = 3", "keep_days = 2")
    )
    (tmp_path / "down").touch()
    event(engine, 1, timedelta(days=3))
    event(engine, 2, timedelta(hours=30))  # not sent any more (a day), kept for keep_days
    event(engine, 3)
    code, report = flush(cli)
    assert code == 1 and report["trimmed"]["events"] == 1
    assert outbox(engine) == ["e2", "e3"]
    (tmp_path / "down").unlink()
    assert flush(cli)[0] == 0 and logged(channel) == ["e3"]


def test_a_bad_bound_is_refused(engine: Engine, channel: Path, cli: Any, repo: Path) -> None:
    (repo / ".taskproto.toml").write_text('[notify]\ncommand = "true"\nkeep = 0\n')
    result = cli("notify", "flush")
    assert result.code == 1
    assert "[notify] keep must be a whole number of at least 1, not 0" in result.err


def test_a_marker_goes_when_its_key_no_longer_waits_never_while_it_does(
    engine: Engine, channel: Path, cli: Any, repo: Path
) -> None:
    engine.create_task("t", ["dev"])
    move_to(engine, "t", "IMPLEMENTATION")
    commit_file(engine.config.agent_worktree("t", "dev"), "a.py")
    engine.merge("t")
    move_to(engine, "t", "AWAITING_USER_APPROVAL")  # waits: commit-approval noted
    seen = Path(attention.folder(engine.config.layout)) / attention.SEEN
    (item,) = json.loads(cli("inbox", "--json").out)["items"]
    waiting = hashlib.sha1(item["key"].encode()).hexdigest()
    # the plan approval SYNTHESIS waited for is past, and so is a key of long ago
    (seen / ("0" * 40)).touch()
    assert len(list(seen.iterdir())) == 3
    old = time.time() - 8 * 86400
    for marker in seen.iterdir():
        os.utime(marker, (old, old))
    code, report = flush(cli)
    assert code == 0 and report["trimmed"]["markers"] == 2
    assert [m.name for m in seen.iterdir()] == [waiting]
    # the key still waiting is not noted again by the next save
    before = outbox(engine)
    engine.set_agent_status("t", "dev", AgentState.COMPLETE)
    assert outbox(engine) == before

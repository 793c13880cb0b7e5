"""A `[notify] command` gets each event as one line of JSON on stdin, newline included, so the
shell's `while read -r line` sees it and `cat >> log` makes a JSON Lines file. Found walking the
notifications as a new user: `command = "cat >> notified.jsonl"` gave one line of every event run
together, and a `read` loop saw nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taskproto.engine import Engine
from taskproto.ops import interrupts

SESSION = "s1"


def test_a_notify_command_reads_each_event_as_a_line(
    engine: Engine, repo: Path, cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    by_line, appended = tmp_path / "by-line.jsonl", tmp_path / "appended.jsonl"
    script = tmp_path / "on-event"
    script.write_text(
        "#!/bin/sh\n"
        f"tee -a '{appended}' | while IFS= read -r line; do printf '%s\\n' \"$line\" >> "
        f"'{by_line}'; done\n"
    )
    script.chmod(0o755)
    (repo / ".taskproto.toml").write_text(f'[notify]\ncommand = "{script}"\n')
    monkeypatch.setenv("TASKPROTO_NOTIFY_DETACH", "0")
    engine.create_task("t1")
    engine.claim("t1", SESSION)
    interrupts.record(engine, "t1", "wait, is this the right table?", SESSION)
    result = cli("notify", "flush", "--json")
    assert result.code == 0, result.err
    assert [d["channel"] for d in json.loads(result.out)["delivered"]] == ["command"]
    for log in (by_line, appended):
        lines = log.read_text().splitlines()
        assert [(e["task"], e["reason"]) for e in map(json.loads, lines)] == [("t1", "question")]

"""The client hooks record each session's last event for the board: cheap, safe, never failing."""

from __future__ import annotations

import json
import os
from pathlib import Path

from taskproto.engine import Engine
from taskproto.hooks.agents import activity
from tests.hooks.agents.conftest import Hook, payload


def test_each_event_overwrites_the_sessions_activity(
    engine: Engine, task: str, agent_wt: Path, hook: Hook
) -> None:
    root = str(engine.config.root)
    for client, event, expected in (
        ("claude", "UserPromptSubmit", "working"),
        ("claude", "PreToolUse", "working"),
        ("claude", "Stop", "idle"),
        ("claude", "Notification", "waiting"),
        ("gemini", "BeforeTool", "working"),
        ("gemini", "AfterAgent", "idle"),
        ("codex", "Stop", "idle"),
    ):
        data = (
            json.dumps({"session_id": "s1", "cwd": str(agent_wt), "message": "needs you"}).encode()
            if event == "Notification"
            else payload(client, event, session_id="s1", cwd=str(agent_wt))
        )
        code, _out, err = hook(client, event, data)
        assert code == (2 if event in ("PreToolUse", "BeforeTool") else 0), err  # INIT: no edits
        seen = activity.read_all(root)
        assert list(seen) == ["s1"]
        assert (seen["s1"]["client"], seen["s1"]["event"]) == (client, event)
        assert activity.status(seen["s1"]["event"]) == expected
        assert seen["s1"]["cwd"] == str(agent_wt)
    assert os.listdir(os.path.join(root, "activity")) == ["s1.json"]  # no temp files left


def test_notification_is_recorded_and_nothing_else(
    engine: Engine, task: str, agent_wt: Path, hook: Hook
) -> None:
    before = engine.config.task_file(task).read_bytes()
    data = json.dumps(
        {
            "session_id": "s2",
            "cwd": str(agent_wt),
            "hook_event_name": "Notification",
            "message": "Claude needs your permission to use Bash",
            "notification_type": "permission_prompt",
        }
    ).encode()
    assert hook("claude", "Notification", data) == (0, "", "")
    assert activity.read_all(str(engine.config.root))["s2"]["detail"].startswith("Claude needs")
    assert engine.config.task_file(task).read_bytes() == before


def test_hostile_session_ids_never_become_paths(
    engine: Engine, task: str, agent_wt: Path, hook: Hook
) -> None:
    root = engine.config.root
    for session in ("../../escape", ".hidden", "a/b", "x" * 500, "ok-1.2_3"):
        hook("claude", "Stop", payload("claude", "Stop", session_id=session, cwd=str(agent_wt)))
    names = sorted(os.listdir(root / "activity"))
    assert "ok-1.2_3.json" in names
    assert all("/" not in n and not n.startswith(".") for n in names)
    assert len(names) == 5
    assert not (root.parent / "escape.json").exists()
    assert set(activity.read_all(str(root))) == {
        "../../escape",
        ".hidden",
        "a/b",
        "x" * 500,
        "ok-1.2_3",
    }


def test_a_planted_link_is_not_written_through(
    engine: Engine, task: str, agent_wt: Path, hook: Hook, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    # records of `sh` there, as its sweep would find them: never renamed or removed through it
    planted = {"s1+1.sh": "one", "s1+2.sh": "two", "s1.sh": "base"}
    for name, text in planted.items():
        (outside / name).write_text(text)
    (engine.config.root / "activity").symlink_to(outside)
    code, _, _ = hook(
        "claude", "Stop", payload("claude", "Stop", session_id="s1", cwd=str(agent_wt))
    )
    assert code == 0
    assert {p.name: p.read_text() for p in outside.iterdir()} == planted


def test_no_trace_where_taskproto_is_not_set_up(tmp_path: Path, hook: Hook) -> None:
    from tests.conftest import make_repo

    repo = make_repo(tmp_path / "plain")
    code, _, _ = hook("claude", "Stop", payload("claude", "Stop", session_id="s1", cwd=str(repo)))
    assert code == 0
    assert not (repo / ".taskproto").exists()


def test_waiting_on_the_user_turns_idle_into_waiting() -> None:
    assert activity.status("Stop", waiting_on_user=True) == "waiting"
    assert activity.status("PreToolUse", waiting_on_user=True) == "working"
    assert activity.status("SessionEnd") == "ended"
    assert activity.status("SomethingNew") == "working"


def test_the_last_tool_is_kept_until_the_next_one(
    engine: Engine, task: str, agent_wt: Path, hook: Hook
) -> None:
    root = str(engine.config.root)
    assert activity.read_all(root) == {}
    data = payload("claude", "PreToolUse", session_id="s3", cwd=str(agent_wt))
    hook("claude", "PreToolUse", data)
    tool = json.loads(data)["tool_name"]
    assert activity.read_all(root)["s3"]["tool"] == tool
    for event in ("Stop", "UserPromptSubmit"):  # events that name no tool keep the last one
        hook("claude", event, payload("claude", event, session_id="s3", cwd=str(agent_wt)))
        seen = activity.read_all(root)["s3"]
        assert (seen["event"], seen["tool"]) == (event, tool)
    data = payload("gemini", "BeforeTool", session_id="s3", cwd=str(agent_wt))
    hook("gemini", "BeforeTool", data)
    assert activity.read_all(root)["s3"]["tool"] == json.loads(data)["tool_name"]

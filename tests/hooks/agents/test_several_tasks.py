"""A session that owns several tasks: the hooks act for the task whose worktree the session is in
(issue #39)."""

from __future__ import annotations

import json

from taskproto.engine import Engine
from taskproto.ops.review import request_revision

from .conftest import Hook, move_to, payload
from .test_tool_guard import write_call


def test_board_comments_reach_the_agent_in_that_tasks_worktree(engine: Engine, hook: Hook) -> None:
    engine.create_task("a1", ["dev"], description="the first")
    engine.create_task("t1", ["dev"], description="the second")
    engine.claim("a1", "s1")
    engine.claim("t1", "s1")
    move_to(engine, "t1", "SYNTHESIS")
    request_revision(engine, "t1", "board:u", "split the widget in two")
    worktree = engine.config.agent_worktree("t1", "dev")

    code, out, err = hook(
        "claude",
        "UserPromptSubmit",
        payload(
            "claude", "UserPromptSubmit", session_id="s1", prompt="where are we?", cwd=str(worktree)
        ),
    )
    assert code == 0, err
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert "task t1" in context and "split the widget in two" in context
    assert [i.text for i in engine.load("t1").interruptions] == ["where are we?"]
    assert engine.load("a1").interruptions == []

    code, out, err = hook(
        "claude",
        "SessionStart",
        payload("claude", "SessionStart", session_id="s1", source="compact", cwd=str(worktree)),
    )
    assert code == 0, err
    assert "owns task t1" in out and "split the widget in two" in out


def test_the_tool_guard_judges_by_the_task_whose_worktree_the_session_is_in(
    engine: Engine, hook: Hook
) -> None:
    engine.create_task("a1", ["dev"], description="the first")
    engine.create_task("t1", ["dev"], description="the second")
    engine.claim("t1", "s1")
    move_to(engine, "t1", "IMPLEMENTATION")
    engine.claim("a1", "s1")  # the session's last claim: a1, in INIT (no edits)
    worktree = engine.config.agent_worktree("t1", "dev")
    event, data = write_call("claude", worktree / "widget.py", worktree)
    code, _, err = hook("claude", event, data)
    assert code == 0, err
    # a1's own worktree still follows a1's state
    other = engine.config.agent_worktree("a1", "dev")
    event, data = write_call("claude", other / "widget.py", other)
    code, _, err = hook("claude", event, data)
    assert code == 2 and "INIT" in err

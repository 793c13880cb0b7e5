"""Tasks in the states a board shows, made through the real engine, git and the client hooks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from taskproto.engine import Engine
from taskproto.hooks.agents.runner import run_agent_hook
from taskproto.ops import plan_task
from taskproto.ops.interrupts import record
from taskproto.state.models import AgentState
from tests.conftest import commit_file

PAYLOADS = Path(__file__).resolve().parents[1] / "clients" / "payloads"
ORDER = [
    "INIT",
    "CLASSIFIED",
    "REQUIREMENTS",
    "SYNTHESIS",
    "IMPLEMENTATION",
    "VALIDATION",
    "REVIEW",
    "AWAITING_USER_APPROVAL",
]


def move_to(engine: Engine, name: str, state: str, session: str | None) -> None:
    """Walk a task-protocol task forward to `state` (the plan approved by "user" on the way)."""
    for s in ORDER[ORDER.index(engine.load(name).state) + 1 :]:
        task = engine.load(name)
        if task.state == state:
            return
        if s == "IMPLEMENTATION":
            engine.approve(name, "plan", "user")
        if s == "VALIDATION":
            for a in task.required_agents:
                engine.set_agent_status(name, a, AgentState.COMPLETE, session=session)
        engine.fire(name, target=s, session=session)
    assert engine.load(name).state == state


def hook(engine: Engine, client: str, event: str, session: str, cwd: Path, **fields: Any) -> None:
    """One real client hook call (a captured payload, rewritten), as the installed hook runs it."""
    variant = PAYLOADS / client / f"{event}.json"
    data = json.loads(variant.read_text()) if variant.exists() else {"hook_event_name": event}
    data.update({"session_id": session, "cwd": str(cwd), **fields})
    code, _out, err = run_agent_hook(client, event, json.dumps(data).encode(), {}, pid=None)
    assert code == 0, err


def commit_on_task(engine: Engine, name: str, file: str, content: str, message: str) -> str:
    return commit_file(engine.config.task_worktree(name), file, content, message)


def build(engine: Engine) -> dict[str, str]:
    """widget: awaits the user's commit approval (agent idle -> waiting); parser: agent working;
    docs: waits for the plan approval and was interrupted; cache: a plan-task context to review.
    Returns the sessions by task."""
    sessions = {"widget": "s-widget-1", "parser": "s-parser-2", "docs": "s-docs-3"}
    engine.create_task("widget", ["dev"], description="Add the widget to the settings page")
    engine.claim("widget", sessions["widget"])
    move_to(engine, "widget", "IMPLEMENTATION", sessions["widget"])
    commit_on_task(
        engine,
        "widget",
        "widget.py",
        'def widget(size: int = 3) -> str:\n    """A widget of `size` stars."""\n'
        '    return "*" * size\n',
        "widget: first cut",
    )
    commit_on_task(
        engine,
        "widget",
        "README.md",
        "# test repo\n\nNow with a widget: `widget(5)`.\n",
        "docs: mention the widget",
    )
    move_to(engine, "widget", "AWAITING_USER_APPROVAL", sessions["widget"])
    widget_wt = engine.config.agent_worktree("widget", "dev")
    hook(engine, "claude", "UserPromptSubmit", sessions["widget"], widget_wt, prompt="go on")
    hook(engine, "claude", "Stop", sessions["widget"], widget_wt)

    engine.create_task("parser", ["dev", "qa"], description="Parse the new config format")
    engine.claim("parser", sessions["parser"])
    move_to(engine, "parser", "IMPLEMENTATION", sessions["parser"])
    engine.set_agent_status("parser", "dev", AgentState.WORKING, session=sessions["parser"])
    parser_wt = engine.config.agent_worktree("parser", "dev")
    hook(
        engine,
        "claude",
        "PreToolUse",
        sessions["parser"],
        parser_wt,
        tool_name="Bash",
        tool_input={"command": "pytest -q"},
    )

    engine.create_task("docs", [], description="Rewrite the install guide")
    engine.claim("docs", sessions["docs"])
    move_to(engine, "docs", "SYNTHESIS", sessions["docs"])
    record(engine, "docs", "how will you handle Windows paths?", sessions["docs"])
    hook(
        engine,
        "claude",
        "Notification",
        sessions["docs"],
        engine.config.task_worktree("docs"),
        message="Claude is waiting for your input",
    )

    engine.create_task("cache", workflow="plan-task", description="Plan a cache for the index")
    plan_task.submit(
        engine,
        "cache",
        {
            "context_summary": "The index is rebuilt on every request; cache it per revision.",
            "affected_files": ["index.py", "store.py"],
            "questions_for_developer": [],
        },
    )
    return sessions

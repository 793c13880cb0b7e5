"""The TUI's columns view (a column per state, a lane per workflow, as the board's) switched with
`c`, its arrows moving the selection the keys act on; and the agent controls: start (the agent and
its client typed in), stop and attach, through the same operations as `taskproto agent`, with the
stand-in client of tests/agents, every process cleaned up."""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from taskproto.config import load_config  # noqa: E402
from taskproto.engine import Engine  # noqa: E402
from taskproto.ops import agent_records as rec  # noqa: E402
from taskproto.ops import plan_task  # noqa: E402
from taskproto.ops.agent_tmux import socket_path  # noqa: E402
from taskproto.tui.app import TaskprotoApp  # noqa: E402
from tests.agents.conftest import agents_repo, pid_alive, standin  # noqa: E402, F401
from tests.hooks.agents.conftest import move_to  # noqa: E402

USER = "tui:me"


@pytest.fixture(autouse=True)
def _no_detached_delivery(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TASKPROTO_NOTIFY_DETACH", "0")


def drive(engine: Engine, script: Callable[[TaskprotoApp, Any], Awaitable[None]]) -> None:
    app = TaskprotoApp(engine, USER)

    async def main() -> None:
        async with app.run_test(size=(200, 50)) as pilot:
            await pilot.pause()
            await script(app, pilot)

    asyncio.run(main())


def shown(app: TaskprotoApp, selector: str) -> str:
    """What the widget shows, as text (a Rich renderable printed as the terminal would)."""
    import io

    from rich.console import Console

    content = app.query_one(selector).content  # type: ignore[attr-defined]
    if hasattr(content, "plain"):
        return str(content.plain)
    console = Console(width=400, file=io.StringIO(), record=True)
    console.print(content)
    return console.export_text()


def status(app: TaskprotoApp) -> str:
    return str(app.query_one("#status").render())


async def until(pilot: Any, check: Callable[[], bool], what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.05)


def test_the_columns_view_switches_and_its_arrows_select(engine: Engine, repo: Path) -> None:
    engine.create_task("a", ["dev"])
    engine.create_task("b", ["dev"])
    move_to(engine, "b", "SYNTHESIS")
    engine.create_task("p", workflow="plan-task")
    plan_task.submit(
        engine, "p", {"context_summary": "c", "affected_files": [], "questions_for_developer": []}
    )

    async def script(app: TaskprotoApp, pilot: Any) -> None:
        assert not app.query_one("#columns-pane").has_class("shown")
        await pilot.press("c")
        assert app.query_one("#columns-pane").has_class("shown")
        assert app.query_one("#tasks").has_class("hidden")
        text = shown(app, "#columns")
        # a lane per workflow, a column per state in the workflow's order, empty ones too
        assert text.index("task-protocol") < text.index("plan-task")
        for header in ("INIT (1)", "CLASSIFIED", "SYNTHESIS (1)", "CLEANUP", "REVIEW_CONTEXT (1)"):
            assert header in text, header
        assert text.index("INIT (1)") < text.index("SYNTHESIS (1)")
        assert "> a" in text and "! plan-approval" in text and "! review" in text
        assert app.selected() == "a"
        await pilot.press("right")  # the next column with a task: SYNTHESIS
        assert app.selected() == "b" and "> b" in shown(app, "#columns")
        await pilot.press("down")  # on, in reading order: plan-task's REVIEW_CONTEXT
        assert app.selected() == "p"
        await pilot.press("left")
        assert app.selected() == "b"
        await pilot.press("a")  # the keys act on the task selected in the columns
        assert status(app) == "b: approved the plan (SYNTHESIS)"
        await pilot.press("c")
        assert not app.query_one("#columns-pane").has_class("shown")
        assert app.query_one("#tasks").has_focus and app.selected() == "b"

    drive(engine, script)
    assert engine.load("b").checkpoint.plan_approval is not None


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_start_attach_and_stop_an_agent_from_the_tui(
    agents_repo: Path,  # noqa: F811
    standin: Path,  # noqa: F811
) -> None:
    engine = Engine(load_config(agents_repo))
    engine.create_task("t", ["dev", "qa"])
    client = f"{sys.executable} {standin}"

    async def script(app: TaskprotoApp, pilot: Any) -> None:
        await pilot.press("s")
        message = app.query_one("#message")
        assert message.has_class("shown") and message.value == "dev claude"  # type: ignore[attr-defined]
        assert "claude, codex, gemini or a command line" in message.placeholder  # type: ignore[attr-defined]
        message.value = f"dev {client}"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await until(pilot, lambda: status(app).startswith("t: started dev"), "the start")
        record = rec.read(engine.config, "t", "dev")
        assert record is not None and record["client"] == client and not record["headless"]
        assert pid_alive(record["pid"])
        await until(pilot, lambda: "dev  run: running" in shown(app, "#activity"), "its run")

        # attach: the pilot's terminal cannot be handed over; said in one line, nothing lost
        await pilot.press("t")
        assert app.query_one("#message").value == "dev"  # type: ignore[attr-defined]
        await pilot.press("enter")
        assert status(app) == (
            "refused: this terminal cannot be handed over; run `taskproto agent attach t dev` "
            "in another"
        )
        await pilot.press("t")
        app.query_one("#message").value = "qa"  # type: ignore[attr-defined]
        await pilot.press("enter")
        assert status(app).startswith("refused: agent qa of task t has no tmux window")

        await pilot.press("x")
        assert app.query_one("#message").value == "dev"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await until(pilot, lambda: status(app) == "t: dev: stopped", "the stop")
        assert not pid_alive(record["pid"])

    drive(engine, script)


def test_an_agent_cannot_be_started_for_an_unknown_agent(engine: Engine, repo: Path) -> None:
    engine.create_task("t", ["dev"])

    async def script(app: TaskprotoApp, pilot: Any) -> None:
        await pilot.press("s")
        app.query_one("#message").value = "nobody true"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await until(pilot, lambda: status(app).startswith("refused:"), "the refusal")
        assert status(app) == "refused: task 't' has no agent 'nobody' (its agents: dev)"
        await pilot.press("s", "escape")  # Esc cancels: nothing asked any more
        assert not app.query_one("#message").has_class("shown")

    drive(engine, script)
    assert rec.read(engine.config, "t", "nobody") is None


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_attach_hands_the_terminal_to_the_agent_and_back(
    agents_repo: Path,  # noqa: F811
    standin: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`taskproto tui` in a real terminal (an outer tmux): t, Enter suspends it and attaches to
    the agent's window; what is typed reaches the agent; detaching brings the TUI back."""
    from tests.agents.conftest import wait_until

    monkeypatch.setenv("STANDIN_MODE", "echo")
    engine = Engine(load_config(agents_repo))
    engine.create_task("t", ["dev"])
    from taskproto.ops import agent_control

    agent_control.start(engine, "t", "dev", f"{sys.executable} {standin}", False, None)
    sock = socket_path(engine.config)
    outer = str(tmp_path / "outer.sock")

    def tmux(server: str, *args: str) -> str:
        done = subprocess.run(["tmux", "-S", server, *args], capture_output=True, text=True)
        return done.stdout

    def screen() -> str:
        return tmux(outer, "capture-pane", "-p", "-t", "outer")

    try:
        size = ["-x", "160", "-y", "40", "-c", str(agents_repo)]
        tmux(outer, "-f", "/dev/null", "new-session", "-d", "-s", "outer", *size)
        command = f"{sys.executable} -m taskproto -C {agents_repo} tui"
        tmux(outer, "send-keys", "-t", "outer", command, "Enter")
        wait_until(lambda: "inbox: nothing waits" in screen(), what="the TUI")
        tmux(outer, "send-keys", "-t", "outer", "t")
        prompt = re.compile(r"^\W+dev\s+\W+$", re.M)  # the prompt's box, filled with the agent
        wait_until(lambda: prompt.search(screen()), what="the prompt")
        tmux(outer, "send-keys", "-t", "outer", "Enter")
        wait_until(lambda: "stand-in run 0" in screen(), what="the agent's window")
        tmux(outer, "send-keys", "-t", "outer", "typed through the tui", "Enter")
        wait_until(
            lambda: (
                "got: typed through the tui"
                in tmux(sock, "capture-pane", "-p", "-t", "taskproto:t/dev")
            ),
            what="the agent's input",
        )
        tmux(sock, "detach-client", "-s", "taskproto")  # as the user's prefix, then d
        wait_until(lambda: "t: detached from dev" in screen(), what="the TUI back")
        tmux(outer, "send-keys", "-t", "outer", "q")
    finally:
        subprocess.run(["tmux", "-S", outer, "kill-server"], capture_output=True, check=False)

"""`taskproto tui` driven through Textual's pilot: approve (the head shown), revise with a
message, resume, next and land act as the user, through the engine, and the journal says so; a
head that moved is refused; a change made by the CLI shows without a key."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

pytest.importorskip("textual")

from taskproto.engine import Engine  # noqa: E402
from taskproto.ops import interrupts  # noqa: E402
from taskproto.tui.app import TaskprotoApp  # noqa: E402
from tests.conftest import commit_file, git, run_taskproto  # noqa: E402
from tests.hooks.agents.conftest import move_to  # noqa: E402

USER = "tui:me"


@pytest.fixture(autouse=True)
def _no_detached_delivery(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TASKPROTO_NOTIFY_DETACH", "0")


def at_approval(engine: Engine, name: str) -> str:
    """Task `name` (agent dev) merged and at AWAITING_USER_APPROVAL, owned by nobody."""
    engine.create_task(name, ["dev"])
    move_to(engine, name, "IMPLEMENTATION")
    commit_file(engine.config.agent_worktree(name, "dev"), f"{name}.py")
    engine.merge(name)
    move_to(engine, name, "AWAITING_USER_APPROVAL")
    return git(engine.config.repo, "rev-parse", name)


def journal(repo: Path, name: str) -> list[str]:
    return git(repo, "log", "--format=%s", f"refs/taskproto/tasks/{name}").splitlines()


def drive(
    engine: Engine, script: Callable[[TaskprotoApp, object], Awaitable[None]]
) -> TaskprotoApp:
    app = TaskprotoApp(engine, USER)

    async def main() -> None:
        async with app.run_test(size=(160, 48)) as pilot:
            await pilot.pause()
            await script(app, pilot)

    asyncio.run(main())
    return app


def status(app: TaskprotoApp) -> str:
    return str(app.query_one("#status").render())


def test_approve_next_and_land_from_the_tui(engine: Engine, repo: Path) -> None:
    head = at_approval(engine, "t")

    async def script(app: TaskprotoApp, pilot: object) -> None:
        assert app.items[0]["reason"] == "commit-approval"
        await pilot.press("a")  # type: ignore[attr-defined]
        assert status(app) == f"t: approved {head[:12]}"
        await pilot.press("n")  # type: ignore[attr-defined]
        assert "COMPLETE" in status(app)
        await pilot.press("l")  # type: ignore[attr-defined]
        assert status(app).startswith(f"t: landed {head[:12]} on main"), status(app)

    drive(engine, script)
    # the task is landed and cleaned up: its journal tells what the TUI did, as the user
    archived = git(repo, "for-each-ref", "--format=%(refname)", "refs/taskproto/archive/t/")
    messages = git(repo, "log", "--format=%s", archived).splitlines()
    assert messages[0].startswith("land") and any(m.startswith("approve") for m in messages)
    assert git(repo, "merge-base", "--is-ancestor", head, "main") == ""
    last = git(repo, "show", f"{archived}:task.json")
    assert f'"by": "{USER}"' in last and f'"sha": "{head}"' in last
    assert '"state": "CLEANUP"' in last


def test_an_approval_of_a_head_that_moved_is_refused(engine: Engine, repo: Path) -> None:
    head = at_approval(engine, "t")

    async def script(app: TaskprotoApp, pilot: object) -> None:
        # the branch moves after the TUI showed it, before it looked again
        commit_file(engine.config.task_worktree("t"), "late.py")
        app.rows[0]["head"] = head  # what the screen shows
        await app.run_action("approve")
        assert status(app).startswith("refused: the task branch t is at")

    drive(engine, script)
    assert engine.load("t").checkpoint.commit_approval is None


def test_revise_with_a_message_and_resume(engine: Engine, repo: Path) -> None:
    at_approval(engine, "t")

    async def script(app: TaskprotoApp, pilot: object) -> None:
        await pilot.press("r")  # type: ignore[attr-defined]
        await pilot.press(*"cover empty input")  # type: ignore[attr-defined]
        await pilot.press("enter")  # type: ignore[attr-defined]
        assert status(app) == "t: sent back to IMPLEMENTATION"
        interrupts.record(engine, "t", "wait, which parser do we use?", "s1")
        app.reload()
        assert [i["reason"] for i in app.items] == ["question"]
        await pilot.press("u")  # type: ignore[attr-defined]
        assert status(app) == "t: resumed in IMPLEMENTATION"

    drive(engine, script)
    task = engine.load("t")
    assert task.state == "IMPLEMENTATION" and task.paused_by() is None
    sent = task.context["review"]["sent"][-1]
    assert sent["message"] == "cover empty input" and sent["by"] == USER
    messages = journal(repo, "t")
    assert messages[0].startswith("resume") or "RESUMPTION" in messages[0], messages[:2]
    assert any(m.startswith("revision: request_changes") for m in messages)


def test_a_cli_change_shows_without_a_key(engine: Engine, repo: Path) -> None:
    engine.create_task("t", ["dev"])

    async def script(app: TaskprotoApp, pilot: object) -> None:
        before = app.refreshes
        result = run_taskproto("task", "create", "u", cwd=repo)
        assert result.code == 0, result.err
        for _ in range(100):  # polled with a deadline: the TUI looks every 0.1 s
            await pilot.pause(0.05)  # type: ignore[attr-defined]
            if any(r["name"] == "u" for r in app.rows):
                break
        assert app.refreshes > before and any(r["name"] == "u" for r in app.rows)

    drive(engine, script)


def test_the_tui_command_refuses_an_agent(repo: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "taskproto", "tui"],
        cwd=repo,
        env={**__import__("os").environ, "CLAUDECODE": "1"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1 and "the terminal UI" in proc.stderr


def test_the_selected_tasks_agents_activity_shows(engine: Engine, repo: Path) -> None:
    from taskproto.hooks.agents import activity
    from taskproto.hooks.agents.common import Payload

    engine.create_task("t", ["dev"])
    cwd = str(engine.config.agent_worktree("t", "dev"))
    payload = Payload(b'{"session_id": "agent-1", "tool_name": "Edit"}')

    async def script(app: TaskprotoApp, pilot: object) -> None:
        assert "no agent activity" in str(app.query_one("#activity").render())
        activity.record(engine.config.layout, "claude", "PreToolUse", payload, cwd)
        for _ in range(60):  # polled with a deadline: the TUI reads it every second
            await pilot.pause(0.05)  # type: ignore[attr-defined]
            if "agent-1" in str(app.query_one("#activity").render()):
                break
        shown = str(app.query_one("#activity").render())
        assert shown.startswith("dev  working  claude PreToolUse  Edit"), shown

    drive(engine, script)


def test_a_review_entered_again_since_it_was_shown_is_refused(engine: Engine, repo: Path) -> None:
    from taskproto.ops import plan_task

    engine.create_task("p", workflow="plan-task")
    context = {"context_summary": "cache it", "affected_files": ["a.py"]}
    plan_task.submit(engine, "p", {**context, "questions_for_developer": []})

    async def script(app: TaskprotoApp, pilot: object) -> None:
        assert [(i["task"], i["reason"]) for i in app.items] == [("p", "review")]
        app.rows[0]["entered"] = "2000-01-01T00:00:00"  # what the screen showed: an older entry
        await app.run_action("approve")
        assert status(app).startswith("refused: task p is now in REVIEW_CONTEXT (entered ")
        app.reload()
        await app.run_action("approve")
        assert status(app) == "p: approved the plan (STRATEGIZE)"

    drive(engine, script)
    assert engine.load("p").state == "STRATEGIZE"


def test_a_poll_while_the_app_closes_reads_nothing_and_raises_nothing(
    engine: Engine, repo: Path
) -> None:
    """The poll's timer may tick once more while the app closes, its widgets gone (a loaded CI
    machine saw `NoMatches: '#inbox'` end a day's test): that tick does nothing. Each of the
    poll's two paths (a reload, the activity) is run after the app closed."""
    engine.create_task("t", ["dev"])
    app = drive(engine, lambda app, pilot: asyncio.sleep(0))
    app.poll()  # nothing changed: the activity's path, every ACTIVITY_EVERY polls
    app._polls = -1
    app.poll()
    engine.create_task("u", ["dev"])  # the index changed: the reload's path
    app.poll()
    assert not any(r["name"] == "u" for r in app.rows)  # read nothing once closed

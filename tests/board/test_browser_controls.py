"""The board's controls in a real headless Chromium: a task created from the form, claimed,
approved, completed and landed with the buttons (then main's log and the journal checked); a
blocked task shown blocked; a live owner displaced and work removed only after a confirmation.

Marked `browser` like tests/board/test_browser.py (Chromium from scripts/get_chromium.py); with
TASKPROTO_SCREENSHOTS=DIR the pages are saved there (docs/images/ holds the ones in docs/board.md).
"""

from __future__ import annotations

import getpass
from pathlib import Path
from typing import Any

import pytest

from taskproto.engine import Engine
from taskproto.state import journal
from tests.board.scenario import build, commit_on_task
from tests.board.test_browser import TIMEOUT, shoot
from tests.conftest import git, run_taskproto

pytestmark = pytest.mark.browser
USER = "board:" + getpass.getuser()


def live(page: Any) -> None:
    from playwright.sync_api import expect

    expect(page.locator("#live")).to_have_attribute("data-state", "live", timeout=TIMEOUT)


def test_create_claim_approve_complete_and_land_with_the_buttons(
    page: Any, board_for: Any, repo: Path, engine: Engine, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    board = board_for(repo, "--no-doctor")
    page.goto(f"{board.base}/?token={board.token}")
    live(page)

    # Create from the form (open on an empty board).
    page.fill("#new-name", "feature")
    page.fill("#new-description", "Greet the user")
    page.select_option("#new-priority", "1")
    page.click('button[data-act="create"]')
    expect(page.locator('.col[data-state="INIT"] .card[data-task="feature"]')).to_be_visible(
        timeout=TIMEOUT
    )
    card = page.locator('.card[data-task="feature"]')
    expect(card.locator(".free")).to_have_text("free")
    expect(page.locator("#new-name")).to_have_value("")

    # A second one that waits for it: blocked, with why, and not "free".
    page.fill("#new-name", "followup")
    page.select_option("#new-after", ["feature"])
    page.click('button[data-act="create"]')
    blocked = page.locator('.card[data-task="followup"]')
    expect(blocked.locator(".blocked")).to_have_text(
        "blocked: waits for feature (in INIT)", timeout=TIMEOUT
    )
    expect(blocked.locator(".free")).to_have_count(0)

    # Claim it on its card: the user owns it now.
    card.locator('button[data-act="claim"]').click()
    expect(card.locator(".owner .you")).to_have_text("you", timeout=TIMEOUT)
    expect(card.locator('button[data-act="claim"]')).to_have_count(0)
    expect(card.locator('button[data-act="release"]')).to_have_text("Release")
    shoot(page, "board-controls", tmp_path)

    # The work, moved by its owner (the user) with Next, one step per click.
    card.locator("h4 a").click()
    live(page)
    state = page.locator("#summary .state")
    step = page.locator('#controls button[data-act="next"]')
    for reached in ("CLASSIFIED", "REQUIREMENTS", "SYNTHESIS"):
        step.click()
        expect(state).to_have_text(reached, timeout=TIMEOUT)
    # SYNTHESIS waits for the plan approval: Next says so and moves nothing
    step.click()
    expect(page.locator("#toast")).to_contain_text("waits for plan_approved", timeout=TIMEOUT)
    expect(state).to_have_text("SYNTHESIS")
    page.click('button[data-act="approve"][data-kind="plan"]')
    expect(page.locator('button[data-act="approve"][data-kind="plan"]')).to_have_count(
        0, timeout=TIMEOUT
    )
    step.click()
    expect(state).to_have_text("IMPLEMENTATION", timeout=TIMEOUT)
    head = commit_on_task(engine, "feature", "hello.py", "print('hello')\n", "hello")
    for reached in ("VALIDATION", "REVIEW", "AWAITING_USER_APPROVAL"):
        step.click()
        expect(state).to_have_text(reached, timeout=TIMEOUT)

    # Approve the commit: the approval is then gone from the page, and Complete is offered.
    approve = page.locator('button[data-act="approve"][data-kind="commit"]')
    expect(approve).to_have_attribute("data-sha", head, timeout=TIMEOUT)
    approve.click()
    expect(approve).to_have_count(0, timeout=TIMEOUT)
    expect(page.locator("#summary .badge.you")).to_have_count(0)
    complete = page.locator('#controls button[data-act="complete"]')
    expect(complete).to_be_visible()
    shoot(page, "task-controls", tmp_path)
    complete.click()
    expect(page.locator("#summary .state")).to_have_text("COMPLETE", timeout=TIMEOUT)
    expect(complete).to_have_count(0)

    # Land: the approved commit on main, the task cleaned up, back on the board.
    page.locator('#controls button[data-act="land"]').click()
    page.wait_for_url(f"{board.base}/", timeout=TIMEOUT)
    live(page)
    expect(page.locator('.card[data-task="feature"]')).to_have_count(0, timeout=TIMEOUT)
    expect(page.locator('.card[data-task="followup"] .blocked')).to_have_count(0, timeout=TIMEOUT)
    assert git(repo, "log", "-1", "--format=%s", "main") == (
        "Merge task feature into main: Greet the user"
    )
    assert git(repo, "rev-parse", "main^2") == head
    archived = journal.latest_archive(engine.repo, "feature")
    assert archived is not None
    data = journal.task_json_at(engine.repo, archived)
    assert data is not None and data["state"] == "CLEANUP"
    sessions = {e["trigger"]: e["session"] for e in data["transition_log"]}
    for trigger in ("create", "claim", "approve_plan", "approve_commit", "complete", "land"):
        assert sessions[trigger] == USER, (trigger, sessions)


def test_forcing_takes_a_confirmation(
    page: Any, board_for: Any, repo: Path, engine: Engine
) -> None:
    from playwright.sync_api import expect

    build(engine)
    engine.create_task("scratch", [])
    commit_on_task(engine, "scratch", "idea.txt", "an idea\n", "an idea")
    board = board_for(repo, "--no-doctor")
    page.goto(f"{board.base}/?token={board.token}")
    live(page)

    # A live agent owns parser: its card offers no take-over; its page does, refused with the
    # CLI's message, and taken only once confirmed.
    card = page.locator('.card[data-task="parser"]')
    expect(card.locator("button")).to_have_count(0)
    card.locator("h4 a").click()
    live(page)
    controls = page.locator("#controls")
    controls.locator('button[data-act="claim"]', has_text="Take over").click()
    confirm = controls.locator(".confirm")
    expect(confirm).to_contain_text("is owned by session s-parser-2", timeout=TIMEOUT)
    expect(confirm).to_contain_text("take over with --force (logged)")
    assert engine.load("parser").owner.session == "s-parser-2"  # type: ignore[union-attr]
    confirm.locator("button", has_text="Do it anyway").click()
    expect(controls).to_contain_text("You own it", timeout=TIMEOUT)
    last = engine.load("parser").transition_log[-1]
    assert (last.trigger, last.session, last.forced) == ("takeover", USER, True)

    # Remove asks first; work that would be lost is refused, and discarded only once confirmed.
    page.goto(f"{board.base}/tasks/scratch")
    live(page)
    page.click('#controls button[data-act="remove"]')
    box = page.locator("#controls .confirm")
    expect(box).to_contain_text("Remove task scratch")
    assert engine.config.task_dir("scratch").is_dir()
    box.locator("button", has_text="Yes").click()
    expect(box).to_contain_text("are on no other branch", timeout=TIMEOUT)
    assert engine.config.task_dir("scratch").is_dir()
    box.locator("button", has_text="Do it anyway").click()
    page.wait_for_url(f"{board.base}/", timeout=TIMEOUT)
    assert not engine.config.task_dir("scratch").exists()


def test_removing_with_the_remote_unreachable_says_so_on_the_board_it_returns_to(
    page: Any, board_for: Any, repo: Path, tmp_path: Path
) -> None:
    """The CLI's note that the shared remote was not told (and the next sync will tell it) is
    the board's too, and it is still shown on the board the task page returns to."""
    from playwright.sync_api import expect

    bare = tmp_path / "shared.git"
    git(tmp_path, "init", "--quiet", "--bare", str(bare))
    git(repo, "remote", "add", "origin", bare.as_uri())
    git(repo, "push", "--quiet", "origin", "HEAD")
    assert run_taskproto("init", "--remote", "origin", cwd=repo).code == 0
    assert run_taskproto("task", "create", "scratch", cwd=repo).code == 0
    assert run_taskproto("sync", cwd=repo).code == 0
    git(repo, "remote", "set-url", "origin", (tmp_path / "gone.git").as_uri())
    board = board_for(repo, "--no-doctor")
    page.goto(f"{board.base}/tasks/scratch?token={board.token}")
    live(page)
    page.click('#controls button[data-act="remove"]')
    page.locator("#controls .confirm").locator("button", has_text="Yes").click()
    page.wait_for_url(f"{board.base}/", timeout=TIMEOUT)
    toast = page.locator("#toast")
    expect(toast).to_contain_text("removed task scratch", timeout=TIMEOUT)
    expect(toast).to_contain_text("was not told")
    expect(toast).to_contain_text("next `taskproto sync`")
    assert (repo / ".taskproto" / "removals-pending" / "scratch").exists()

"""The board in a real headless Chromium: tasks shown, a CLI change appears without a reload, the
buttons record the user's approvals and revisions.

Runs in the default suite and in CI (marked `browser` so it can be selected or left out with
`-m`); Chromium comes from scripts/get_chromium.py. With TASKPROTO_SCREENSHOTS=DIR the pages are
saved there (docs/images/ holds the ones in docs/board.md).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from taskproto.engine import Engine
from tests.board.scenario import build
from tests.conftest import run_taskproto

pytestmark = pytest.mark.browser
TIMEOUT = 20_000  # ms; generous: the machine is shared


def shoot(page: Any, name: str, tmp_path: Path) -> None:
    folder = Path(os.environ.get("TASKPROTO_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(300)  # let relative times settle
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_board_is_live_and_its_buttons_act(
    page: Any, board_for: Any, repo: Path, engine: Engine, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    build(engine)
    board = board_for(repo)
    page.goto(f"{board.base}/?token={board.token}")
    assert page.url == f"{board.base}/"  # the token left the address bar for a cookie
    expect(page.locator("#live")).to_have_attribute("data-state", "live", timeout=TIMEOUT)
    for name, state in (
        ("widget", "AWAITING_USER_APPROVAL"),
        ("parser", "IMPLEMENTATION"),
        ("docs", "SYNTHESIS"),
        ("cache", "REVIEW_CONTEXT"),
    ):
        expect(
            page.locator(f'.col[data-state="{state}"] .card[data-task="{name}"]')
        ).to_be_visible()
    expect(page.locator('.card[data-task="parser"] .session.working')).to_be_visible()
    expect(page.locator('.card[data-task="widget"] .badge.you')).to_have_text(
        "waits for commit approval"
    )
    expect(page.locator("#needs")).to_contain_text("docs")
    expect(page.locator(".doctor")).to_contain_text("warning", timeout=TIMEOUT)
    shoot(page, "board", tmp_path)

    # A change made by the CLI in another process appears without a reload.
    page.evaluate("window.__notReloaded = true")
    created = run_taskproto("task", "create", "late", "-d", "made by the CLI", cwd=repo)
    assert created.code == 0, created.err
    expect(page.locator('.col[data-state="INIT"] .card[data-task="late"]')).to_be_visible(
        timeout=TIMEOUT
    )
    moved = run_taskproto("transition", "late", "CLASSIFIED", cwd=repo)
    assert moved.code == 0, moved.err
    expect(page.locator('.col[data-state="CLASSIFIED"] .card[data-task="late"]')).to_be_visible(
        timeout=TIMEOUT
    )
    assert page.evaluate("window.__notReloaded") is True

    # Approve the plan on the task page: recorded as the user, and the page follows.
    page.click('.card[data-task="docs"] h4 a')
    expect(page.locator("#live")).to_have_attribute("data-state", "live", timeout=TIMEOUT)
    page.click('button[data-act="approve"][data-kind="plan"]')
    expect(page.locator('button[data-act="approve"][data-kind="plan"]')).to_have_count(
        0, timeout=TIMEOUT
    )
    approval = engine.load("docs").checkpoint.plan_approval
    assert approval is not None and approval.by is not None and approval.by.startswith("board:")
    expect(page.locator("#log tbody tr").first).to_contain_text("approve_plan")

    # The commit: the button carries the exact head shown; approving it records that sha.
    page.goto(f"{board.base}/tasks/widget")
    expect(page.locator("#live")).to_have_attribute("data-state", "live", timeout=TIMEOUT)
    head = engine.branch_head("widget")
    assert head is not None
    button = page.locator('button[data-act="approve"][data-kind="commit"]')
    expect(button).to_have_attribute("data-sha", head)
    expect(page.locator("#diff .file")).to_have_count(2)
    shoot(page, "task", tmp_path)
    button.click()
    expect(page.locator("#summary .facts")).to_contain_text(
        f"commit approval: {head[:12]} by board:", timeout=TIMEOUT
    )
    expect(page.locator("#summary .badge.you")).to_have_count(0)
    commit = engine.load("widget").checkpoint.commit_approval
    assert commit is not None and commit.sha == head

    # A line comment, then a revision request: the task goes back with the comment.
    row = page.locator('#diff .file[data-file="widget.py"] tr.ln[data-line="3"]')
    row.hover()
    row.locator('button[data-act="comment"]').click()
    page.fill("tr.comment-form textarea", "negative sizes?")
    page.click('button[data-act="save-comment"]')
    expect(page.locator("#review .draft")).to_contain_text("negative sizes?", timeout=TIMEOUT)
    page.fill("#revise-message", "One question first.")
    page.click('button[data-act="revise"]')
    expect(page.locator("#summary .state")).to_have_text("IMPLEMENTATION", timeout=TIMEOUT)
    task = engine.load("widget")
    assert task.state == "IMPLEMENTATION"
    sent = task.context["review"]["sent"][-1]
    assert [(c["file"], c["line"], c["text"]) for c in sent["comments"]] == [
        ("widget.py", 3, "negative sizes?")
    ]

"""The board's share of the notifications: `/api/inbox` (what waits for the user, with the
command that acts on it) and, in a real headless Chromium, a browser notification for each item
that starts waiting while the page is open, never for what the page showed when it opened."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from taskproto.engine import Engine
from tests.board.scenario import build
from tests.conftest import run_taskproto

TIMEOUT = 20_000  # ms; generous: the machine is shared

# Chromium headless has no notification daemon: a stand-in records what the page shows.
RECORDER = """
window.__notes = [];
window.Notification = class {
  constructor(title, options) { window.__notes.push([title, options.body]); }
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
};
"""


def test_the_inbox_route_lists_what_waits_with_its_command(
    board_for: Any, repo: Path, engine: Engine
) -> None:
    build(engine)
    board = board_for(repo, "--no-doctor")
    items = board.get("/api/inbox").json()["items"]
    found = {(i["task"], i["reason"]) for i in items}
    assert {("widget", "commit-approval"), ("docs", "plan-approval"), ("cache", "review")} <= found
    assert ("docs", "question") in found
    widget = next(i for i in items if i["task"] == "widget")
    assert widget["command"] == f"taskproto approve widget --commit {widget['head'][:12]}"
    assert board.get("/api/inbox", token=False).status in (401, 403)


@pytest.mark.browser
def test_a_new_item_becomes_one_browser_notification(
    page: Any, board_for: Any, repo: Path, engine: Engine
) -> None:
    from playwright.sync_api import expect

    build(engine)
    board = board_for(repo, "--no-doctor")
    page.add_init_script(RECORDER)
    page.goto(f"{board.base}/?token={board.token}")
    expect(page.locator("#live")).to_have_attribute("data-state", "live", timeout=TIMEOUT)
    page.wait_for_timeout(500)  # the first inbox read: shown on the page, not notified
    assert page.evaluate("window.__notes") == []
    moved = run_taskproto("interrupt", "record", "parser", "wait, which API version?", cwd=repo)
    assert moved.code == 0, moved.err
    deadline = time.monotonic() + TIMEOUT / 1000  # polled: the page's CSP forbids eval
    while time.monotonic() < deadline and not page.evaluate("window.__notes"):
        page.wait_for_timeout(50)
    page.wait_for_timeout(300)
    notes = page.evaluate("window.__notes")
    assert [n[0] for n in notes] == ["taskproto: parser needs you (question)"]
    assert notes[0][1].endswith("taskproto resume parser")

"""A notification's board link in a real headless Chromium: followed from another site's page,
where the board's strict cookie is not sent, the board asks and shows nothing; its "Continue" link
sends the cookie this browser has and opens the task. A browser without the cookie gets in by
typing the token into the page's field."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from taskproto.engine import Engine
from tests.hooks.agents.conftest import move_to

pytestmark = pytest.mark.browser
TIMEOUT = 20_000  # ms; generous: the machine is shared


@pytest.fixture
def chat() -> Iterator[Any]:
    """Another site (localhost, not the board's 127.0.0.1): a page holding the link."""
    links: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            body = f'<a id="link" href="{links[0]}">taskproto: t needs you</a>'.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield links, f"http://localhost:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_a_link_from_elsewhere_asks_then_the_cookie_or_the_token_opens_it(
    browser: Any, board_for: Any, repo: Path, engine: Engine, chat: Any
) -> None:
    from playwright.sync_api import expect

    engine.create_task("t", ["dev"])
    move_to(engine, "t", "IMPLEMENTATION")
    board = board_for(repo, "--no-doctor")
    link = f"{board.base}/tasks/t"  # what the events carry (tests/board/test_board_links.py)
    links, elsewhere = chat
    links.append(link)

    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{board.base}/?token={board.token}")  # the board opened once: the cookie
        page.goto(elsewhere)
        page.click("#link")
        expect(page.locator("body")).to_contain_text("The board needs its token.", timeout=TIMEOUT)
        assert "IMPLEMENTATION" not in page.content()
        page.click("text=Continue to this page")
        expect(page.locator("body")).to_contain_text("IMPLEMENTATION", timeout=TIMEOUT)
        assert page.url == link
    finally:
        context.close()

    fresh = browser.new_context()  # another browser: no cookie
    try:
        page = fresh.new_page()
        page.goto(link)
        expect(page.locator("body")).to_contain_text("The board needs its token.", timeout=TIMEOUT)
        page.click("text=Continue to this page")  # no cookie: still asked, nothing shown
        expect(page.locator("body")).to_contain_text("The board needs its token.", timeout=TIMEOUT)
        page.fill("input[name=token]", board.token)
        page.click("button[type=submit]")
        expect(page.locator("body")).to_contain_text("IMPLEMENTATION", timeout=TIMEOUT)
        assert page.url == link  # the token left the address bar for the cookie
    finally:
        fresh.close()

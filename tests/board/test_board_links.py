"""Each notification links to the board's page of its task, and the link never carries the
board's token: opened without it, the board asks for it (or the cookie this browser has) and
shows nothing of the repository."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from taskproto.engine import Engine
from taskproto.ops import interrupts
from tests.board.conftest import stop_board
from tests.hooks.agents.conftest import move_to
from tests.test_notify import Receiver


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver()
    try:
        yield found
    finally:
        found.close()


@pytest.fixture
def log(repo: Path, tmp_path: Path, receiver: Receiver, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A logging command and an ntfy webhook; the tests flush."""
    log = tmp_path / "notified.jsonl"
    script = tmp_path / "log-event"
    script.write_text(f"#!/bin/sh\ncat >> '{log}'\necho >> '{log}'\n")
    script.chmod(0o755)
    (repo / ".taskproto.toml").write_text(
        f'[notify]\ncommand = "{script}"\nwebhook = "{receiver.url}"\nformat = "ntfy"\n'
    )
    monkeypatch.setenv("TASKPROTO_NOTIFY_DETACH", "0")
    return log


def events(log: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in log.read_text().splitlines() if x.strip()]


def html(board: Any, path: str, **headers: str) -> Any:
    return board.get(path, token=False, headers={"Accept": "text/html", **headers})


def test_an_event_links_to_the_task_page_without_the_token(
    engine: Engine, repo: Path, cli: Any, board_for: Any, log: Path, receiver: Receiver
) -> None:
    engine.create_task("t", ["dev"])
    move_to(engine, "t", "IMPLEMENTATION")
    board = board_for(repo, "--no-doctor")
    interrupts.record(engine, "t", "wait, which parser do we use?", "s1")
    assert cli("notify", "flush").code == 0
    link = f"{board.base}/tasks/t"
    assert [(e["reason"], e["link"]) for e in events(log)] == [
        ("plan-approval", link),  # SYNTHESIS, on the way
        ("question", link),
    ]
    body = receiver.bodies[-1]
    assert body["click"] == link and body["message"].endswith(f"Board: {link}")
    assert board.token not in log.read_text() and board.token not in json.dumps(body)

    # opened as a notification opens it: no token, no cookie: asked for, nothing shown
    asked = html(board, "/tasks/t")
    assert asked.status == 401 and b"The board needs its token." in asked.body
    assert b'<a href="">Continue to this page</a>' in asked.body
    assert b"wait, which parser" not in asked.body and b"IMPLEMENTATION" not in asked.body
    assert "script-src 'self'" in asked.headers["content-security-policy"]
    # from a chat's page (cross-site: the strict cookie is not sent): the same page, no data
    cross = html(board, "/tasks/t", **{"Sec-Fetch-Site": "cross-site"})
    assert cross.status == 401 and b"IMPLEMENTATION" not in cross.body
    assert board.get("/api/tasks", headers={"Sec-Fetch-Site": "cross-site"}).status == 403
    # the token typed into its form becomes the cookie; the cookie opens the page
    typed = html(board, f"/tasks/t?token={board.token}", **{"Sec-Fetch-Site": "same-origin"})
    assert typed.status == 303 and typed.headers["location"] == "/tasks/t"
    cookie = typed.headers["set-cookie"].split(";")[0]
    page = html(board, "/tasks/t", Cookie=cookie, **{"Sec-Fetch-Site": "same-origin"})
    assert page.status == 200 and b"IMPLEMENTATION" in page.body

    # the board stopped: no link (the address it left is gone)
    stop_board(board)
    assert not (engine.config.root / "board-address.json").exists()
    interrupts.record(engine, "t", "and which version of it?", "s1")
    assert cli("notify", "flush").code == 0
    later = events(log)[-1]
    assert later["text"].endswith("and which version of it?") and "link" not in later


def test_a_fixed_board_address_in_the_settings(
    engine: Engine, repo: Path, cli: Any, log: Path
) -> None:
    settings = repo / ".taskproto.toml"
    settings.write_text(settings.read_text() + 'board = "http://127.0.0.1:8765/"\n')
    engine.create_task("t2", ["dev"])
    move_to(engine, "t2", "SYNTHESIS")
    assert cli("notify", "flush").code == 0
    assert [e["link"] for e in events(log)] == ["http://127.0.0.1:8765/tasks/t2"]
    settings.write_text(settings.read_text().replace("http://127.0.0.1:8765/", "ftp://x"))
    refused = cli("notify", "flush")
    assert refused.code == 1 and "[notify] board must be an http(s) URL" in refused.err

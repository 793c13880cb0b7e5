"""A prompt is never dropped on a stamp alone (issue #39): a stamp planted in taskproto's cache,
Python's `- -` or a marked activity record of `sh`, newer than every task file, cannot make the
installed hook skip recording the user's question on the session's task."""

from __future__ import annotations

import os
import time

from taskproto.engine import Engine

from .conftest import payload
from .fastpath import OWNER, Fast, stop


def _prompt(fast: Fast, text: str) -> bytes:
    cwd = fast.engine.config.repo  # the main checkout: outside taskproto's root
    return payload("claude", "UserPromptSubmit", session_id=OWNER, prompt=text, cwd=str(cwd))


def _future(path: os.PathLike[str] | str) -> None:
    later = time.time() + 3600
    os.utime(path, (later, later))


def test_a_planted_owner_stamp_does_not_drop_the_owners_question(
    fast: Fast, engine: Engine
) -> None:
    stamp = fast.root / "cache" / "quiet" / "owner" / OWNER
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text("- -\n")
    _future(stamp)
    run = fast.run("claude", "UserPromptSubmit", _prompt(fast, "What pattern do you use?"))
    assert run.started, "the prompt went to Python"
    assert run.answer[0] == 0, run.answer
    assert [i.text for i in engine.load("t1").interruptions] == ["What pattern do you use?"]


def test_a_planted_quiet_record_does_not_drop_the_owners_question(
    fast: Fast, engine: Engine
) -> None:
    record = fast.root / "activity" / f"{OWNER}.sh"
    record.write_text(
        f'{{"session": "{OWNER}", "client": "claude", "event": "Stop", "cwd": "/", '
        '"detail": "", "quiet": "owns no task"}\n'
    )
    _future(record)
    run = fast.run("claude", "UserPromptSubmit", _prompt(fast, "Why this library?"))
    assert run.started and run.answer[0] == 0, run.answer
    assert [i.text for i in engine.load("t1").interruptions] == ["Why this library?"]


def test_a_turn_of_a_session_with_no_task_still_stays_in_sh(fast: Fast) -> None:
    """The check costs a prompt one grep, never Python, while the session owns nothing."""
    data = stop("nobody-2", fast.engine.config.repo, hook_event_name="UserPromptSubmit")
    assert not fast.run("claude", "UserPromptSubmit", data).started
    assert not fast.run("claude", "UserPromptSubmit", data).started

"""The installed agent hook script reads the client's JSON in `sh`: every payload it does not fully
understand goes to Python exactly as it came, and a valid one of any shape stays in `sh`."""

from __future__ import annotations

import pytest

from taskproto.hooks.agents import activity

from .fastpath import NOBODY, Fast

ODD = [
    b"",
    b"\n",
    b"{}\n",
    b"[]\n",
    b'{"session_id": "nobody-1", "cwd": "@"',  # cut short
    b'{"session_id": "nobody-1", "cwd": "@",}\n',
    b'{"session_id": "nobody-1", "cwd": "@"} x\n',
    b'{"session_id": "nobody-1", "cwd": "@", "n": 01}\n',
    b'{"session_id": "nobody-1", "cwd": "@", "n": tru}\n',
    b'{"session_id": "nobody-1", "cwd": "@", "n": [1, 2,]}\n',
    b'{"session_id": "nobody-1", "cwd": "@", "n": {"a" 1}}\n',
    b'{"session_id": "nobody-1", "cwd": "@", "p": "a\\qb"}\n',
    b'{"session_id": "nobody-1", "cwd": "@", "p": "a\tb"}\n',
    b'{"session_id": "nobody-1",\t"cwd": "@"}\n',
    b'{"session_id": "nobody-\\u0031", "cwd": "@"}\n',
    b'{"session_id": "x", "cwd": "@", "session_id": "owner-1"}\n',
    b'{"session\\u005fid": "owner-1", "session_id": "x", "cwd": "@"}\n',
    b'{"session_id": 7, "cwd": "@"}\n',
    b'{"session_id": "nobody-1", "cwd": "@"}\n{"session_id": "owner-1"}\n',
    b'{"session_id": "nobody-1", "cwd": "@"}\n\n',
    b'{\n  "session_id": "owner-1",\n  "cwd": "@"\n}\n',
    b'{"session_id": "../../x", "cwd": "@"}\n',
    b'{"session_id": "nobody-1", "cwd": "relative/path"}\n',
    b'{"session_id": "nobody-1", "cwd": "@/missing"}\n',
    b'{"session_id": "nobody-1", "cwd": "@", "message": "caf\xc3\xa9"}\n',
    b'{"session_id": "nobody-1", "cwd": "@", "reason": "a \\"quoted\\" reason"}\n',
    b'{"session_id": "nobody-1", "cwd": "@", "p": "' + b"x" * 70000 + b'"}\n',
    b'{"session_id": "nobody-1", "cwd": "@", "n": [1}\n',
    b'{"session_id": "nobody-1", "cwd": "@", "n": {"a": 1]}\n',
    rb'{"session_id": "nobody-1", "cwd": "@", "p": "x\"}' + b"\n",
    rb'{"session_id": "nobody-1", "cwd": "@", "p": "\u12"}' + b"\n",
    b'{"session_id": "nobody-1", "cwd": "@"}}\n',
    b'"nobody-1"\n',
    b'{"session_id": "nobody-1" "cwd": "@"}\n',
    b'{"session_id": "nobody-1", "cwd": "@", "p": "x" "y"}\n',
    b'{"session_id": "nobody-1", "cwd": "@", "p": 1.}\n',
    b'{"session_id": "nobody-1", "cwd": "@", "p": -}\n',
    b'{"session_id": "nobody-1", "cwd": "@", "p": [01]}\n',
]


@pytest.mark.parametrize("raw", ODD, ids=range(len(ODD)))
def test_anything_not_fully_understood_goes_to_python_as_it_came(fast: Fast, raw: bytes) -> None:
    repo = str(fast.engine.config.task_worktree("t1")).encode()
    data = raw.replace(b"@", repo)
    for event in ("Stop", "UserPromptSubmit", "SessionEnd"):
        run = fast.both("claude", event, data, NOBODY)
        assert run.started, (event, data[:200])


VALID = [
    b'{"session_id":"nobody-1","cwd":"@","prompt":"a \\"b\\" \\\\ \\/ \\n\\t \\u00e9 {[]}",'
    b'"x":null}',
    b'{ "session_id" : "nobody-1" , "cwd" : "@" , "n" : [ -1.5e+3 , 0 , 2E-2 , true , false ] }\n',
    b'{"session_id":"nobody-1","cwd":"@","effort":{"level":"medium","n":{"deep":[{}]}},"a":[]}\n',
    b'{"session_id":"nobody-1","cwd":"@","prompt":"caf\xc3\xa9 \xe2\x9c\x93"}\n',
    b'{"session_id":"nobody-1","cwd":"@","message":42,"reason":"clear"}\n',
    rb'{"session_id":"nobody-1","cwd":"@","p":"x\\","q":"\\\"","r":"\\\\"}' + b"\n",
    rb'{"session_id":"nobody-1","cwd":"@","o":{"k\u00e9y":"v","\"":[""],"":{}}}' + b"\n",
    b'{"session_id":"nobody-1","cwd":"@","last_assistant_message":"'
    + b'line \\"one\\"\\n\\tx = {1: [2]}\\\\ ' * 400
    + b'"}\n',
]


@pytest.mark.parametrize("raw", VALID, ids=range(len(VALID)))
def test_valid_payloads_of_any_shape_stay_in_sh(fast: Fast, raw: bytes) -> None:
    data = raw.replace(b"@", str(fast.engine.config.repo).encode())
    for event in ("Stop", "UserPromptSubmit", "SessionEnd"):
        run = fast.both("claude", event, data, NOBODY)
        assert not run.started and run.answer == (0, "", ""), (event, data)
    record = activity.read_all(str(fast.root))[NOBODY]
    assert record["detail"] == ("clear" if b'"clear"' in raw else "")

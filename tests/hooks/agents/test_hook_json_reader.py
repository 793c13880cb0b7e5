"""hook.sh's JSON reader against Python's `json`, on thousands of payloads in one `sh` process:
valid objects of every shape, and each of them broken by a byte deleted, inserted or changed.

Whatever `sh` accepts, `json` accepts too, as an object, with the very values `sh` read for the
fields it keeps (what it does not fully understand goes to Python, so a rejection is always safe);
and `sh` accepts every payload whose kept fields are plain strings and whose only blanks are
spaces, whatever else it holds (so the hook does not fall back to Python for ordinary payloads)."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

from taskproto.clients.settings import SCRIPT

KEPT = ("session_id", "cwd", "message", "tool_name", "reason", "source", "notification_type")
SUFFIXES = ["", "\u00e9", '"', "\\"]
CHARS = ' {}[]":,\\/-+.0123456789eEtrufalsn\tx\u00e9'


def reader() -> str:
    """The reader's functions, cut from the installed script, and a loop over stdin's lines."""
    text = Path(SCRIPT).read_text(encoding="utf-8")
    start = text.index("string_part() {")
    end = text.index("v_session_id= v_cwd=")
    fields = " ".join(f"v_{k}=" for k in KEPT)
    out = " ".join(f'"$v_{k}"' for k in KEPT)
    return (
        "set -f\n"
        + text[start:end]
        + "while IFS= read -r line; do\n"
        + f"    {fields}\n"
        + f"    if parse \"$line\"; then printf 'OK\\t%s\\t%s\\t%s\\t%s\\t%s\\t%s\\t%s\\n' {out}\n"
        + "    else unset IFS; echo BAD; fi\n"
        + "done\n"
    )


def read_all(lines: list[str]) -> list[list[str]]:
    done = subprocess.run(
        ["/bin/sh", "-c", reader()],
        input="".join(line + "\n" for line in lines).encode(),
        capture_output=True,
        check=True,
        timeout=600,
    )
    answers = [row.split("\t") for row in done.stdout.decode().split("\n")[:-1]]
    assert len(answers) == len(lines), done.stderr
    return answers


def value(rng: random.Random, depth: int) -> Any:
    kind = rng.randrange(8 if depth < 3 else 5)
    if kind == 0:
        return rng.choice([0, -1, 7, 12345678901234, 1.5, -0.25, 2e-3, 1e21])
    if kind == 1:
        return rng.choice([True, False, None])
    if kind in (2, 3, 4):
        return "".join(rng.choice('ab "\\/\n\u00e9{}[],:\t') for _ in range(rng.randrange(12)))
    if kind in (5, 6):
        return [value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {
        "k" + str(i) + rng.choice(SUFFIXES): value(rng, depth + 1) for i in range(rng.randrange(4))
    }


def payload(rng: random.Random) -> str:
    data: dict[str, Any] = {}
    for key in rng.sample(KEPT, rng.randrange(2, len(KEPT) + 1)):
        data[key] = "".join(rng.choice("abz09._-/ ") for _ in range(rng.randrange(1, 20)))
    for i in range(rng.randrange(6)):
        data[f"extra_{i}"] = value(rng, 0)
    items = list(data.items())
    rng.shuffle(items)
    separators = rng.choice([(",", ":"), (", ", ": "), (" , ", " : ")])
    return json.dumps(dict(items), separators=separators, ensure_ascii=rng.random() < 0.5)


def broken(rng: random.Random, text: str) -> str:
    i = rng.randrange(len(text) + 1)
    match rng.randrange(3):
        case 0:
            return text[:i] + text[i + 1 :]
        case 1:
            return text[:i] + rng.choice(CHARS) + text[i:]
        case _:
            return text[:i] + rng.choice(CHARS) + text[i + 1 :]


# values on the edge of the grammar, each put in a payload as a value and in an array
EDGES = [
    "0",
    "-0",
    "01",
    "-01",
    "00",
    "1.",
    ".5",
    "-",
    "+1",
    "1e",
    "1e+",
    "1E5",
    "1.e3",
    "0.0e-0",
    "0x1",
    "2e-3",
    "1.5E+10",
    "NaN",
    "Infinity",
    "tru",
    "nul",
    "falsey",
    "true",
    "null",
    "[]",
    "{}",
    "[,]",
    "{,}",
    '""',
    '"\\u00e9"',
    '"\\u12"',
    '"\\x"',
    '"a\\"',
    "[1,]",
    '{"a":1,}',
]


def test_sh_reads_what_json_reads_and_nothing_else() -> None:
    rng = random.Random(2026_11_27)
    valid = [payload(rng) for _ in range(700)]
    edges = [f'{{"session_id": "s-1", "cwd": "/x", "v": {edge}}}' for edge in EDGES] + [
        f'{{"session_id": "s-1", "v": [1, {edge}], "cwd": "/x"}}' for edge in EDGES
    ]
    lines = valid + edges + [broken(rng, rng.choice(valid)) for _ in range(2100)]
    accepted = 0
    for line, answer in zip(lines, read_all(lines), strict=True):
        if answer[0] != "OK":
            assert line not in valid, f"a plain payload went to Python: {line}"
            continue
        accepted += 1
        data = json.loads(line)
        assert isinstance(data, dict), line
        for key, got in zip(KEPT, answer[1:], strict=True):
            want = data.get(key, "")
            assert isinstance(want, str) and got == want, (line, key)
    assert accepted > len(valid)  # some broken ones are still valid JSON

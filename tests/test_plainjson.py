"""plainjson: `json.loads`/`json.dumps` without importing `json`'s modules (or `re`), byte for byte
the same as `json` on every JSON file of the test data and on generated documents, and `json`'s own
errors for what it refuses."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from taskproto import plainjson
from taskproto.engine import Engine

ROOT = Path(__file__).resolve().parents[1]
WAYS = [(indent, ascii_) for indent in (None, 2, 4) for ascii_ in (True, False)]


def _same(a: object, b: object) -> bool:
    """Equal, NaN included (json.dumps of both, which writes NaN as NaN)."""
    return json.dumps(a, sort_keys=False) == json.dumps(b, sort_keys=False)


def _text(rng: random.Random) -> str:
    pool = 'ab "\\/\n\t\x00\x1f\x7féü中😀\u2028\ud800'
    return "".join(rng.choice(pool) for _ in range(rng.randrange(0, 12)))


def _value(rng: random.Random, depth: int = 0) -> object:
    kind = rng.randrange(10 if depth < 4 else 7)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, -1, 7, 2**70, -(2**64)])
    if kind == 3:
        return rng.choice([0.0, -0.0, 1.5, 1e300, -2.5e-308, math.inf, -math.inf, math.nan, 0.1])
    if kind in (4, 5, 6):
        return _text(rng)
    if kind == 7:
        return [_value(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
    if kind == 8:
        return tuple(_value(rng, depth + 1) for _ in range(rng.randrange(0, 3)))
    keys = [_text(rng), rng.choice([1, 2.5, True, False, None, "k"])]
    return {rng.choice(keys): _value(rng, depth + 1) for _ in range(rng.randrange(0, 4))}


def _documents() -> list[object]:
    found: list[object] = []
    for path in sorted((ROOT / "tests").rglob("*.json")):
        try:
            found.append(json.loads(path.read_bytes()))
        except ValueError:
            continue
    rng = random.Random(20261127)
    found += [_value(rng) for _ in range(600)]
    return found


DOCUMENTS = _documents()


def test_the_engines_task_files_read_and_write_back_byte_for_byte(engine: Engine) -> None:
    """task.json as the engine writes it (pydantic) is what the quick save writes back."""
    engine.create_task("t1", description='naïve café 中文 😀 "quoted" \\ back\tslash')
    engine.create_task("t2", ["a", "b"], description="")
    engine.claim("t1", "s-1", 4242)
    engine.fire("t1", target="CLASSIFIED", session="s-1")
    engine.release("t1", "s-1")
    for name in ("t1", "t2"):
        raw = engine.config.task_file(name).read_bytes()
        data = plainjson.loads(raw)
        assert data == json.loads(raw)
        out = plainjson.dumps(data, indent=2, ensure_ascii=False) + "\n"
        assert out.encode() == raw
    assert len(DOCUMENTS) > 600


@pytest.mark.parametrize(("indent", "ascii_"), WAYS)
def test_dumps_writes_what_json_writes(indent: int | None, ascii_: bool) -> None:
    for doc in DOCUMENTS:
        expected = json.dumps(doc, indent=indent, ensure_ascii=ascii_)
        assert plainjson.dumps(doc, indent=indent, ensure_ascii=ascii_) == expected, doc


def test_loads_reads_what_json_reads() -> None:
    for doc in DOCUMENTS:
        for indent, ascii_ in WAYS:
            text = json.dumps(doc, indent=indent, ensure_ascii=ascii_)
            assert _same(plainjson.loads(text), json.loads(text))
            data = text.encode("utf-8", "surrogatepass")
            assert _same(plainjson.loads(data), json.loads(data))


def test_default_is_asked_as_json_asks_it() -> None:
    doc = {"at": datetime(2026, 11, 27, tzinfo=UTC), "path": Path("/x"), "n": [1, {2: Path("y")}]}
    for indent in (None, 2):
        assert plainjson.dumps(doc, indent=indent, default=str) == json.dumps(
            doc, indent=indent, default=str
        )


@pytest.mark.parametrize(
    "raw",
    [
        "{not json",
        "{",
        '{"a"',
        '{"a": 1,',
        "[1,",
        '"abc',
        "",
        " ",
        "{",
        "[1,]",
        "{'a': 1}",
        "1 2",
        '{"a": 1} x',
        "\ufeff{}",
        '"\\x"',
        '"a\nb"',
        "[1e]",
        "nul",
        "NaN",
        "-Infinity",
        '"\\ud800"',
        " \t\n[1, 2]\r\n ",
        b"\xef\xbb\xbf[1]",
        b"\xff\xfe[\x001\x00]\x00",
        b"[\x001\x00]\x00",
        b'"\xed\xa0\x80"',
        b"\xff",
        b"1\x00",
    ],
)
def test_what_json_refuses_it_refuses_alike(raw: str | bytes) -> None:
    try:
        expected: object = json.loads(raw)
    except ValueError as exc:
        with pytest.raises(type(exc)) as got:
            plainjson.loads(raw)
        assert str(got.value) == str(exc)
        return
    assert _same(plainjson.loads(raw), expected)


def test_what_json_cannot_write_it_cannot_either() -> None:
    loop: list[object] = []
    loop.append(loop)
    for doc, indent in ((object(), None), ({"a": object()}, 2), ({(1, 2): 1}, 2), (loop, 2)):
        with pytest.raises((TypeError, ValueError)) as want:
            json.dumps(doc, indent=indent)
        with pytest.raises(type(want.value)) as got:
            plainjson.dumps(doc, indent=indent)
        assert str(got.value) == str(want.value)


def _fresh(script: str) -> str:
    """`script`'s output in a new interpreter without `site` (nothing imported before it)."""
    done = subprocess.run(
        [sys.executable, "-S", "-c", script],
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_an_error_before_json_was_ever_imported_is_jsons() -> None:
    """The C scanner raises json.decoder's error only once that module is imported: a fresh
    process must still get json's error, not a SystemError."""
    script = (
        "from taskproto import plainjson\n"
        "for raw in ('{not json', '{', '{\"a\"', '[1,', b'{'):\n"
        "    try:\n"
        "        plainjson.loads(raw)\n"
        "    except ValueError as exc:\n"
        "        print(type(exc).__name__, exc)\n"
    )
    out = _fresh(script)
    name = "JSONDecodeError Expecting property name enclosed in double quotes"
    assert out.splitlines() == [
        f"{name}: line 1 column 2 (char 1)",
        f"{name}: line 1 column 2 (char 1)",
        "JSONDecodeError Expecting ':' delimiter: line 1 column 5 (char 4)",
        "JSONDecodeError Expecting value: line 1 column 4 (char 3)",
        f"{name}: line 1 column 2 (char 1)",
    ]


def test_it_imports_neither_json_nor_re() -> None:
    script = (
        "import sys\n"
        "from taskproto import plainjson\n"
        'doc = plainjson.loads(b\'{"a": [1, 2.5, null, "\\\\u00e9"]}\')\n'
        "assert plainjson.dumps(doc, indent=2, ensure_ascii=False).startswith('{')\n"
        'assert plainjson.dumps(doc) == \'{"a": [1, 2.5, null, "\\\\u00e9"]}\'\n'
        "print(sorted(m for m in ('json', 're', 'enum') if m in sys.modules))\n"
    )
    out = _fresh(script)
    assert out.strip() == "[]"


def test_scan_reads_the_value_where_it_starts_and_says_where_it_ends() -> None:
    text = 'x["a",[1,2],{"k":null}]\tnext'
    assert plainjson.scan(text, 1) == (["a", [1, 2], {"k": None}], 23)
    assert plainjson.scan(text, 6) == ([1, 2], 11)
    for at in (0, 23, len(text)):  # no value starts there
        with pytest.raises(ValueError):
            plainjson.scan(text, at)


def test_scan_refuses_bad_input_with_a_value_error_before_json_is_imported() -> None:
    """The C scanner fails with a SystemError while `json.decoder` is not imported (plainjson's
    docstring): scan says ValueError all the same, in a process that never imported json."""
    code = (
        "import sys\n"
        "from taskproto import plainjson\n"
        "for text in ('[1,', '[\"a', '{\"k\" 1}', 'nul'):\n"
        "    try:\n"
        "        plainjson.scan(text, 0)\n"
        "    except ValueError:\n"
        "        pass\n"
        "    else:\n"
        "        raise SystemExit('no error for ' + text)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr

"""`json.loads` and `json.dumps` for the quick paths, without importing `json`'s Python modules.

`json.decoder` and `json.encoder` import `re` (and `re` imports `enum` and more): about half the
interpreter's start-up, paid by every quick command and every hook run that reads a task.json.
The parsing and the string escapes are done in C by the standard library's `_json` either way;
this module calls it directly. Its output is `json`'s, byte for byte (tests/test_plainjson.py
compares them on every task file of the test data and on generated documents), and anything
unusual is handed to `json` itself: invalid input (so the errors are `json`'s own), objects the
encoder cannot write, or an interpreter without `_json`.

Supported: `loads(str | bytes)`; `dumps(obj, *, indent, ensure_ascii, default, separators,
sort_keys)`; any other name (`JSONDecodeError`) is `json`'s. Standard library only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

try:
    import _json
except ImportError:  # not CPython: the json package does it all
    _json = None  # type: ignore[assignment]

_WS = " \t\n\r"
_INF = float("inf")
_CONSTANTS = {"-Infinity": -_INF, "Infinity": _INF, "NaN": float("nan")}


class _Context:
    """What `_json.make_scanner` reads from a JSONDecoder (json.loads' defaults)."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = _CONSTANTS.__getitem__
    memo: dict[str, str] = {}


_scan = _json.make_scanner(_Context) if _json is not None else None  # type: ignore[arg-type]


def loads(data: str | bytes | bytearray) -> Any:
    """`json.loads(data)`."""
    if _scan is None:
        return _slow().loads(data)
    if isinstance(data, (bytes, bytearray)):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:  # UTF-16/32, lone surrogates: json knows them
            return _slow().loads(data)
    else:
        text = data
    start = len(text) - len(text.lstrip(_WS))
    try:
        value, end = _scan(text, start)
    except (StopIteration, ValueError, SystemError):
        # json raises its own error (the C scanner can only raise it once json.decoder is
        # imported: before, it fails with a SystemError)
        return _slow().loads(data)
    if end != len(text) and text[end:].strip(_WS):
        return _slow().loads(data)
    return value


def scan(text: str, at: int) -> tuple[Any, int]:
    """The JSON value that starts at `text[at]` and the index just past it (a C call: no slice
    of the text is made); ValueError when none starts there."""
    if _scan is None:
        found_slow: tuple[Any, int] = _slow().JSONDecoder().raw_decode(text, at)
        return found_slow
    try:
        found: tuple[Any, int] = _scan(text, at)
    except (StopIteration, ValueError, SystemError) as e:  # SystemError: as `loads` says
        raise ValueError(f"no JSON value at {at}") from e
    return found


def dumps(
    obj: Any,
    *,
    indent: int | None = None,
    ensure_ascii: bool = True,
    default: Callable[[Any], Any] | None = None,
    separators: tuple[str, str] | None = None,
    sort_keys: bool = False,
) -> str:
    """`json.dumps` with these arguments (sorted keys and an indent with other separators: by
    `json` itself)."""
    args: dict[str, Any] = {"indent": indent, "ensure_ascii": ensure_ascii, "default": default}
    args |= {"separators": separators, "sort_keys": sort_keys}
    if _json is None or sort_keys or (indent is not None and separators is not None):
        return str(_slow().dumps(obj, **args))
    string = _json.encode_basestring_ascii if ensure_ascii else _json.encode_basestring
    try:
        if indent is None:
            item, key = separators or (", ", ": ")
            encode = _json.make_encoder(
                {}, default or _refuse, string, None, key, item, False, False, True
            )
            return "".join(encode(obj, 0))
        parts: list[str] = []
        _write(obj, parts, string, default, " " * indent, "\n")
        return "".join(parts)
    except (TypeError, ValueError, RecursionError):  # json says what it cannot write
        return str(_slow().dumps(obj, **args))


def __getattr__(name: str) -> Any:
    """`JSONDecodeError` and the rest, from `json` (imported then: an error is being handled)."""
    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(_slow(), name)


def _slow() -> Any:
    import json

    return json


def _refuse(obj: Any) -> Any:
    raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == _INF:
        return "Infinity"
    if value == -_INF:
        return "-Infinity"
    return float.__repr__(value)


def _key(key: Any) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, float):
        return _float(key)
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, int):
        return int.__repr__(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def _write(
    obj: Any,
    out: list[str],
    string: Callable[[str], str],
    default: Callable[[Any], Any] | None,
    step: str,
    newline: str,
) -> None:
    """json.encoder's `_make_iterencode` with an indent: the same text, appended to `out`."""
    if isinstance(obj, str):
        out.append(string(obj))
    elif obj is None:
        out.append("null")
    elif obj is True:
        out.append("true")
    elif obj is False:
        out.append("false")
    elif isinstance(obj, int):
        out.append(int.__repr__(obj))
    elif isinstance(obj, float):
        out.append(_float(obj))
    elif isinstance(obj, (list, tuple)):
        if not obj:
            out.append("[]")
            return
        inner = newline + step
        out.append("[")
        for i, item in enumerate(obj):
            out.append(inner if i == 0 else "," + inner)
            _write(item, out, string, default, step, inner)
        out.append(newline + "]")
    elif isinstance(obj, dict):
        if not obj:
            out.append("{}")
            return
        inner = newline + step
        out.append("{")
        for i, (key, value) in enumerate(obj.items()):
            out.append(inner if i == 0 else "," + inner)
            out.append(string(_key(key)))
            out.append(": ")
            _write(value, out, string, default, step, inner)
        out.append(newline + "}")
    elif default is not None:
        _write(default(obj), out, string, default, step, newline)
    else:
        _refuse(obj)

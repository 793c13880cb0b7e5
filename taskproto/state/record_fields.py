"""The checks of a record's fields (state/record.py), built once per class from its annotations.

A check takes a value, where it is (`loc`, as nested pairs: `flat`) and the list of problems found
so far, and returns the value (converted where pydantic would: an ISO time to a datetime, a
member's value to the member) or `FAILED` after it appended the problem, in pydantic's words.
"""

from __future__ import annotations

from datetime import datetime

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    Check = Callable[[Any, tuple[Any, ...], list[dict[str, Any]]], Any]

FAILED: Any = object()  # what a check returns after it reported a problem


def problem(errors: list[dict[str, Any]], loc: tuple[Any, ...], kind: str, msg: str) -> Any:
    errors.append({"loc": flat(loc), "msg": msg, "type": kind})
    return FAILED


def flat(loc: tuple[Any, ...]) -> tuple[Any, ...]:
    """Where a value is, from the nested pairs the checks pass down: `((("a"), 0), "b")` is
    `("a", 0, "b")` (a pair per level costs less than a tuple copied at each of them)."""
    keys = []
    while loc:
        loc, key = loc
        keys.append(key)
    return tuple(reversed(keys))


def _check_str(v: Any, loc: tuple[Any, ...], errors: list[dict[str, Any]]) -> Any:
    if isinstance(v, str):
        return v
    return problem(errors, loc, "string_type", "Input should be a valid string")


def _check_int(v: Any, loc: tuple[Any, ...], errors: list[dict[str, Any]]) -> Any:
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, float):
        return problem(
            errors,
            loc,
            "int_from_float",
            "Input should be a valid integer, got a number with a fractional part",
        )
    return problem(errors, loc, "int_type", "Input should be a valid integer")


def _check_float(v: Any, loc: tuple[Any, ...], errors: list[dict[str, Any]]) -> Any:
    if isinstance(v, int | float) and not isinstance(v, bool):
        return float(v)
    return problem(errors, loc, "float_type", "Input should be a valid number")


def _check_bool(v: Any, loc: tuple[Any, ...], errors: list[dict[str, Any]]) -> Any:
    if isinstance(v, bool):
        return v
    return problem(errors, loc, "bool_type", "Input should be a valid boolean")


def _check_datetime(v: Any, loc: tuple[Any, ...], errors: list[dict[str, Any]]) -> Any:
    if isinstance(v, datetime):
        return v
    if isinstance(v, str):
        try:
            return datetime.fromisoformat(v)
        except ValueError:
            pass
    return problem(errors, loc, "datetime_type", "Input should be a valid datetime")


def _check_any(v: Any, loc: tuple[Any, ...], errors: list[dict[str, Any]]) -> Any:
    return v


def _check_dict(v: Any, loc: tuple[Any, ...], errors: list[dict[str, Any]]) -> Any:
    if isinstance(v, dict):
        return v
    return problem(errors, loc, "dict_type", "Input should be a valid dictionary")


def _optional(inner: Check) -> Check:
    def check(v: Any, loc: tuple[Any, ...], errors: list[dict[str, Any]]) -> Any:
        return None if v is None else inner(v, loc, errors)

    return check


def _dict_of(inner: Check) -> Check:
    def check(v: Any, loc: tuple[Any, ...], errors: list[dict[str, Any]]) -> Any:
        if not isinstance(v, dict):
            return problem(errors, loc, "dict_type", "Input should be a valid dictionary")
        out = {}
        for key, item in v.items():
            if not isinstance(key, str):
                return problem(errors, (loc, key), "string_type", "Input should be a valid string")
            out[key] = inner(item, (loc, key), errors)
        return out

    return check


def _list_of(inner: Check) -> Check:
    def check(v: Any, loc: tuple[Any, ...], errors: list[dict[str, Any]]) -> Any:
        if not isinstance(v, list | tuple):
            return problem(errors, loc, "list_type", "Input should be a valid list")
        out = []
        for i, item in enumerate(v):
            got = inner(item, (loc, i), errors)
            out.append(got)
        return out

    return check


def _literal(choices: tuple[Any, ...]) -> Check:
    words = [repr(c) for c in choices]
    listed = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"

    def check(v: Any, loc: tuple[Any, ...], errors: list[dict[str, Any]]) -> Any:
        if any(v == c and type(v) is type(c) for c in choices):
            return v
        return problem(errors, loc, "literal_error", f"Input should be {listed}")

    return check


def _enum(cls: Any) -> Check:
    values = list(cls._value2member_map_)

    def check(v: Any, loc: tuple[Any, ...], errors: list[dict[str, Any]]) -> Any:
        if isinstance(v, cls):
            return v
        if v in values:
            return cls(v)
        listed = ", ".join(repr(x) for x in values[:-1]) + f" or {values[-1]!r}"
        return problem(errors, loc, "enum", f"Input should be {listed}")

    return check


def _record(cls: Any) -> Check:
    def check(v: Any, loc: tuple[Any, ...], errors: list[dict[str, Any]]) -> Any:
        if isinstance(v, cls):
            return v
        if not isinstance(v, dict):
            return problem(
                errors,
                loc,
                "model_type",
                f"Input should be a valid dictionary or instance of {cls.__name__}",
            )
        return cls._build(v, loc, errors)

    return check


_SIMPLE: dict[str, Check] = {
    "str": _check_str,
    "int": _check_int,
    "float": _check_float,
    "bool": _check_bool,
    "datetime": _check_datetime,
    "Any": _check_any,
    "object": _check_any,
    "dict[str, Any]": _check_dict,
    "dict[str, object]": _check_dict,
    "dict": _check_dict,
}


def _split(text: str, sep: str) -> list[str]:
    """`text` split at `sep` outside brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        elif depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i].strip())
            start = i + len(sep)
    parts.append(text[start:].strip())
    return parts


def _quoted(text: str) -> tuple[str, ...]:
    """The strings of a Literal's arguments: `"a", 'b'` (plain quoted words, no escapes)."""
    values = []
    for part in _split(text, ","):
        if len(part) < 2 or part[0] not in "'\"" or part[-1] != part[0]:
            raise TypeError(f"record annotation not understood: Literal[{text}]")
        values.append(part[1:-1])
    return tuple(values)


def compile_annotation(text: str, names: Mapping[str, Any]) -> tuple[Check, bool]:
    """The check of one annotation (and whether it holds records)."""
    text = text.strip()
    if text in _SIMPLE:
        return _SIMPLE[text], False
    options = _split(text, "|")
    if len(options) > 1:
        rest = [o for o in options if o != "None"]
        inner, holds = compile_annotation(" | ".join(rest), names)
        return (_optional(inner) if "None" in options else inner), holds
    if text.startswith("dict[str, ") and text.endswith("]"):
        inner, holds = compile_annotation(text[10:-1], names)
        return _dict_of(inner), holds
    if text.startswith("list[") and text.endswith("]"):
        inner, holds = compile_annotation(text[5:-1], names)
        return _list_of(inner), holds
    if text.startswith("Literal[") and text.endswith("]"):
        return _literal(_quoted(text[8:-1])), False
    found = names.get(text)
    if isinstance(found, type) and hasattr(found, "_build"):  # a record class
        return _record(found), True
    if isinstance(found, type) and hasattr(found, "_value2member_map_"):  # an enum
        return _enum(found), False
    if isinstance(found, str):  # an alias written as text (`EntryKind = "Literal[...]"`)
        return compile_annotation(found, names)
    raise TypeError(f"record annotation not understood: {text!r}")


_SCALARS = frozenset(("str", "int", "float", "bool", "datetime"))


def scalar(text: str, names: Mapping[str, Any]) -> bool:
    """Whether an annotation only holds values that nest nothing (a string, a number, a time, a
    literal, an enum, or None): a depth check skips such fields (store.too_deep)."""
    options = [o for o in _split(text.strip(), "|") if o != "None"]
    if len(options) != 1:
        return bool(options) and all(scalar(o, names) for o in options)
    text = options[0]
    if text in _SCALARS or text.startswith("Literal["):
        return True
    found = names.get(text)
    if isinstance(found, str):
        return scalar(found, names)
    return isinstance(found, type) and hasattr(found, "_value2member_map_")


def min_length(inner: Check, least: int) -> Check:
    def check(v: Any, loc: tuple[Any, ...], errors: list[dict[str, Any]]) -> Any:
        got = inner(v, loc, errors)
        if isinstance(got, str) and len(got) < least:
            return problem(
                errors,
                loc,
                "string_too_short",
                f"String should have at least {least} character{'s' if least != 1 else ''}",
            )
        return got

    return check


def bounds(inner: Check, ge: int | None, le: int | None) -> Check:
    def check(v: Any, loc: tuple[Any, ...], errors: list[dict[str, Any]]) -> Any:
        got = inner(v, loc, errors)
        if got is FAILED or got is None:
            return got
        if ge is not None and got < ge:
            return problem(
                errors, loc, "greater_than_equal", f"Input should be greater than or equal to {ge}"
            )
        if le is not None and got > le:
            return problem(
                errors, loc, "less_than_equal", f"Input should be less than or equal to {le}"
            )
        return got

    return check

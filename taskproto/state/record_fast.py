"""A record class's load compiled to straight-line Python, for the records read by the thousand.

`Record.model_validate` checks each field through the closures `record_fields.py` builds from the
annotations: general, and a function call per value. A process that loads many records of one
class (doctor reads every task.json; the Python API's transitions) compiles, after `FAST_AFTER`
loads, one function per record class that checks the same annotations inline, on the exact types
JSON gives (`str`, `int`, `float`, `bool`, `list`, `dict`). It is a shortcut, never a second
judge: anything it is not sure of (a wrong type, a missing field, an extra key, a value out of
bounds, a float where an int goes, a time that does not parse) raises `Slow`, and the checking
load decides and words the problem. What it accepts, the checking load accepts and builds equal
(tests/test_record_fast.py compares them).

Standard library only, and nothing imported at run time beyond `datetime` (the write path
loads the records).
"""

from __future__ import annotations

from datetime import datetime

from taskproto.state.record_fields import _quoted, _split

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

FAST_AFTER = 16  # loads of a class in one process before its load is compiled
_ANY = frozenset({"Any", "object"})
_DICTS = frozenset({"dict[str, Any]", "dict[str, object]", "dict"})


class Slow(Exception):
    """The compiled load declines: the checking load decides (and says what is wrong)."""


def _time(x: Any) -> datetime:
    if type(x) is str:
        try:
            return datetime.fromisoformat(x)
        except ValueError:
            raise Slow from None
    if isinstance(x, datetime):
        return x
    raise Slow


class _Compiler:
    def __init__(self, missing: Any, copy: Callable[[Any], Any]) -> None:
        self.missing, self.copy = missing, copy
        self.ns: dict[str, Any] = {"Slow": Slow, "_time": _time, "M": missing, "COPY": copy}
        self.made: dict[type, str] = {}  # record class -> the name of its function in ns
        self.count = 0
        self.source: list[str] = []  # every function's lines, compiled at once (`build`)

    def name(self, prefix: str, value: Any) -> str:
        self.count += 1
        key = f"{prefix}{self.count}"
        self.ns[key] = value
        return key

    def emit(self, text: str, names: Mapping[str, Any], var: str, ind: str) -> list[str]:
        """Lines that check `var` against the annotation `text` and convert it in place (as the
        checking load would), raising Slow on anything else."""
        text = text.strip()
        if text in _ANY:
            return []
        if text == "str":
            return [f"{ind}if type({var}) is not str: raise Slow"]
        if text == "int":
            return [f"{ind}if type({var}) is not int: raise Slow"]
        if text == "bool":
            return [f"{ind}if type({var}) is not bool: raise Slow"]
        if text == "float":
            return [
                f"{ind}if type({var}) is not float:",
                f"{ind}    if type({var}) is not int: raise Slow",
                f"{ind}    {var} = float({var})",
            ]
        if text == "datetime":
            return [f"{ind}{var} = _time({var})"]
        if text in _DICTS:
            return [f"{ind}if type({var}) is not dict: raise Slow"]
        options = _split(text, "|")
        if len(options) > 1:
            if "None" not in options:
                raise TypeError(f"record annotation not understood: {text!r}")
            rest = " | ".join(o for o in options if o != "None")
            inner = self.emit(rest, names, var, ind + "    ")
            return [f"{ind}if {var} is not None:", *(inner or [f"{ind}    pass"])]
        if text.startswith("list[") and text.endswith("]"):
            return [f"{ind}{var} = {self.container('list', text[5:-1], names)}({var})"]
        if text.startswith("dict[str, ") and text.endswith("]"):
            return [f"{ind}{var} = {self.container('dict', text[10:-1], names)}({var})"]
        if text.startswith("Literal[") and text.endswith("]"):
            choices = self.name("C", frozenset(_quoted(text[8:-1])))
            return [f"{ind}if type({var}) is not str or {var} not in {choices}: raise Slow"]
        found = names.get(text)
        if isinstance(found, type) and hasattr(found, "_build"):  # a record class
            return [f"{ind}{var} = {self.record(found)}({var})"]
        if isinstance(found, type) and hasattr(found, "_value2member_map_"):  # an enum
            enum = self.name("E", found)
            values = self.name("V", list(found._value2member_map_))
            return [
                f"{ind}if not isinstance({var}, {enum}):",
                f"{ind}    if type({var}) is not str or {var} not in {values}: raise Slow",
                f"{ind}    {var} = {enum}({var})",
            ]
        if isinstance(found, str):  # an alias written as text
            return self.emit(found, names, var, ind)
        raise TypeError(f"record annotation not understood: {text!r}")

    def container(self, kind: str, inner: str, names: Mapping[str, Any]) -> str:
        body = self.emit(inner, names, "x", "        ")
        fn = self.name("L" if kind == "list" else "D", None)
        if kind == "list":
            lines = [
                f"def {fn}(v):",
                "    if type(v) is not list: raise Slow",
                "    if not v: return []",
            ]
            if not body:
                lines.append("    return v[:]")
            else:
                lines += ["    out = []", "    for x in v:", *body, "        out.append(x)"]
                lines.append("    return out")
        else:
            lines = [f"def {fn}(v):", "    if type(v) is not dict: raise Slow", "    out = {}"]
            lines += ["    for k, x in v.items():", "        if type(k) is not str: raise Slow"]
            lines += [*body, "        out[k] = x", "    return out"]
        self.define(fn, lines)
        return fn

    def record(self, cls: Any) -> str:
        made = self.made.get(cls)
        if made is not None:
            return made
        fn = self.name("R", None)
        self.made[cls] = fn
        klass = self.name("K", cls)
        lines = [
            f"def {fn}(d):",
            "    if type(d) is not dict:",
            f"        if isinstance(d, {klass}): return d",
            "        raise Slow",
        ]
        fields = cls._spec()
        if cls.EXTRA_FORBIDDEN:
            keys = self.name("S", frozenset(cls._by_key))
            lines.append(f"    if not d.keys() <= {keys}: raise Slow")
        lines.append("    v = {}")
        for f in fields:
            lines.append(f"    x = d.get({f.key!r}, M)")
            if f.name != f.key:
                lines.append(f"    if x is M: x = d.get({f.name!r}, M)")
            lines.append("    if x is M:")
            if f.factory is not None:
                lines.append(f"        v[{f.name!r}] = {self.name('F', f.factory)}()")
            elif f.default is not self.missing:
                lines.append(f"        v[{f.name!r}] = COPY({self.name('P', f.default)})")
            else:
                lines.append("        raise Slow")
            lines.append("    else:")
            if f.before is not None:
                lines.append(f"        x = {self.name('B', f.before)}(x)")
            lines += self.emit(f.text, f.names, "x", "        ")
            info = f.info
            if info is not None and info.min_length is not None:
                lines.append(
                    f"        if type(x) is str and len(x) < {int(info.min_length)}: raise Slow"
                )
            if info is not None and info.ge is not None:
                lines.append(f"        if x is not None and x < {int(info.ge)}: raise Slow")
            if info is not None and info.le is not None:
                lines.append(f"        if x is not None and x > {int(info.le)}: raise Slow")
            lines.append(f"        v[{f.name!r}] = x")
        lines += [
            f"    new = {klass}.__new__({klass})",
            "    new.__dict__.update(v)",
            "    new._after_build()",
            "    return new",
        ]
        self.define(fn, lines)
        return fn

    def define(self, fn: str, lines: list[str]) -> None:
        self.source += lines

    def build(self, cls: Any) -> Any:
        fn = self.record(cls)
        code = compile("\n".join(self.source) + "\n", f"<record load {cls.__name__}>", "exec")
        exec(code, self.ns)
        return self.ns[fn]


def compile_fast(cls: Any, missing: Any, copy: Callable[[Any], Any]) -> Any:
    """The compiled load of record class `cls` (`missing`: the marker of a field with no default;
    `copy`: how a default is copied), or False when an annotation is not one it knows."""
    compiler = _Compiler(missing, copy)
    try:
        return compiler.build(cls)
    except TypeError:
        return False

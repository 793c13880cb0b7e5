"""Typed records on the standard library: what task.json, status.json and the workflows are made of.

A record class declares its fields with annotations, as a dataclass does; validation, JSON and
copies come from the annotations:

    class Owner(Record):
        session: str = field(min_length=1)
        host: str
        pid: int | None = None

Records validate what they are given (`Owner(...)`, `Owner.model_validate(data)`,
`Owner.model_validate_json(text)`) and refuse anything else with a `RecordError` whose
`errors()` name each problem's place and what was wrong, in the words pydantic uses; they
write the same JSON pydantic wrote (`model_dump_json`), so task.json files keep their bytes.
Assignments are not checked (a save validates the whole record again: `validate_all`).

Why not pydantic: building its models costs every process that loads them tens of milliseconds,
and the engine's write path runs in every hook and every command. pydantic stays where it
serves: the artifacts agents submit, user workflows in TOML, the MCP and board APIs.

Understood annotations: str, int, float, bool, datetime, Any, dict[str, Any], list[X], X | None,
Literal[...], an enum.Enum subclass, a Record subclass, and a name bound to one of those in the
record's module (`EntryKind = Literal[...]`).
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime

from taskproto import plainjson as json
from taskproto.state.record_fast import FAST_AFTER, Slow, compile_fast
from taskproto.state.record_fields import (
    FAILED,
    bounds,
    compile_annotation,
    min_length,
    problem,
    scalar,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from typing import Any, Self

    Check = Callable[[Any, tuple[Any, ...], list[dict[str, Any]]], Any]

_MISSING: Any = object()
EXTRA = "Extra inputs are not permitted"


class RecordError(ValueError):
    """Data that is not a valid record; `errors()` lists each problem (loc, msg, type)."""

    def __init__(self, title: str, errors: list[dict[str, Any]]) -> None:
        self.title, self._errors = title, errors
        first = errors[0] if errors else {"loc": (), "msg": "invalid"}
        where = ".".join(str(p) for p in first["loc"]) or "(top)"
        super().__init__(f"{len(errors)} validation error(s) for {title}: {where}: {first['msg']}")

    def errors(self) -> list[dict[str, Any]]:
        return list(self._errors)


class FieldInfo:
    """What `field()` gives a record's class body: a default and the field's constraints."""

    __slots__ = ("default", "factory", "alias", "ge", "le", "min_length", "before")

    def __init__(
        self,
        default: Any,
        factory: Callable[[], Any] | None,
        alias: str | None,
        ge: int | None,
        le: int | None,
        min_length: int | None,
        before: Callable[[Any], Any] | None,
    ) -> None:
        self.default, self.factory, self.alias = default, factory, alias
        self.ge, self.le, self.min_length, self.before = ge, le, min_length, before


def field(
    default: Any = _MISSING,
    *,
    factory: Callable[[], Any] | None = None,
    alias: str | None = None,
    ge: int | None = None,
    le: int | None = None,
    min_length: int | None = None,
    before: Callable[[Any], Any] | None = None,
) -> Any:
    """A field's default (`default`, or `factory()` for each new record) and its constraints:
    the JSON key when it is not the name (`alias`), bounds of an int (`ge`, `le`), the least
    length of a str, and a function applied to the value before it is checked (`before`)."""
    return FieldInfo(default, factory, alias, ge, le, min_length, before)


class _Field:
    __slots__ = (
        "name",
        "key",
        "check",
        "default",
        "factory",
        "before",
        "record",
        "nests",
        "info",
        "text",
        "names",
    )

    def __init__(self, name: str, key: str, check: Check, info: FieldInfo | None, default: Any):
        self.name, self.key, self.check, self.info = name, key, check, info
        self.text = ""  # the annotation, and the names it is read with (state/record_fast.py)
        self.names: Mapping[str, Any] = {}
        self.default = info.default if info is not None else default
        self.factory = info.factory if info is not None else None
        self.before = info.before if info is not None else None
        self.record = False  # holds records (a copy copies them)
        self.nests = True  # can hold a list, a dict or a record (record_fields.scalar)


def time_text(moment: datetime) -> str:
    """A time as task.json holds it: `2026-11-23T10:00:00.123456Z` (UTC), as pydantic wrote it."""
    offset = moment.utcoffset()
    if offset is not None and offset:
        moment = moment.astimezone(UTC)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    if moment.microsecond:
        text = f"{text}.{moment.microsecond:06d}"
    return text + ("Z" if offset is not None else "")


# --- records ---------------------------------------------------------------------------------

# frozen records' JSON dumps, by (id, by_alias), each with its record (so that its id is not
# reused while it is here); flat ones only, so a copy of the top level is a whole copy
_FROZEN_JSON: dict[tuple[int, bool], tuple[Record, dict[str, Any]]] = {}
_FROZEN_MOST = 8192
_SCALARS = frozenset({str, int, float, bool, type(None)})


def _copy_value(v: Any) -> Any:
    """A deep copy of JSON-shaped data (records copy themselves)."""
    if isinstance(v, dict):
        return {k: _copy_value(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_copy_value(x) for x in v]
    if isinstance(v, Record):
        return v if v.FROZEN else v.model_copy(deep=True)
    return v


def _dump_value(v: Any, mode: str, by_alias: bool) -> Any:
    if isinstance(v, Record):
        return v.model_dump(mode=mode, by_alias=by_alias)
    if isinstance(v, list):
        return [_dump_value(x, mode, by_alias) for x in v]
    if isinstance(v, dict):
        return {k: _dump_value(x, mode, by_alias) for k, x in v.items()}
    if mode == "json":
        if isinstance(v, datetime):
            return time_text(v)
        if hasattr(type(v), "_value2member_map_"):  # an enum member (no `enum` import for this)
            return v.value
    return v


class Record:
    """A validated record (see the module). Subclasses annotate their fields."""

    FROZEN = False  # a frozen record refuses assignments, and copies share it
    EXTRA_FORBIDDEN = True
    _fields: tuple[_Field, ...] | None = None
    _by_key: dict[str, _Field]
    _nesting: tuple[str, ...]  # the fields that can hold a list, a dict or a record
    # the load compiled once this process has loaded FAST_AFTER of them (False: not compilable)
    _fast: Callable[[dict[str, Any]], Any] | bool | None = None
    _loads = 0

    def nested_values(self) -> list[Any]:
        """The values of the fields that can nest (what a depth check walks)."""
        type(self)._spec()
        values = self.__dict__
        return [values[n] for n in type(self)._nesting if n in values]

    @classmethod
    def _spec(cls) -> tuple[_Field, ...]:
        fields = cls.__dict__.get("_fields")
        if fields is not None:
            return fields  # type: ignore[no-any-return]
        names = dict(vars(sys.modules[cls.__module__]))
        made: list[_Field] = []
        seen: set[str] = set()
        for klass in reversed(cls.__mro__):
            for name, annotation in vars(klass).get("__annotations__", {}).items():
                if name.startswith("_") or name.isupper() or name in seen:
                    continue
                if isinstance(annotation, str) and annotation.startswith("ClassVar"):
                    continue
                seen.add(name)
                text = annotation if isinstance(annotation, str) else annotation.__name__
                scope = {**names, **vars(sys.modules[klass.__module__])}
                check, holds = compile_annotation(text, scope)
                raw = getattr(cls, name, _MISSING)
                info = raw if isinstance(raw, FieldInfo) else None
                if info is not None and info.min_length is not None:
                    check = min_length(check, info.min_length)
                if info is not None and (info.ge is not None or info.le is not None):
                    check = bounds(check, info.ge, info.le)
                spec = _Field(name, (info.alias if info else None) or name, check, info, raw)
                spec.record = holds
                spec.nests = not scalar(text, scope)
                spec.text, spec.names = text, scope
                made.append(spec)
        fields = tuple(made)
        cls._fields = fields
        cls._nesting = tuple(f.name for f in fields if f.nests)
        cls._by_key = {f.name: f for f in fields} | {f.key: f for f in fields}
        return fields

    @classmethod
    def _build(
        cls, data: Mapping[str, Any], loc: tuple[Any, ...], errors: list[dict[str, Any]]
    ) -> Any:
        fields = cls.__dict__.get("_fields") or cls._spec()
        values: dict[str, Any] = {}
        before = len(errors)  # every check that fails says why there: more problems, a failure
        for f in fields:
            key = f.key
            if key in data:
                v = data[key]
            elif f.name in data:
                v = data[f.name]
            elif f.factory is not None:
                values[f.name] = f.factory()
                continue
            elif f.default is not _MISSING:
                values[f.name] = _copy_value(f.default)
                continue
            else:
                problem(errors, (loc, key), "missing", "Field required")
                continue
            if f.before is not None:
                v = f.before(v)
            values[f.name] = f.check(v, (loc, key), errors)
        if cls.EXTRA_FORBIDDEN:
            by_key = cls._by_key
            for key in data:
                if key not in by_key:
                    problem(errors, (loc, key), "extra_forbidden", EXTRA)
        if len(errors) > before:
            return FAILED
        new = cls.__new__(cls)
        new.__dict__.update(values)
        new._after_build()
        return new

    def __init__(self, **values: Any) -> None:
        errors: list[dict[str, Any]] = []
        built = type(self)._build(values, (), errors)
        if errors or built is FAILED:
            raise RecordError(type(self).__name__, errors)
        self.__dict__.update(built.__dict__)

    def _after_build(self) -> None:
        """Fill in what a record of an older shape lacks (a subclass's; the fields are set)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if self.FROZEN:
            raise TypeError(f"{type(self).__name__} is frozen: {name} cannot be set")
        object.__setattr__(self, name, value)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.__dict__ == self.__dict__

    def __hash__(self) -> int:
        if not self.FROZEN:
            raise TypeError(f"unhashable type: {type(self).__name__}")
        return hash(tuple(self.model_dump(mode="json").items().__repr__()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{f.name}={self.__dict__.get(f.name)!r}" for f in self._spec())
        return f"{type(self).__name__}({inner})"

    # --- pydantic's names, for what the code asks of its records ----------------------------

    @classmethod
    def model_validate(cls, data: Any) -> Self:
        if isinstance(data, cls):
            return data
        fast = cls.__dict__.get("_fast")
        if fast and type(data) is dict:  # compiled: what it accepts, the checks below accept
            try:
                return fast(data)  # type: ignore[no-any-return]
            except Slow:
                pass  # not a plain valid record: the checks below say what is wrong
        elif fast is None:
            cls._loads = cls.__dict__.get("_loads", 0) + 1
            if cls._loads >= FAST_AFTER:
                cls._fast = compile_fast(cls, _MISSING, _copy_value)
        errors: list[dict[str, Any]] = []
        if not isinstance(data, dict):
            problem(
                errors,
                (),
                "model_type",
                f"Input should be a valid dictionary or instance of {cls.__name__}",
            )
            raise RecordError(cls.__name__, errors)
        built = cls._build(data, (), errors)
        if errors or built is FAILED:
            raise RecordError(cls.__name__, errors)
        return built  # type: ignore[no-any-return]

    @classmethod
    def model_validate_json(cls, data: str | bytes) -> Self:
        try:
            raw = json.loads(data)
        except (ValueError, RecursionError) as exc:
            raise RecordError(
                cls.__name__, [{"loc": (), "msg": f"Invalid JSON: {exc}", "type": "json_invalid"}]
            ) from None
        return cls.model_validate(raw)

    def model_dump(
        self,
        *,
        mode: str = "python",
        by_alias: bool = False,
        exclude: Iterable[str] | None = None,
        round_trip: bool = False,
    ) -> dict[str, Any]:
        cached = self.FROZEN and mode == "json" and not exclude
        if cached:  # a frozen record's JSON is made once (a task's log entries, saved again and
            hit = _FROZEN_JSON.get((id(self), by_alias))  # again); copied: the caller may change it
            if hit is not None and hit[0] is self:
                return dict(hit[1])
        skip = set(exclude or ())
        data = self.__dict__
        out: dict[str, Any] = {}
        for f in self._spec():
            if f.name in skip:
                continue
            out[f.key if by_alias else f.name] = _dump_value(data.get(f.name), mode, by_alias)
        if cached and all(type(v) in _SCALARS for v in out.values()):
            if len(_FROZEN_JSON) >= _FROZEN_MOST:
                _FROZEN_JSON.clear()
            _FROZEN_JSON[(id(self), by_alias)] = (self, dict(out))  # the record kept: its id too
        return out

    def model_dump_json(self, *, by_alias: bool = False, indent: int | None = None) -> str:
        text: str = json.dumps(
            self.model_dump(mode="json", by_alias=by_alias), indent=indent, ensure_ascii=False
        )
        return text

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy (`deep`: its lists, dicts and records copied too; frozen records shared), with
        `update`'s values set as they are (not validated)."""
        new = type(self).__new__(type(self))
        if deep:
            values = {k: _copy_value(v) for k, v in self.__dict__.items()}
        else:
            values = dict(self.__dict__)
        if update:
            values.update(update)
        new.__dict__.update(values)
        return new

    def validate_all(self) -> None:
        """Check the record as a load of its JSON would (assignments are not checked)."""
        type(self).model_validate(self.model_dump(mode="json", by_alias=True))

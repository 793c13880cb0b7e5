"""task.json and status.json on disk: validated loads, atomic saves, quarantine.

Every save writes a temporary file in the same folder, fsyncs it, renames it over
the old file and fsyncs the folder, so a reader sees the old file or the new one,
never a torn one. A file that fails to parse or validate is moved aside as
`<file>.corrupt-<UTC time>` and reported; it is never replaced by a fresh one.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime

from taskproto import plainjson as json
from taskproto.errors import (
    CorruptState,
    TaskprotoError,
    UnsupportedSchema,
    ValidationFailed,
)

# re-exported: the write helpers live where the standard-library paths import them from
from taskproto.state import files
from taskproto.state.files import TMP_PREFIX as TMP_PREFIX
from taskproto.state.files import atomic_write as atomic_write
from taskproto.state.files import refuse_links as refuse_links
from taskproto.state.models import SCHEMA_VERSION, AgentStatus, Task
from taskproto.state.record import Record, RecordError

# the write path loads this module: no `typing`, `pathlib` or `re` at run time
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, TypeVar

    M = TypeVar("M", bound=Record)
    PathLike = str | os.PathLike[str]

MAX_STATE_FILE = 16 * 1024 * 1024  # a task.json past this is not one we wrote
# Deeper than any state taskproto writes; far below where copying or dumping a task would
# exhaust Python's recursion limit. Checked on save and on load, so a saved file always loads.
MAX_DEPTH = 64


def too_deep(value: object, limit: int = MAX_DEPTH) -> bool:
    """Whether `value` (JSON data or a record) nests deeper than `limit` (iterative: no
    recursion). A record's fields of strings, numbers and times nest nothing, and a record with no
    other field (a log entry) is a level of its own, not walked."""
    if isinstance(value, NESTS) and limit < 1:
        return True
    stack: list[tuple[object, int]] = [(value, 1)]
    pop, push = stack.pop, stack.append
    while stack:
        item, depth = pop()
        if isinstance(item, Record):
            children: Any = item.nested_values()
        elif isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        depth += 1  # the children's level
        for child in children:
            if isinstance(child, Record) and not type(child)._nesting:
                if depth > limit:
                    return True
            elif isinstance(child, NESTS):
                if depth > limit:
                    return True
                push((child, depth))
    return False


NESTS = (Record, dict, list, tuple)


def dump(model: Record) -> bytes:
    """The file's bytes; refuses what could not be read back (text that is not UTF-8, deep
    nesting)."""
    if too_deep(model):
        raise ValidationFailed(
            f"refused to save a {type(model).__name__} nested deeper than {MAX_DEPTH} levels"
        )
    try:
        return (model.model_dump_json(by_alias=True, indent=2) + "\n").encode()
    except (UnicodeEncodeError, ValueError, TypeError) as exc:
        raise ValidationFailed(
            f"refused to save a {type(model).__name__}: {exc} (text that is not valid UTF-8?)"
        ) from None


def dump_schema1(task: Task) -> bytes:
    """task.json as schema 1 wrote it: the whole log, and none of schema 2's counts (what an
    older taskproto reads: `taskproto migrate --down`)."""
    data = task.model_dump(mode="json", by_alias=True)
    for key in ("log_count", "interruption_counts", "reached"):
        data.pop(key, None)
    checkpoint = data["checkpoint"]
    for approval in [checkpoint["plan_approval"], checkpoint["commit_approval"]] + list(
        checkpoint["revoked"]
    ):
        if approval is not None:
            approval.pop("seen", None)  # the approver's context came after schema 1
    data["schema_version"] = 1
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode()


def quarantine(path: PathLike) -> Path:
    from pathlib import Path

    path = Path(path)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    os.replace(path, target)
    return target


def read_bytes(path: PathLike) -> bytes:
    """Read a state file, refusing anything that is not a small regular file."""
    try:
        got = files.read_regular(os.fspath(path), MAX_STATE_FILE)  # FileNotFoundError: the caller's
    except PermissionError:
        raise TaskprotoError(
            f"{path} cannot be read (permission denied); fix its permissions"
        ) from None
    if not isinstance(got, str):
        return got
    if got == files.LINK:
        raise TaskprotoError(
            f"{path} is a symbolic link; taskproto only reads regular files it wrote"
        )
    if got == files.NOT_REGULAR:
        raise TaskprotoError(
            f"{path} is not a regular file; move it aside and run `taskproto doctor`"
        )
    raise TaskprotoError(
        f"{path} is larger than any state file taskproto writes ({MAX_STATE_FILE} bytes); "
        "move it aside and run `taskproto doctor`"
    )


def _decode(data: bytes) -> tuple[object, str | None]:
    """The JSON document, or the reason it is not one we could have written. (Its depth is checked
    on the validated model: only free-form fields can nest deeper than a model's own shape.)"""
    try:
        raw = json.loads(data)
    except RecursionError:
        return None, "not valid JSON: nested too deeply"
    except (
        ValueError
    ) as exc:  # JSONDecodeError, UnicodeDecodeError, an integer past the digit limit
        return None, f"not valid JSON: {exc}"
    # what could decode to a lone surrogate (json.loads decodes bytes with "surrogatepass"): a
    # \uD800-\uDFFF escape, or one encoded as UTF-8 bytes; UTF-16 and UTF-32 text is always checked
    if b"\x00" in data[:4] or _maybe_surrogate(data):
        try:
            # a lone surrogate escape ("\\ud800") loads, but could never be saved again
            json.dumps(raw, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            return None, "holds an unpaired UTF-16 surrogate escape"
        except RecursionError:
            return None, f"nested deeper than {MAX_DEPTH} levels"
    return raw, None


def _maybe_surrogate(data: bytes) -> bool:
    """A `\\uD8..`-`\\uDF..` escape or the UTF-8 bytes of a surrogate in `data` (no `re`: the
    write path does not import it). Found at memchr speed when there is none."""
    if b"\xed" in data:
        i = data.find(b"\xed")
        while i != -1:
            if i + 1 < len(data) and 0xA0 <= data[i + 1] <= 0xBF:
                return True
            i = data.find(b"\xed", i + 1)
    for escape in (b"\\u", b"\\U"):
        i = data.find(escape)
        while i != -1:
            digits = data[i + 2 : i + 4].lower()
            if len(digits) == 2 and digits[0:1] == b"d" and digits[1:2] in b"89abcdef":
                return True
            i = data.find(escape, i + 2)
    return False


def parse(model: type[M], path: PathLike, data: bytes, move_aside: bool) -> M:
    """Validate `data` as `model`; on failure quarantine (if asked) and raise CorruptState.

    Never raises anything but CorruptState or UnsupportedSchema, whatever the bytes.
    """
    return parse_raw(model, path, data, move_aside)[0]


def parse_raw(model: type[M], path: PathLike, data: bytes, move_aside: bool) -> tuple[M, Any]:
    """`parse`, and the JSON document it validated (for checks that read it as data)."""
    raw, problem = _decode(data)
    if problem is None:
        version = raw.get("schema_version") if isinstance(raw, dict) else None
        # 2.0 counts too: pydantic would coerce it to 2 and a save would then write a version we do
        # not know
        if (
            isinstance(version, (int, float))
            and not isinstance(version, bool)
            and version > SCHEMA_VERSION
        ):
            raise UnsupportedSchema(
                str(path),
                int(version) if float(version).is_integer() else version,  # type: ignore[arg-type]
                SCHEMA_VERSION,
            )
        try:
            validated = model.model_validate(raw)
        except RecordError as exc:
            first = exc.errors()[0]
            # a key of the file may hold anything (a newline too): the message stays one line
            loc = (
                ".".join(str(p) if str(p).isprintable() else repr(p) for p in first["loc"])
                or "(top)"
            )
            problem = f"not a valid {model.__name__}: {loc}: {first['msg']}"
        except RecursionError:
            problem = f"nested deeper than {MAX_DEPTH} levels"
        else:
            if not too_deep(validated):
                return validated, raw
            problem = f"nested deeper than {MAX_DEPTH} levels"
    moved = str(quarantine(path)) if move_aside else None
    raise CorruptState(str(path), problem, moved)


def load_task(path: PathLike, move_aside: bool = False) -> Task:
    return parse(Task, path, read_bytes(path), move_aside)


def load_status(path: PathLike, move_aside: bool = False) -> AgentStatus:
    return parse(AgentStatus, path, read_bytes(path), move_aside)


def save_status(path: PathLike, status: AgentStatus) -> None:
    atomic_write(path, dump(status))

"""The lines `init` adds to git's common `info/exclude` for the hook settings files it writes, and
takes out again.

`info/exclude` is shared by every worktree (git reads no exclude file of a worktree's own), so a
line here hides its file in the main worktree and in every task worktree alike. Each line is
anchored and names exactly one file `init` wrote (`/.claude/settings.local.json`,
`/.codex/hooks.json`): a file of the user's is never hidden by a pattern. What was added is kept in
the record (`agent-hooks.json`'s `exclude`: the file's path, our lines, its bytes before and the
hash of what we wrote), so taking the last line out puts back the file's bytes when nothing else
changed it since.
"""

from __future__ import annotations

from pathlib import Path

from taskproto.state.store import atomic_write

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def sha(data: bytes) -> str:
    """sha256's hex digest of `data`, as the records keep it."""
    try:  # the builtin module: hashlib loads OpenSSL, 2 ms of every `task create`
        from _sha256 import sha256  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        from hashlib import sha256
    return str(sha256(data).hexdigest())


def b64encode(data: bytes) -> str:
    import base64  # only when init adds a line: not on a new worktree's set-up

    return base64.b64encode(data).decode()


def b64decode(text: str) -> bytes:
    import base64

    return base64.b64decode(text)


def lines(record: dict[str, Any]) -> list[str]:
    """The lines the record says we added."""
    state = record.get("exclude")
    found = state.get("lines") if isinstance(state, dict) else None
    return [str(line) for line in found] if isinstance(found, list) else []


def add(record: dict[str, Any], path: Path, line: str) -> None:
    """`line` in the exclude file at `path`, recorded as ours when we added it."""
    existing = path.read_bytes() if path.exists() else None
    text = (existing or b"").decode("utf-8", "replace")
    if line in text.splitlines():
        return
    state = record.setdefault("exclude", {"path": str(path), "lines": []})
    if "original" not in state:
        state["original"] = None if existing is None else b64encode(existing)
    new = text + ("" if not text or text.endswith("\n") else "\n") + line + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, new.encode())
    state["lines"].append(line)
    state["written"] = sha(new.encode())


def drop(record: dict[str, Any], ours: set[str]) -> None:
    """Take `ours` (lines we added) out of the exclude file; the file's old bytes back when no
    line of ours is left and nobody changed it since."""
    state = record.get("exclude")
    ours = ours & set(lines(record))  # a line the user wrote stays, even one equal to ours
    if not state or not ours:
        return
    path = Path(state["path"])
    remaining = [line for line in state["lines"] if line not in ours]
    try:
        current = path.read_bytes()
    except FileNotFoundError:
        current = b""
    if not remaining and sha(current) == state.get("written"):
        original = state.get("original")
        if original is None:
            path.unlink(missing_ok=True)
        else:
            atomic_write(path, b64decode(original))
        record.pop("exclude")
        return
    kept = [
        line
        for line in current.decode("utf-8", "replace").splitlines(keepends=True)
        if line.rstrip("\n") not in ours
    ]
    text = "".join(kept).encode()
    atomic_write(path, text)
    state["lines"] = remaining
    state["written"] = sha(text)

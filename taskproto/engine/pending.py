"""What this machine could not tell the shared remote yet, one record a task:
`<root>/<kind>/<task>`, one line. Two kinds: `removals-pending` (a removal made while the remote
could not be reached; the line is the journal head it removed, engine/removed.py) and
`claims-pending` (a claim made before the remote was turned on, which `init --remote` could not
publish; the line is the owner's session, engine/publish_claims.py). The next `sync` tells the
remote and clears the record."""

from __future__ import annotations

import os

from taskproto.engine.core import Core

REMOVALS, CLAIMS = "removals-pending", "claims-pending"


def _path(core: Core, kind: str, task: str) -> str:
    return os.path.join(core.config.layout.root, kind, task)


def mark(core: Core, kind: str, task: str, line: str) -> None:
    from taskproto.state.files import atomic_write

    os.makedirs(os.path.dirname(_path(core, kind, task)), exist_ok=True)
    atomic_write(_path(core, kind, task), (line + "\n").encode())


def read(core: Core, kind: str, task: str) -> str | None:
    """The record's line, or None when there is no record (or it cannot be read)."""
    try:
        with open(_path(core, kind, task), encoding="utf-8") as fh:
            return fh.read().strip()
    except OSError:
        return None


def clear(core: Core, kind: str, task: str) -> None:
    try:
        os.unlink(_path(core, kind, task))
    except FileNotFoundError:
        pass


def tasks(core: Core, kind: str) -> list[str]:
    """The tasks with a record of `kind`, by name."""
    try:
        return sorted(os.listdir(os.path.join(core.config.layout.root, kind)))
    except FileNotFoundError:
        return []


def waiting(root: str, kind: str) -> dict[str, str]:
    """{task: its record's line} of the records of `kind` under taskproto's `root` (doctor)."""
    try:
        names = sorted(os.listdir(os.path.join(root, kind)))
    except FileNotFoundError:
        return {}
    found: dict[str, str] = {}
    for name in names:
        try:
            with open(os.path.join(root, kind, name), encoding="utf-8") as fh:
                found[name] = fh.read().strip()
        except OSError:
            continue
    return found

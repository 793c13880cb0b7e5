"""The state flags hooks decide on (allows_commits, allows_edits, push_ok, ...), cached as plain
JSON.

Shared by the git hooks and the agent-client hooks.

Loading a workflow means pydantic (and, for user workflows, tomllib and
validation): a hundred milliseconds or more. A guard decision on a task branch
may cost at most a few times the interpreter's start-up, so the flags of each
workflow are kept in `<root>/cache/hook-flags.json` with a fingerprint of
everything the definition comes from: the built-in workflow modules, the
repository's settings files and `<root>/workflows/<name>.toml`. A changed
fingerprint recomputes the entry (once, on the slow path), so the cache is never
trusted after a definition changes.

The built-in workflows' tables are not taken from that cache: they ship with the package
(`machine/builtin/tables/`, written by scripts/make_builtin_tables.py and checked against the
definitions by a test), where no agent writes, while a git command could overwrite a file in
the repository's cache.
"""

from __future__ import annotations

import os

from taskproto import __version__
from taskproto import plainjson as json

TYPE_CHECKING = False  # not `from typing`: importing typing costs a no-op hook ~10% of its time
if TYPE_CHECKING:
    from typing import Any

    from taskproto.layout import Layout

CACHE = os.path.join("cache", "hook-flags.json")
# What each state's entry holds (machine/workflow.py `Workflow.state_table`); an entry without
# one of these was written by an older version and is recomputed.
STATE_KEYS = frozenset(
    ("allows_commits", "allows_edits", "terminal", "final", "approval", "push_ok", "next")
    + ("user_triggers", "triggers", "initial")
)
_BUILTIN_DIR = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "machine", "builtin"
)


def _stat(path: str) -> str:
    try:
        st = os.stat(path)
    except OSError:
        return "-"
    return f"{st.st_mtime_ns}:{st.st_size}"


def fingerprint(layout: Layout, workflow: str) -> str:
    parts = [__version__]
    try:
        names = sorted(n for n in os.listdir(_BUILTIN_DIR) if n.endswith(".py"))
    except OSError:
        names = []
    parts += [f"{n}={_stat(os.path.join(_BUILTIN_DIR, n))}" for n in names]
    for path in (
        os.path.join(layout.main, ".taskproto.toml"),
        os.path.join(layout.main, "pyproject.toml"),
        os.path.join(layout.root, "workflows", workflow + ".toml"),
    ):
        parts.append(_stat(path))
    return "|".join(parts)


_TABLES = os.path.join(_BUILTIN_DIR, "tables")  # scripts/make_builtin_tables.py writes them


def builtin_table(workflow: str) -> dict[str, dict[str, Any]] | None:
    """A built-in workflow's states with their flags, as shipped with the package (where no agent
    writes), or None for a workflow that is not built in. Built-in names cannot be redefined."""
    if not workflow.replace("-", "").isalnum():
        return None
    try:
        with open(os.path.join(_TABLES, workflow + ".json"), "rb") as fh:
            states = json.loads(fh.read())
    except (OSError, ValueError):
        return None
    return states if isinstance(states, dict) else None


def cached_flags(layout: Layout, workflow: str) -> dict[str, dict[str, Any]] | None:
    """The states of `workflow` with their flags: a built-in's as shipped, else the repository's
    cache if it is current; else None."""
    shipped = builtin_table(workflow)
    if shipped is not None:
        return shipped
    try:
        with open(os.path.join(layout.root, CACHE), "rb") as fh:
            entry = json.loads(fh.read()).get(workflow)
    except (OSError, ValueError, AttributeError):
        return None
    if not isinstance(entry, dict) or entry.get("fingerprint") != fingerprint(layout, workflow):
        return None
    states = entry.get("states")
    if not isinstance(states, dict) or not all(
        isinstance(f, dict) and STATE_KEYS <= f.keys() for f in states.values()
    ):
        return None  # written by an older version: recomputed
    return states


def state_flags(layout: Layout, workflow: str) -> dict[str, dict[str, Any]]:
    """Cached flags, else load the workflow (slow path) and refresh the cache.

    Raises TaskprotoError when the workflow is unknown or invalid.
    """
    states = cached_flags(layout, workflow)
    return states if states is not None else refresh(layout, workflow)


def warm(layout: Layout, workflows: set[str]) -> None:
    """Cache the state tables of `workflows`, so the next `task list` or `task show` (cli/quick.py)
    and SessionStart (hooks/agents/offer.py) are answered without loading them."""
    from taskproto.errors import TaskprotoError

    for workflow in workflows:
        try:
            state_flags(layout, workflow)
        except TaskprotoError:
            continue  # an unknown workflow: its tasks are listed as broken


def refresh(layout: Layout, workflow: str) -> dict[str, dict[str, Any]]:
    """Load the workflow (pydantic, and tomllib for a user workflow) and store its flags."""
    from taskproto.hooks.hookconfig import config_for, enable_site_packages

    enable_site_packages()
    from taskproto.machine.registry import get_workflow
    from taskproto.state.files import atomic_write

    states = get_workflow(workflow, config_for(layout)).state_table()
    path = os.path.join(layout.root, CACHE)
    try:
        with open(path, "rb") as fh:
            data = json.loads(fh.read())
        if not isinstance(data, dict):
            data = {}
    except (OSError, ValueError):
        data = {}
    data[workflow] = {"fingerprint": fingerprint(layout, workflow), "states": states}
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        from pathlib import Path

        atomic_write(Path(path), (json.dumps(data, indent=1, sort_keys=True) + "\n").encode())
    except OSError:
        pass  # a read-only root still gets a right answer, only a slower one
    return states

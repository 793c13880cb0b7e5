"""Which states of a workflow allow edits, cached as plain JSON for the tool-call hook.

Loading a workflow means pydantic: far more than a tool-call hook may spend. The
answer is kept in `<root>/cache/agent-hook-flags.json` with a fingerprint of
what the definition comes from (the built-in workflow modules, the repository's
settings files, `<root>/workflows/<name>.toml`); a changed fingerprint sends the
hook to the slow path once, which recomputes and rewrites the entry.
"""

from __future__ import annotations

import json
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from taskproto.agent_hooks.common import Layout

CACHE = os.path.join("cache", "agent-hook-flags.json")
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_BUILTIN_DIR = os.path.join(_PACKAGE, "workflows")


def _stat(path: str) -> str:
    try:
        st = os.stat(path)
    except OSError:
        return "-"
    return f"{st.st_mtime_ns}:{st.st_size}"


def fingerprint(layout: Layout, workflow: str) -> str:
    try:
        names = sorted(n for n in os.listdir(_BUILTIN_DIR) if n.endswith(".py"))
    except OSError:
        names = []
    parts = [_stat(os.path.join(_PACKAGE, "__init__.py"))]
    parts += [f"{n}={_stat(os.path.join(_BUILTIN_DIR, n))}" for n in names]
    for path in (os.path.join(layout.main, ".taskproto.toml"), os.path.join(layout.main, "pyproject.toml"),
                 os.path.join(layout.root, "workflows", workflow + ".toml")):
        parts.append(_stat(path))
    return "|".join(parts)


def cached(layout: Layout, workflow: str) -> dict[str, bool] | None:
    try:
        with open(os.path.join(layout.root, CACHE), "rb") as fh:
            entry = json.loads(fh.read()).get(workflow)
    except (OSError, ValueError, AttributeError):
        return None
    if not isinstance(entry, dict) or entry.get("fingerprint") != fingerprint(layout, workflow):
        return None
    states = entry.get("allows_edits")
    return states if isinstance(states, dict) else None


def refresh(layout: Layout, workflow: str) -> dict[str, bool]:
    """Load the workflow (slow: pydantic) and store its edit flags. Raises TaskprotoError if unknown."""
    from pathlib import Path

    from taskproto.config import load_config
    from taskproto.store import atomic_write
    from taskproto.workflows import get_workflow

    wf = get_workflow(workflow, load_config(Path(layout.main), root=layout.root))  # user workflows too
    states = {s.name: bool(s.allows_edits) for s in wf.states}
    path = os.path.join(layout.root, CACHE)
    try:
        with open(path, "rb") as fh:
            data = json.loads(fh.read())
        if not isinstance(data, dict):
            data = {}
    except (OSError, ValueError):
        data = {}
    data[workflow] = {"fingerprint": fingerprint(layout, workflow), "allows_edits": states}
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        atomic_write(Path(path), (json.dumps(data, indent=1, sort_keys=True) + "\n").encode())
    except OSError:
        pass  # a read-only root still gets the right answer, only slower
    return states

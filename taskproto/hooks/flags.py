"""The state flags hooks decide on (allows_commits, allows_edits, push_ok, ...), cached as plain JSON.

Shared by the git hooks and the agent-client hooks.

Loading a workflow means pydantic (and, for user workflows, tomllib and
validation): a hundred milliseconds or more. A guard decision on a task branch
may cost at most a few times the interpreter's start-up, so the flags of each
workflow are kept in `<root>/cache/hook-flags.json` with a fingerprint of
everything the definition comes from: the built-in workflow modules, the
repository's settings files and `<root>/workflows/<name>.toml`. A changed
fingerprint recomputes the entry (once, on the slow path), so the cache is never
trusted after a definition changes.
"""

from __future__ import annotations

import json
import os

TYPE_CHECKING = False  # not `from typing`: importing typing costs a no-op hook ~10% of its time
if TYPE_CHECKING:
    from typing import Any

from taskproto import __version__

CACHE = os.path.join("cache", "hook-flags.json")
_BUILTIN_DIR = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "machine", "builtin"
)


def _stat(path: str) -> str:
    try:
        st = os.stat(path)
    except OSError:
        return "-"
    return f"{st.st_mtime_ns}:{st.st_size}"


def fingerprint(repo_top: str, root: str, workflow: str) -> str:
    parts = [__version__]
    try:
        names = sorted(n for n in os.listdir(_BUILTIN_DIR) if n.endswith(".py"))
    except OSError:
        names = []
    parts += [f"{n}={_stat(os.path.join(_BUILTIN_DIR, n))}" for n in names]
    for path in (
        os.path.join(repo_top, ".taskproto.toml"),
        os.path.join(repo_top, "pyproject.toml"),
        os.path.join(root, "workflows", workflow + ".toml"),
    ):
        parts.append(_stat(path))
    return "|".join(parts)


def cached_flags(repo_top: str, root: str, workflow: str) -> dict[str, dict[str, Any]] | None:
    """The states of `workflow` with their flags, if the cache is current; else None."""
    try:
        with open(os.path.join(root, CACHE), "rb") as fh:
            entry = json.loads(fh.read()).get(workflow)
    except (OSError, ValueError, AttributeError):
        return None
    if not isinstance(entry, dict) or entry.get("fingerprint") != fingerprint(
        repo_top, root, workflow
    ):
        return None
    states = entry.get("states")
    return states if isinstance(states, dict) else None


def state_flags(repo_top: str, root: str, workflow: str) -> dict[str, dict[str, Any]]:
    """Cached flags, else load the workflow (slow path) and refresh the cache."""
    states = cached_flags(repo_top, root, workflow)
    if states is not None:
        return states
    from taskproto.hooks import slow

    slow.enable_site_packages()
    return slow.refresh_flags(repo_top, root, workflow)


def compute(wf: Any) -> dict[str, dict[str, Any]]:
    """Flags of every state of a loaded Workflow.

    push_ok: a task branch may go to a protected branch in COMPLETE and in any
    state reachable from it (task-protocol: COMPLETE, CLEANUP); a workflow with no
    COMPLETE state allows it in its terminal states.
    """
    edges: dict[str, list[str]] = {s.name: [] for s in wf.states}
    for t in wf.transitions:
        for src in t.source:
            edges.setdefault(src, []).append(t.dest)
    push_ok: set[str] = set()
    if "COMPLETE" in edges:
        todo = ["COMPLETE"]
        while todo:
            state = todo.pop()
            if state not in push_ok:
                push_ok.add(state)
                todo += edges.get(state, [])
    else:
        push_ok = {s.name for s in wf.states if s.terminal}
    return {
        s.name: {
            "allows_commits": s.allows_commits,
            "allows_edits": s.allows_edits,
            "terminal": s.terminal,
            "push_ok": s.name in push_ok,
            "next": list(dict.fromkeys(edges.get(s.name, []))),
        }
        for s in wf.states
    }

"""Which states of a workflow allow edits, for the tool-call hook.

The flags come from the git hooks' cache (`taskproto.hooks.flags`, kept in
`<root>/cache/hook-flags.json` with a fingerprint of every definition source), so
both kinds of hook share one table and one way of keeping it current.
"""

from __future__ import annotations

from taskproto.hooks import flags as hook_flags

TYPE_CHECKING = False
if TYPE_CHECKING:
    from taskproto.hooks.agents.common import Layout


def _edits(states: dict[str, dict[str, object]]) -> dict[str, bool] | None:
    if not all(isinstance(f, dict) and "allows_edits" in f for f in states.values()):
        return None  # written by an older taskproto: recompute
    return {name: bool(f["allows_edits"]) for name, f in states.items()}


def cached(layout: Layout, workflow: str) -> dict[str, bool] | None:
    states = hook_flags.cached_flags(layout.main, layout.root, workflow)
    return None if states is None else _edits(states)


def refresh(layout: Layout, workflow: str) -> dict[str, bool]:
    """Load the workflow (slow: pydantic) and store its flags. Raises TaskprotoError if unknown."""
    from taskproto.hooks import slow

    edits = _edits(slow.refresh_flags(layout.main, layout.root, workflow))
    assert edits is not None  # just computed by this version
    return edits

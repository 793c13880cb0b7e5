"""Whether a task's work waits on the user's interruption, read from task.json's JSON: the one
rule for every reader of that JSON (the hooks' `light.TaskView`, the index's rows, the listings'
summary). `models.Task.paused_by` is the same rule on the validated model. Nothing imported."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def paused_type(data: dict[str, Any]) -> str | None:
    """The type of the user's latest interruption while the work waits on it: not a resumption,
    and recorded in the state the task is still in (a question stops the work there until the
    user says to go on); else None."""
    interruptions = data.get("interruptions")
    last = interruptions[-1] if isinstance(interruptions, list) and interruptions else None
    if not isinstance(last, dict) or last.get("type") in (None, "RESUMPTION"):
        return None
    return str(last["type"]) if last.get("state") == data.get("state") else None

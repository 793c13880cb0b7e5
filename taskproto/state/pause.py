"""Whether a task's work waits on the user's interruption, read from task.json's JSON: the one
rule for every reader of that JSON (the hooks' `light.TaskView`, the index's rows, the listings'
summary) and for the validated model (`models.Task.paused_by`). Nothing imported."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def waits(kind: object, recorded_in: object, state: object) -> bool:
    """Whether the work of a task now in `state` waits on an interruption of type `kind`
    recorded in state `recorded_in`: one that is not a resumption, in the state it is still in
    (a question stops the work there until the user says to go on)."""
    return kind not in (None, "RESUMPTION") and recorded_in == state


def paused_type(data: dict[str, Any]) -> str | None:
    """The type of the user's latest interruption while the work waits on it: not a resumption,
    and recorded in the state the task is still in (a question stops the work there until the
    user says to go on); else None."""
    interruptions = data.get("interruptions")
    last = interruptions[-1] if isinstance(interruptions, list) and interruptions else None
    if not isinstance(last, dict) or not waits(
        last.get("type"), last.get("state"), data.get("state")
    ):
        return None
    return str(last["type"])

"""The user's review comments on a task: kept in task.json (`context["review"]`), so journaled.

Pure functions over a Task. A comment is a draft until the user requests a revision; then the
drafts go out together as one batch with the revision. The latest batch is *pending* for the agent
until the task makes its next transition after the revision: the hooks' context and the prompt
show it while the agent works on it.

    context["review"] = {
      "next_id": 4,
      "drafts": [{"id", "target": "diff"|"plan", "file", "line", "text", "head", "by", "time"}],
      "sent": [{"batch", "time", "by", "trigger", "from_state", "state", "head", "message",
                "comments": [...], "log_index"}],
    }
"""

from __future__ import annotations

from typing import Any

from taskproto.state.models import Task

KEY = "review"
TARGETS = ("diff", "plan")
MAX_TEXT = 4000  # characters of one comment or message
MAX_FILE = 500
MAX_DRAFTS = 200
# Revisions taskproto itself sends back (engine/update.py, the merge queue): trigger -> why.
SENT_BACK = {
    "update_conflict": "the base branch conflicts with it. Resolve the conflict:",
    "checks_failed": "the landing checks failed on it updated onto the base. Fix them:",
}


def _section(task: Task) -> dict[str, Any]:
    section = task.context.get(KEY)
    return section if isinstance(section, dict) else {}


def drafts(task: Task) -> list[dict[str, Any]]:
    found = _section(task).get("drafts")
    return [d for d in found if isinstance(d, dict)] if isinstance(found, list) else []


def batches(task: Task) -> list[dict[str, Any]]:
    found = _section(task).get("sent")
    return [b for b in found if isinstance(b, dict)] if isinstance(found, list) else []


def add_draft(task: Task, comment: dict[str, Any]) -> dict[str, Any]:
    """Append `comment` (without id) to the drafts of `task` (a copy the caller will save)."""
    section = task.context.setdefault(KEY, {})
    number = int(section.get("next_id") or 1)
    stored = {"id": number, **comment}
    section["next_id"] = number + 1
    section.setdefault("drafts", []).append(stored)
    return stored


def remove_draft(task: Task, comment_id: int) -> bool:
    section = task.context.get(KEY)
    if not isinstance(section, dict):
        return False
    before = section.get("drafts") or []
    after = [d for d in before if not (isinstance(d, dict) and d.get("id") == comment_id)]
    section["drafts"] = after
    return len(after) != len(before)


def send(task: Task, batch: dict[str, Any]) -> dict[str, Any]:
    """Move every draft into a new sent batch (`batch` holds the revision's facts)."""
    section = task.context.setdefault(KEY, {})
    sent = section.setdefault("sent", [])
    stored = {"batch": len(sent) + 1, **batch, "comments": drafts(task)}
    sent.append(stored)
    section["drafts"] = []
    return stored


def pending(task: Task) -> dict[str, Any] | None:
    """The latest batch, while the agent still has to act on it (no transition since)."""
    found = batches(task)
    if not found:
        return None
    last = found[-1]
    index = last.get("log_index")
    if not isinstance(index, int):
        return None
    later = task.transition_log[max(0, index + 1 - task.log_offset) :]  # the log's tail
    if any(entry.kind == "transition" for entry in later):
        return None
    return last


def where(comment: dict[str, Any]) -> str:
    """`file:line` for the diff, `plan file line N` for the plan."""
    file, line = comment.get("file") or "?", comment.get("line")
    if comment.get("target") == "plan":
        return f"plan {file} line {line}" if line else f"plan {file}"
    return f"{file}:{line}" if line else str(file)


def feedback_text(batch: dict[str, Any]) -> str:
    """The revision's feedback as the agent reads it: the message, then each comment with its
    place."""
    lines: list[str] = []
    message = str(batch.get("message") or "").strip()
    if message:
        lines.append(message)
    comments = batch.get("comments") or []
    if comments:
        head = str(batch.get("head") or "")
        lines.append("Review comments" + (f" on commit {head[:12]}" if head else "") + ":")
        for c in comments:
            lines.append(f"- {where(c)}: {str(c.get('text') or '').strip()}")
    return "\n".join(lines)


def context_text(task: Task) -> str:
    """What an agent is told at SessionStart and on each prompt while a batch is pending ("" if
    none)."""
    batch = pending(task)
    if batch is None:
        return ""
    body = feedback_text(batch)
    if not body:
        return ""
    how = f"({batch.get('trigger')}, {batch.get('from_state')} -> {batch.get('state')})"
    if batch.get("trigger") in SENT_BACK:
        return (
            f"taskproto: task {task.name} came back {how}: {SENT_BACK[batch['trigger']]}\n" + body
        )
    return (
        f"taskproto: the user requested a revision of task {task.name} {how} "
        "from the board. Address every point:\n" + body
    )

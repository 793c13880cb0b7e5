"""phone-a-team's relay payload: what one call to a backend is sent, under hard caps.

A payload has three parts, capped separately like phone-a-friend's relay:
the prompt (task description, round, a short summary of earlier rounds, the
latest output or delta, the last round's feedback, and how to answer
(`team_answer.INSTRUCTIONS`); never the whole history) up to 500 KB, extra context
(a file the caller adds) up to 200 KB, and the task's diff up to 300 KB. One
over its cap is refused, naming the cap and the excess.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from taskproto.errors import TaskprotoError
from taskproto.machine.builtin.phone_a_team import max_rounds
from taskproto.ops.team_answer import INSTRUCTIONS, feedback
from taskproto.state.models import Task

KB = 1024
CAPS = {"context": 200 * KB, "diff": 300 * KB, "prompt": 500 * KB}
SUMMARY_ROUNDS = 3  # "a 2-3 sentence summary of prior rounds"


@dataclass
class Payload:
    text: str
    sizes: dict[str, int]

    def as_dict(self) -> dict[str, Any]:
        return {"sizes": self.sizes, "caps": CAPS, "payload": self.text}


def earlier_rounds(task: Task) -> str:
    """One sentence per round, the last few only."""
    rounds = task.context.get("rounds") or []
    if not rounds:
        return ""
    sentences = []
    for r in rounds[-SUMMARY_ROUNDS:]:
        issues = r.get("unresolved") or [
            f"{b} failed ({why})" for b, why in (r.get("failures") or {}).items()
        ]
        detail = f": {'; '.join(issues)}" if issues else ""
        sentences.append(f"Round {r['round']} ended {r['outcome'].replace('_', ' ')}{detail}.")
    skipped = len(rounds) - SUMMARY_ROUNDS
    if skipped > 0:
        sentences.insert(0, f"{skipped} earlier round(s) omitted.")
    return " ".join(sentences)


def _feedback(task: Task) -> list[str]:
    """The last round's actionable feedback (from the backends' answers), when there is any."""
    rounds = task.context.get("rounds") or []
    calls = (rounds[-1].get("calls") or {}) if rounds else {}
    answers = {b: c for b, c in calls.items() if c.get("outcome") == "answered"}
    items = feedback(answers)
    if not items:
        return []
    return [f"# Feedback from round {rounds[-1]['round']}", *(f"- {i}" for i in items), ""]


def _kb(n: int) -> str:
    return f"{n / KB:.1f} KB"


def build(task: Task, diff: str, latest: str | None = None, context: str | None = None) -> Payload:
    """Assemble the payload for the task's current round; refuse one with a part over its cap."""
    output = latest if latest is not None else task.context.get("latest_output")
    if output is not None and not isinstance(output, str):
        from taskproto import plainjson as json

        output = json.dumps(output, indent=2)
    prompt = "\n".join(
        [
            f"# Task {task.name}",
            task.description or "(no description)",
            "",
            f"# Round {task.counters.round} of {max_rounds(task)}",
            "",
            "# Earlier rounds",
            earlier_rounds(task) or "(this is the first round)",
            "",
            "# Latest output",
            output or "(none yet)",
            "",
            *_feedback(task),
            INSTRUCTIONS,
        ]
    )
    context = context or ""
    sizes = {
        "prompt": len(prompt.encode()),
        "context": len(context.encode()),
        "diff": len(diff.encode()),
    }
    over = [
        f"{part} is {_kb(sizes[part])}, {_kb(sizes[part] - cap)} over the {cap // KB} KB {part} cap"
        for part, cap in CAPS.items()
        if sizes[part] > cap
    ]
    if over:
        raise TaskprotoError(
            f"relay payload of {task.name} refused: {'; '.join(over)}; "
            "send the delta or a shorter part"
        )
    text = prompt
    if context:
        text += "\n# Context\n" + context + ("" if context.endswith("\n") else "\n")
    text += "\n# Diff\n" + (diff or "(no changes)\n")
    return Payload(text, sizes)

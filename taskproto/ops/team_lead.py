"""phone-a-team's REVIEW by the lead, as in the seed: one reviewer grades the round's answers, all
of them together, against the rubric, and that grade decides (not each backend's grade of its own
answer, which is kept as information).

The lead is the first of the round's backends that answered (the task's order); its review is one
more call of that backend with `payload`: the description and every answer's DO part, and how to
answer (REVIEW and DECIDE only). A lead that does not answer hands the review to the next backend
that answered; when none reviews, every item counts as failed ("not assessed"), so the loop goes on
rather than converging unreviewed. Pure but for the call it is given.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from taskproto.machine.builtin.phone_a_team import RUBRIC
from taskproto.ops import team_answer

HOW_TO_REVIEW = """\
# How to review
You lead this round. Review the answers above, all of them together, against the rubric: does
the round's work (the best of them, or what they add up to) accomplish the task? Answer in two
sections, with these headings:
## REVIEW
acceptance: pass|fail - does the output accomplish the task as described? (one line why)
risks: pass|fail - free of bugs, security issues, logical errors, significant omissions?
validation: pass|documented|fail - checked (tests run, code reviewed, logic verified)?
  documented = not done, and the line says why
## DECIDE
verdict: converged|iterate
- one line per thing the next round must fix (none when converged)
"""


def payload(name: str, description: str, number: int, answers: dict[str, dict[str, Any]]) -> str:
    """What the lead is sent: the task, every answer's DO part, how to review."""
    parts = [f"# Task {name}", description.strip(), "", f"# Round {number}: the answers to review"]
    for backend, answer in answers.items():
        parts += [f"## Answer of {backend}", str(answer.get("do") or "").strip() or "(empty)", ""]
    return "\n".join([*parts, HOW_TO_REVIEW])


def review(
    answers: dict[str, dict[str, Any]], text: str, call: Callable[[str, str], str | None]
) -> tuple[dict[str, str], str, dict[str, Any]]:
    """(rubric, note, the lead's record) from the lead's review of `answers`; `call(backend,
    text)` is the backend's answer, or None when it gave none."""
    failed: list[str] = []
    for backend in answers:
        answered = call(backend, text)
        if answered is None:
            failed.append(backend)
            continue
        graded = team_answer.parse(answered)
        rubric, said = team_answer.combine({backend: graded})
        note = f"rubric by the lead ({backend}) over the answers of {', '.join(answers)}"
        if failed:
            note += f" ({', '.join(failed)} could not review)"
        note += said.removeprefix(f"rubric from the answers of {backend}")
        fixes = team_answer.feedback({backend: graded})
        if fixes:
            note += "; to fix: " + "; ".join(fixes)[:1000]
        return rubric, note, {"backend": backend, **graded}
    rubric = dict.fromkeys(RUBRIC, "fail")
    note = f"no lead could review the answers of {', '.join(answers)}: nothing was assessed"
    return rubric, note, {"backend": None, "failed": failed}

"""`taskproto escalate TASK --reason ...`: the escalation triggers no check can see, raised by the
agent or the person who met them, rendered from the same template as doctor's, kept open in
task.json (`escalations`, journaled, with a `note` entry in the log) until the user resumes the
task (`taskproto resume TASK`, ops/interrupts.py); until then `ready` and an unnamed `claim` pass it
by.

The task protocol escalates on: agent failure after 3 retries (doctor, `recover`), build failure
of an unknown type (`recover`), state corruption doctor cannot repair (doctor), and these two.
"""

from __future__ import annotations

from taskproto.doctor.escalation import render, work_at_risk
from taskproto.doctor.model import Finding, Option, Severity
from taskproto.doctor.snapshot import take
from taskproto.engine import Engine
from taskproto.state.models import Escalation, Task, utcnow

REASONS: dict[str, tuple[str, tuple[Option, ...]]] = {
    "conflicting-requirements": (
        "conflicting agent requirements with no resolution path",
        (
            Option(
                "Decide which requirement wins, tell the agents "
                '(`taskproto interrupt record TASK "<your decision>"`), then resume the task '
                "(`taskproto resume TASK`)",
                "the plan stands; the agents go on with a clear rule",
                "needs your decision",
            ),
            Option(
                "Re-plan: send the task back to its plan with the conflict as the reason "
                "(`taskproto rollback TASK --to <the plan's state>`), then resume it "
                "(`taskproto resume TASK`)",
                "the plan is redone with both requirements in view",
                "the work since the plan may be redone",
            ),
        ),
    ),
    "external-dependency": (
        "an external dependency is blocking progress",
        (
            Option(
                "Unblock the dependency yourself (access, a service, a release), then resume "
                "the task (`taskproto resume TASK`)",
                "the task goes on as planned",
                "needs you, and the dependency's owner",
            ),
            Option(
                "Release the task until the dependency is there (`taskproto release TASK`); "
                "resume it then (`taskproto resume TASK`)",
                "nobody waits on it; its branches and worktrees stay",
                "the task is parked",
            ),
        ),
    ),
}


def escalate(
    engine: Engine,
    name: str,
    reason: str,
    detail: str,
    tried: list[str],
    session: str | None,
) -> str:
    """Record the escalation on the task (open until the user resumes it) and render the message;
    returns the message."""
    title, options = REASONS[reason]
    check = f"escalation-{reason}"
    finding = Finding(check, Severity.ERROR, f"{title}: {detail}", name)

    def change(task: Task) -> tuple[Task, str]:
        new = task.model_copy(deep=True)
        now = utcnow()
        new.escalations.append(
            Escalation(reason=reason, detail=detail, tried=tried, at=now, session=session)
        )
        new.record(
            trigger="escalate",
            time=now,
            session=session,
            kind="note",
            note=f"escalated ({reason}): {detail}",
        )
        return new, f"escalate: {reason}"

    task = engine.mutate(name, change)
    snap = take(engine.config, [name])
    return render(engine.config, finding, task.state, tried, work_at_risk(snap, name), options)

"""What doctor reports: findings, fixes, and the table of known checks."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


class Severity(enum.StrEnum):
    ERROR = "error"  # the task cannot be trusted or moved until this is repaired
    WARNING = "warning"  # something is off; work can go on, but it needs attention
    INFO = "info"  # worth knowing; never makes doctor exit 1


@dataclass(frozen=True)
class Option:
    """One numbered choice in an escalation message."""

    title: str
    pros: str
    cons: str
    # What taskproto runs for `taskproto recover TASK --option N` (argv; TASK and AGENT are
    # replaced by the real names). None: a person has to do it.
    command: tuple[str, ...] | None = None


@dataclass(frozen=True)
class CheckInfo:
    id: str
    severity: Severity
    meaning: str
    fix: str | None  # what --fix does; None: no safe fix, doctor escalates
    needs_flag: str | None = None  # the fix only runs with this flag (e.g. --retry-agents)
    options: tuple[Option, ...] = ()  # for the escalation message


# in a finding's data: why its check's fix would refuse it as things are (no --fix is offered)
REFUSED = "refused"


@dataclass
class Finding:
    check: str
    severity: Severity
    message: str
    task: str | None = None
    agent: str | None = None
    path: str | None = None
    data: dict[str, Any] = field(default_factory=dict)  # what the fix needs (branch, sha, ...)

    @property
    def info(self) -> CheckInfo:
        return CHECKS[self.check]

    @property
    def refused(self) -> str | None:
        """Why the fix of this finding's check would refuse it now (None: it would be tried)."""
        found = self.data.get(REFUSED)
        return str(found) if found else None

    def key(self) -> tuple[str, str, str, str]:
        return (self.task or "", self.check, self.agent or "", self.path or "")

    def as_json(self) -> dict[str, Any]:
        info = self.info
        return {
            "check": self.check,
            "severity": self.severity.value,
            "task": self.task,
            "agent": self.agent,
            "path": self.path,
            "message": self.message,
            "fix": info.fix,
            "fix_needs": info.needs_flag,
            "fix_refused": self.data.get(REFUSED),
        }


@dataclass
class FixRecord:
    finding: Finding
    status: str  # applied | failed | planned | skipped
    action: str  # what was (or would be) done
    error: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "check": self.finding.check,
            "task": self.finding.task,
            "agent": self.finding.agent,
            "path": self.finding.path,
            "status": self.status,
            "action": self.action,
            "error": self.error,
        }


CHECKS: dict[str, CheckInfo] = {}


def check(
    id: str,
    severity: Severity,
    meaning: str,
    fix: str | None,
    needs_flag: str | None = None,
    options: tuple[Option, ...] = (),
) -> CheckInfo:
    info = CheckInfo(id, severity, meaning, fix, needs_flag, options)
    CHECKS[id] = info
    return info


ABANDON = Option(
    "Abandon the task and select another one",
    "unblocks you at once; nothing is deleted (`taskproto task remove` refuses while work is at "
    "risk)",
    "the task's progress is parked until someone comes back to it",
)

# An agent `taskproto agent start` ran (docs/agents.md, "Supervision"): started again as it ran.
RELAUNCH = Option(
    "Start the agent again as taskproto last ran it, with a new retry budget "
    "(`taskproto agent restart TASK AGENT`; only for an agent `taskproto agent start` ran)",
    "the agent goes on where its session was",
    "it may fail the same way",
    ("taskproto", "agent", "restart", "TASK", "AGENT"),
)

"""The persisted records: task.json and an agent's status.json (state/record.py, versioned)."""

from __future__ import annotations

from datetime import UTC, datetime

from taskproto.state import pause, summary
from taskproto.state.record import Record, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar, Literal

SCHEMA_VERSION = summary.SCHEMA_VERSION
STATUS_SCHEMA_VERSION = summary.STATUS_SCHEMA_VERSION
DEFAULT_PRIORITY = summary.DEFAULT_PRIORITY


def utcnow() -> datetime:
    return datetime.now(UTC)


class _Model(Record):
    """A record of task.json or status.json: unknown keys are refused."""


class Owner(_Model):
    session: str = field(min_length=1)
    host: str
    pid: int | None = None  # a process that lives as long as the session; None when unknown
    claimed_at: datetime
    heartbeat_at: datetime


ENTRY_KINDS = (
    "create",
    "transition",
    "claim",
    "takeover",
    "release",
    "approval",
    "agent",
    "repair",
    "note",
    "merge",
    "land",
    "rollback",
    "import",
)
if TYPE_CHECKING:
    EntryKind = Literal[
        "create",
        "transition",
        "claim",
        "takeover",
        "release",
        "approval",
        "agent",
        "repair",
        "note",
        "merge",
        "land",
        "rollback",
        "import",
    ]
else:  # the records read the alias as text: no `typing` at run time
    EntryKind = "Literal[{}]".format(", ".join(repr(k) for k in ENTRY_KINDS))


class LogEntry(_Model):
    """One line of the transition log: a state change, or an ownership/approval/repair event.
    Frozen: an entry, once written, never changes, so copies of a task share their entries."""

    FROZEN = True

    from_state: str | None = field(default=None, alias="from")
    to_state: str = field(alias="to")
    trigger: str
    time: datetime
    session: str | None = None
    kind: EntryKind = "transition"
    forced: bool = False
    note: str | None = None


class Interruption(_Model):
    type: str
    time: datetime
    state: str
    rule: str | None = None
    session: str | None = None
    text: str | None = None  # the first few hundred characters, for context


class DiffStat(_Model):
    """What a diff changes, in numbers: the files (paths), lines added and removed."""

    base: str
    head: str
    files: list[str] = field(factory=list)
    added: int = 0
    removed: int = 0


class ApproverSeen(_Model):
    """What the approving process saw (clients/approver.py): a terminal, its ancestry's command
    names, the agent clients' variables set."""

    terminal: bool
    processes: list[str] = field(factory=list)
    variables: list[str] = field(factory=list)
    pid: int | None = None  # the requester's, when the board recorded it for a request


class Approval(_Model):
    sha: str | None = None  # the commit approved (None for plan approvals)
    by: str | None = None  # session or user that recorded it
    at: datetime
    stale: bool = False
    stale_reason: str | None = None
    diffstat: DiffStat | None = None  # what the user saw when approving a commit
    # set when a rollback revoked it (it then lives in Checkpoint.revoked, never in a slot)
    kind: Literal["plan", "commit"] | None = None
    revoked_at: datetime | None = None
    revoked_reason: str | None = None
    seen: ApproverSeen | None = None  # the approving process's context; None before issue #39


class MergeRecord(_Model):
    """One agent's branch brought into the task branch by `taskproto merge` (or refused)."""

    agent: str
    commit: str  # the agent branch's head that was merged (or tried)
    result: Literal["merged", "up-to-date", "conflict"]
    merge_commit: str | None = None  # the task branch's new head, when merged
    files: list[str] = field(factory=list)  # the conflicting files, on a conflict
    at: datetime
    session: str | None = None


class LandRecord(_Model):
    """The approved commit put on the base branch by `taskproto land`."""

    approved: str
    base_branch: str
    base_before: str
    base_after: str
    strategy: Literal["merge", "ff", "squash"]
    pushed_to: str | None = None
    at: datetime


class Escalation(_Model):
    """A request for the user's decision (`taskproto escalate`), open until the user resumes the
    task (`taskproto resume`): until then the ready queue does not offer the task."""

    reason: str  # doctor/escalate.py REASONS
    detail: str
    tried: list[str] = field(factory=list)
    at: datetime
    session: str | None = None  # who raised it


class Checkpoint(_Model):
    commit_sha: str | None = None  # the commit presented for approval
    plan_approval: Approval | None = None
    commit_approval: Approval | None = None
    revoked: list[Approval] = field(factory=list)  # approvals a rollback took back


class Counters(_Model):
    iteration: int = 0
    round: int = 0
    retries: int = 0


class Task(_Model):
    schema_version: int = SCHEMA_VERSION
    name: str
    workflow: str
    state: str
    description: str = ""
    base: str | None = None  # the commit the task branch started from
    base_branch: str | None = None  # the branch that commit was on at create: where `land` goes
    created_at: datetime
    updated_at: datetime
    revision: int = 0
    owner: Owner | None = None
    required_agents: list[str] = field(factory=list)
    transition_log: list[LogEntry] = field(factory=list)
    interruptions: list[Interruption] = field(factory=list)
    checkpoint: Checkpoint = field(factory=Checkpoint)
    counters: Counters = field(factory=Counters)
    artifacts: dict[str, Any] = field(factory=dict)  # the context store
    context: dict[str, Any] = field(factory=dict)  # workflow-specific data
    needs_review: bool = False  # set when doctor had to reconstruct the task
    # The order of work (docs/ready.md): the tasks this one waits for, and 0 (most urgent) to 4.
    # Defaults keep task.json files written before these fields readable.
    depends_on: list[str] = field(factory=list)
    priority: int = field(default=DEFAULT_PRIORITY, ge=0, le=4)
    merges: list[MergeRecord] = field(factory=list)  # `taskproto merge`, oldest first
    landed: LandRecord | None = None  # `taskproto land`
    escalations: list[Escalation] = field(factory=list)  # open ones, oldest first
    # The log is append-only and lives in the journal (each commit's task.json holds the entries
    # it appended): task.json keeps its tail (`bound`), how many entries there have been, and
    # what guards and commands need of the rest. Files of schema 1 held it all: on load these
    # are counted from what they hold (`_after_build`).
    log_count: int = 0  # transition_log entries ever appended
    interruption_counts: dict[str, int] = field(factory=dict)  # interruptions ever, by type
    reached: dict[str, datetime] = field(factory=dict)  # state -> when it was last entered

    def _after_build(self) -> None:
        if self.log_count < len(self.transition_log):
            self.log_count = len(self.transition_log)
            for e in self.transition_log:
                if enters(e):
                    self.reached[e.to_state] = e.time
        if sum(self.interruption_counts.values()) < len(self.interruptions):
            counts: dict[str, int] = {}
            for i in self.interruptions:
                counts[i.type] = counts.get(i.type, 0) + 1
            self.interruption_counts = counts

    @property
    def log_offset(self) -> int:
        """The place in the whole log of the first entry task.json still holds."""
        return self.log_count - len(self.transition_log)

    @property
    def interruption_count(self) -> int:
        return max(sum(self.interruption_counts.values()), len(self.interruptions))

    def record(
        self,
        trigger: str,
        time: datetime,
        session: str | None = None,
        kind: EntryKind = "note",
        forced: bool = False,
        note: str | None = None,
    ) -> None:
        """Log something that does not move the state (from = to = the task's state)."""
        self.transition_log.append(
            LogEntry(
                from_state=self.state,
                to_state=self.state,
                trigger=trigger,
                time=time,
                session=session,
                kind=kind,
                forced=forced,
                note=note,
            )
        )

    def paused_by(self) -> Interruption | None:
        """The user's interruption the work waits on: the latest one, unless it is a resumption or
        the task has moved on since (the rule: state/pause.py)."""
        last = self.interruptions[-1] if self.interruptions else None
        return last if last is not None and pause.waits(last.type, last.state, self.state) else None

    def significant(self) -> dict[str, Any]:
        """The fields a journal commit must agree on (not heartbeats or timestamps)."""
        data = self.model_dump(mode="json", by_alias=True, exclude={"updated_at", "revision"})
        if data.get("owner"):
            data["owner"].pop("heartbeat_at", None)
        return data


class AgentState(str):
    """An agent's status: PENDING, WORKING, COMPLETE or ERROR. Each is the string itself
    (`AgentState.COMPLETE == "COMPLETE"`), as a StrEnum's members are; `AgentState(text)` is the
    member, or ValueError. (Not `enum`: its import costs every command a tenth of the
    interpreter's start.)"""

    __slots__ = ()
    PENDING: ClassVar[AgentState]
    WORKING: ClassVar[AgentState]
    COMPLETE: ClassVar[AgentState]
    ERROR: ClassVar[AgentState]
    _value2member_map_: ClassVar[dict[str, AgentState]] = {}

    def __new__(cls, value: object) -> AgentState:
        member = cls._value2member_map_.get(value) if isinstance(value, str) else None
        if member is None:
            raise ValueError(f"{value!r} is not a valid AgentState")
        return member

    @property
    def value(self) -> str:
        return str.__str__(self)

    def __repr__(self) -> str:
        return f"<AgentState.{self.value}: {self.value!r}>"


for _name in ("PENDING", "WORKING", "COMPLETE", "ERROR"):
    _member = str.__new__(AgentState, _name)
    AgentState._value2member_map_[_name] = _member
    setattr(AgentState, _name, _member)
del _name, _member


def enters(e: LogEntry) -> bool:
    """Whether log entry `e` put the task in its `to` state (a transition, a rollback, the
    creation, an import's state from its source, or a reconstruction: a repair from no state)."""
    return e.kind in ("create", "transition", "rollback", "import") or (
        e.kind == "repair" and e.from_state is None
    )


# What task.json keeps of its unbounded lists (state/bound.py trims them at every save).
LOG_KEEP = 20
INTERRUPTIONS_KEEP = 16
MERGES_KEEP = 16
REVOKED_KEEP = 8


def _in_progress(value: object) -> object:
    # The protocol's own scripts write IN_PROGRESS for an agent at work: read it as WORKING.
    return AgentState.WORKING.value if value == "IN_PROGRESS" else value


class AgentStatus(_Model):
    schema_version: int = STATUS_SCHEMA_VERSION
    agent: str
    status: AgentState = field(default=AgentState.PENDING, before=_in_progress)
    updated_at: datetime
    retry_count: int = 0
    error_message: str | None = None
    escalated: bool = False

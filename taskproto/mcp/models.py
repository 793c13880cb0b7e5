"""The results of taskproto's MCP tools (their output schemas). Field names follow the CLI's
--json."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class _Result(BaseModel):
    model_config = ConfigDict(populate_by_name=True)


class OwnerInfo(_Result):
    session: str
    host: str
    pid: int | None = None
    claimed_at: str
    heartbeat_at: str


class NextStep(_Result):
    trigger: str
    to: str = Field(description="The state this trigger leads to (what `transition` takes).")
    guards: list[str] = Field(
        default_factory=list, description="Checks that must pass; `!` negates."
    )


class TaskInfo(_Result):
    name: str
    workflow: str
    state: str
    revision: int
    description: str = ""
    owner: OwnerInfo | None = None
    mine: bool = Field(False, description="True when this session owns the task.")
    agents: dict[str, str] = Field(
        default_factory=dict, description="Agent name -> PENDING|WORKING|COMPLETE|ERROR."
    )
    allows_edits: bool
    allows_commits: bool
    next: list[NextStep] = Field(
        default_factory=list, description="What the workflow allows from this state."
    )
    priority: int = Field(2, description="0 (most urgent) to 4.")
    depends_on: list[str] = Field(
        default_factory=list, description="The tasks this one waits for (see the `ready` tool)."
    )
    created_at: str
    updated_at: str
    escalations: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Open escalations (`taskproto escalate`: reason, detail, tried, at, session): "
        "the task waits for the user, who resumes it.",
    )
    paused: str | None = Field(
        None,
        description="The type of the user's interruption the work waits on (QUESTION, AUDIT, "
        "STATUS_REQUEST, OTHER): answer it, and go on only when the user says so; null when none.",
    )
    instructions: str | None = Field(None, description="How to go on from the current state.")


class StatusResult(_Result):
    session: str | None = Field(description="This server's session id (None: read-only use only).")
    scope: str = Field(
        description="task (one task asked for), session (the tasks this session owns), or all."
    )
    tasks: list[TaskInfo]
    problems: list[str] = Field(
        default_factory=list, description="Tasks that could not be read, and why."
    )


class WaitInfo(_Result):
    task: str
    state: str | None = Field(description="The dependency's state; None when it cannot be read.")
    why: str


class QueueEntry(_Result):
    name: str
    workflow: str
    state: str
    priority: int
    created_at: str
    depends_on: list[str] = Field(default_factory=list)
    waits_for: list[WaitInfo] = Field(
        default_factory=list, description="Dependencies not done yet."
    )
    ready: bool
    not_ready: str | None = Field(None, description="Why the task cannot start now.")


class ReadyResult(_Result):
    ready: list[QueueEntry] = Field(
        description="Tasks that can start now, most urgent first (what an unnamed `claim` takes)."
    )
    not_ready: list[QueueEntry] = Field(
        default_factory=list, description="With all=true: every other task, and why."
    )
    unreadable: dict[str, str] = Field(
        default_factory=dict, description="Tasks that could not be read, and why."
    )
    sync_conflicts: dict[str, str] = Field(
        default_factory=dict,
        description="With a shared remote: what the sync before the queue left undone, by task, "
        "in `taskproto sync`'s words (the user's to resolve; `taskproto sync` exits 1 on them).",
    )


class _Write(_Result):
    warnings: list[str] = Field(
        default_factory=list, description="Saved, but something needs attention."
    )


class ClaimResult(_Write):
    task: str
    state: str
    session: str
    outcome: str = Field(
        description="claimed | renewed | takeover (the previous owner was provably gone)"
    )
    previous_owner: str | None = None
    reason: str | None = Field(None, description="Why the previous owner counts as gone.")


class ReleaseResult(_Write):
    task: str
    state: str
    owner: None = None


class HeartbeatResult(_Write):
    task: str
    heartbeat_at: str
    set_aside: str | None = Field(
        default=None,
        description="A half-written heartbeat.json set aside under this name (kept), else null.",
    )


class TransitionResult(_Write):
    task: str
    from_state: str = Field(alias="from")
    to_state: str = Field(alias="to")
    revision: int


class AgentStatusResult(_Write):
    task: str
    agent: str
    status: str
    updated_at: str
    retry_count: int = 0
    error_message: str | None = None
    escalated: bool = False
    schema_version: int = 1


class InterruptionResult(_Write):
    task: str
    type: str = Field(
        description="The interruption's type (QUESTION, CORRECTION, RESUMPTION, ...)."
    )
    rule: str
    confidence: float
    state: str = Field(description="The task's state, unchanged.")
    state_unchanged: bool = True
    approval_like: bool = Field(
        description="The message reads like an approval: ask the user to record it."
    )
    resume: str | None = Field(None, description="On a resumption: how to go on.")
    interruptions: int = Field(description="How many interruptions the task has recorded.")
    message: str = Field(description="What to do now; show or follow it.")


class LogResult(_Result):
    task: str
    ref: str = Field(description="The git ref the log was read from.")
    total: int
    entries: list[dict[str, Any]]


class PromptResult(_Result):
    task: str
    workflow: str
    state: str
    prompt: str


class WorkflowStep(_Write):
    task: str
    from_state: str = Field(alias="from")
    to_state: str = Field(alias="to")
    revision: int
    trigger: str | None = Field(
        None, description="The last trigger fired (phone-a-team: converge|iterate|force_stop)."
    )
    counters: dict[str, int] = Field(default_factory=dict, description="iteration, round, retries.")
    prompt: str | None = Field(
        None, description="The next state's prompt (plan-task; tight-loop: the handoff prompt)."
    )


class MergeOne(_Result):
    agent: str
    commit: str = Field(description="The agent branch's head that was merged (or tried).")
    result: str = Field(description="merged | up-to-date | conflict")
    merge_commit: str | None = None
    files: list[str] = Field(default_factory=list, description="The conflicting files.")
    at: str
    session: str | None = None


class MergeResult(_Write):
    task: str
    head_before: str
    head: str
    results: list[MergeOne]


class DiffFile(_Result):
    path: str
    old_path: str | None = None
    status: str = Field(description="A, M, D or R")
    added: int
    removed: int
    binary: bool


class DiffResult(_Result):
    base: str
    head: str
    files: list[DiffFile]
    added: int
    removed: int
    truncated: bool
    patch: str | None = Field(None, description="The unified diff (absent with stat=true).")

"""plan-task's artifacts: what each work state must submit, as pydantic models.

Each model forbids unknown fields, so a misspelt key is refused instead of
silently dropped from the context store.
"""

from __future__ import annotations

import enum

from pydantic import BaseModel, ConfigDict, Field, ValidationError


class _Artifact(BaseModel):
    model_config = ConfigDict(extra="forbid")


class OperationType(enum.StrEnum):
    CREATE = "CREATE"
    MODIFY = "MODIFY"
    DELETE = "DELETE"
    REVIEW = "REVIEW"


class ContextAnalysisArtifact(_Artifact):
    context_summary: str = Field(min_length=1)
    affected_files: list[str]
    questions_for_developer: list[str] = Field(default_factory=list)


class StrategyArtifact(_Artifact):
    approach: str = Field(min_length=1)
    key_technical_decisions: list[str]
    risk_factors: list[str]


class FileChange(_Artifact):
    file_path: str = Field(min_length=1)
    operation: OperationType
    summary: str = Field(min_length=1)


class DesignArtifact(_Artifact):
    design_overview: str = Field(min_length=1)
    file_breakdown: list[FileChange] = Field(min_length=1)
    assumptions: list[str] = Field(default_factory=list)


class Taskflow(_Artifact):
    """How a SLOT is carried out: ordered steps, then the checks that prove it is done."""

    steps: list[str] = Field(min_length=1)
    verification_steps: list[str] = Field(default_factory=list)


class SLOT(_Artifact):
    """Specification, Location, Operation, Taskflow: one atomic, testable unit of work."""

    slot_id: str = Field(min_length=1)
    title: str = Field(min_length=1)
    spec: str = Field(min_length=1)
    location: str = Field(min_length=1)
    operation: OperationType
    taskflow: Taskflow
    delegation: DelegationSpec | None = None
    # slot_ids of other SLOTs of the plan this one waits for; when no SLOT of a list names
    # any, the list's order is the order of work (`taskproto plan-task to-tasks`, docs/ready.md)
    depends_on: list[str] = Field(default_factory=list)


class DelegationSpec(_Artifact):
    delegated_to: str = Field(min_length=1)  # a persona or agent name
    sub_slots: list[SLOT] = Field(default_factory=list)
    handoff_context: str = ""


class ExecutionPlanArtifact(_Artifact):
    slots: list[SLOT] = Field(min_length=1)
    estimated_complexity: str = Field(min_length=1)


SLOT.model_rebuild()

# work state -> (context store key, model)
ARTIFACTS: dict[str, tuple[str, type[_Artifact]]] = {
    "CONTEXTUALIZE": ("context_artifact", ContextAnalysisArtifact),
    "STRATEGIZE": ("strategy_artifact", StrategyArtifact),
    "DESIGN": ("design_artifact", DesignArtifact),
    "GENERATE_SLOTS": ("execution_plan_artifact", ExecutionPlanArtifact),
}


def field_errors(exc: ValidationError) -> list[str]:
    """pydantic's errors as `path.to.field: message` lines."""
    out = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"]) or "(top)"
        out.append(f"{loc}: {err['msg']}")
    return out

"""MCP tools over the task's branches that an agent may use: `merge` (agents' branches into the
task branch) and `diff`. Landing and approving are the user's and have no tool here."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

from mcp.types import ToolAnnotations
from pydantic import Field

from taskproto.mcp.base import READ_ONLY, WRITES, Task
from taskproto.mcp.models import DiffResult, MergeResult

if TYPE_CHECKING:
    from taskproto.mcp.base import Session

Agent = Annotated[
    str | None,
    Field(description="One of the task's agents; omit for the task branch.", max_length=64),
]


class BranchTools:
    def __init__(self, base: Session) -> None:
        self.base = base

    def merge(
        self,
        task: Task,
        agents: Annotated[
            list[str] | None,
            Field(description="Only these agents (default: every agent of the task)."),
        ] = None,
    ) -> MergeResult:
        """Merge the agents' branches into the task branch, one at a time (merge commits).

        Allowed where the workflow says (task-protocol: IMPLEMENTATION, VALIDATION) with a clean
        task worktree. A conflict stops at that agent with an error naming it and the files;
        nothing of it is left half-merged, the agents before it stay merged.
        """
        session = self.base.need_session("merge")
        engine = self.base.engine()
        report = engine.merge(task, agents or [], session)
        return MergeResult.model_validate({**report.as_json(), "warnings": engine.warnings})

    def diff(
        self,
        task: Task,
        agent: Agent = None,
        stat: Annotated[bool, Field(description="Only files and counts, no patch.")] = False,
    ) -> DiffResult:
        """The task branch (or an agent's branch) against the commit the task started from."""
        result = self.base.engine().diff(task, agent)
        data: dict[str, Any] = result.summary()
        data["patch"] = None if stat else result.text
        return DiffResult.model_validate(data)


def tools(base: Session) -> list[tuple[str, Callable[..., Any], ToolAnnotations]]:
    ops = BranchTools(base)
    return [("merge", ops.merge, WRITES), ("diff", ops.diff, READ_ONLY)]

"""Which branches an agent client's session moves: one rule, asked by the tool guard before a
command runs (hooks/agents/tool_guard.py) and by the reference-transaction hook when git moves
the branch, whatever command or shell got there (hooks/git/refs.py). Standard library only (both
hot paths).

A session is governed by its own task (of several, the one whose worktree holds where it works),
else by the task whose worktree it works in (hooks/agents/common.governing). Governed by task T,
it moves only T's branches; working in an agent's worktree of T, only that agent's branch. A
session governed by no task moves no task's branch. The user's own terminal is no agent session
(TASKPROTO_AGENT is unset there) and is not asked."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from taskproto.layout import Layout

HEADS = "refs/heads/"


def agent_session(env: Mapping[str, str]) -> str | None:
    """The session of an agent client the user started (Claude Code's SessionStart hook exports
    TASKPROTO_AGENT=1 and TASKPROTO_SESSION into every command it runs), or None: the user's own
    terminal, or a process `taskproto agent start` launched (its own, stricter rule: refs.py)."""
    if env.get("TASKPROTO_AGENT") != "1" or env.get("TASKPROTO_TASK"):
        return None
    return env.get("TASKPROTO_SESSION") or None


def refusal(layout: Layout, task: str | None, agent: str | None, ref: str) -> str | None:
    """Why a session governed by `task` (None: no task), working in `agent`'s worktree of it
    (None: elsewhere), may not move `ref`; None when it may (any ref that is no branch)."""
    if not ref.startswith(HEADS):
        return None
    owner = layout.branch_owner(ref[len(HEADS) :])
    if owner is None:
        if agent is not None:
            return (
                f"{ref} is not a branch of this agent's: from its worktree an agent moves only "
                "its own branch; work reaches the base branch through the user's `taskproto land`."
            )
        if task is not None:
            return (
                f"{ref} is no branch of task {task}, this session's: the session moves only its "
                f"task's branches; work reaches the base branch through the user's `taskproto "
                f"land {task}`."
            )
        return None
    if task is None:
        return (
            f"{ref} is a branch of task {owner[0]}: only the session that owns the task moves it "
            "(claim it first)."
        )
    if owner[0] != task:
        return f"{ref} belongs to task {owner[0]}, not to this session's task {task}."
    if owner != (task, agent):
        return f"{ref} is another agent's branch of task {task}: only that agent moves it."
    return None

"""`taskproto mcp`: taskproto's operations as MCP tools, served over stdio.

Each tool is a thin call into the library with typed inputs (the input schema
is generated from the annotations) and a pydantic result (the output schema).
A refusal (guard, held lock, ownership, invalid artifact) comes back as a tool
error whose text is the very line the CLI prints; nothing a tool does can end
the server. Approvals, forced takeovers, `doctor --fix` and task removal are
deliberately absent, and so is landing: they are the user's, typed in the user's own terminal.

Only `taskproto mcp` imports this module, so the SDK never loads on other paths.
"""

from __future__ import annotations

import os
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

from taskproto import __version__
from taskproto.config import Config
from taskproto.engine import Engine
from taskproto.errors import TaskprotoError
from taskproto.mcp.base import READ_ONLY, WRITES, Session, Task, refusals
from taskproto.mcp.models import (
    AgentStatusResult,
    ClaimResult,
    HeartbeatResult,
    InterruptionResult,
    LogResult,
    ReadyResult,
    ReleaseResult,
    StatusResult,
    TaskInfo,
    TransitionResult,
)
from taskproto.state.models import Task as Loaded

SERVER_NAME = "taskproto"

INSTRUCTIONS = """\
taskproto keeps this repository's tasks: each is a state machine with an owner (a session),
a task branch and worktree, and per-agent branches. Call `status` first: it shows your task
(or all tasks), its state, its owner and what the workflow allows now. Claim a task before you
work on it, move it only with `transition`, and record every message of the user that
interrupts the work with `record_interruption`. Approvals are the user's: ask them to run
`taskproto approve` in their own terminal; no tool here records one."""


class Tools(Session):
    """The core tools: status, log, doctor, claims, transitions, agents, interruptions."""

    def info(self, engine: Engine, name: str | Loaded, with_instructions: bool) -> TaskInfo:
        from taskproto.engine.resume import resume_instructions
        from taskproto.engine.summary import task_summary

        task = engine.load(name) if isinstance(name, str) else name
        data = task_summary(task, engine)
        data["mine"] = bool(self.session and task.owner and task.owner.session == self.session)
        if with_instructions:
            data["instructions"] = resume_instructions(engine, task)
        return TaskInfo.model_validate(data)

    # --- read-only ---------------------------------------------------------

    def status(
        self,
        task: Annotated[
            str | None,
            Field(
                description="One task's name; omit for this session's tasks, "
                "or every task when this session owns none."
            ),
        ] = None,
    ) -> StatusResult:
        """This session's task (or all tasks): state, owner, agents, and what the workflow allows
        now.

        With `task`, or when this session owns tasks, each comes with `instructions`: how to go on
        from its current state. A task whose file is corrupt is listed in `problems`, not hidden.
        """
        engine = self.engine()
        if task is not None:
            return StatusResult(
                session=self.session, scope="task", tasks=[self.info(engine, task, True)]
            )
        infos = []
        loaded, broken = engine.load_many()  # a task still being created is in neither
        problems = [f"taskproto: {why}" for why in broken.values()]
        for one in loaded.values():
            try:
                infos.append(self.info(engine, one, False))
            except TaskprotoError as exc:
                problems.append(f"taskproto: {exc}")
        mine = [i.name for i in infos if i.mine]
        if mine:
            return StatusResult(
                session=self.session,
                scope="session",
                problems=problems,
                tasks=[self.info(engine, n, True) for n in mine],
            )
        return StatusResult(session=self.session, scope="all", tasks=infos, problems=problems)

    def log(
        self,
        task: Task,
        last: Annotated[
            int | None, Field(ge=1, le=10000, description="Only the last N entries.")
        ] = None,
    ) -> LogResult:
        """Everything the task's git journal holds, one entry per change (state changes, claims,
        releases, approvals, interruptions, escalations, agents' statuses, merges, repairs), as
        `taskproto log --json` gives it."""
        from taskproto.names import task_name
        from taskproto.state.changes import changes

        engine = self.engine()
        task_name(task)
        ref, entries = changes(engine.repo, task)
        total = len(entries)
        if last is not None:
            entries = entries[-last:]
        return LogResult(task=task, ref=ref, total=total, entries=entries)

    def doctor(
        self,
        task: Annotated[
            str | None, Field(description="Check one task; omit to check every task.")
        ] = None,
    ) -> dict[str, Any]:
        """Read-only health check: findings (corrupt files, stale owners, missing worktrees...), no
        fixes.

        Repairs (`taskproto doctor --fix`) are the user's; this tool never changes anything.
        """
        from taskproto import doctor

        report = doctor.run(self.config, [task] if task else [], fix=False)
        result: dict[str, Any] = report.as_json()
        return result

    def ready(
        self,
        all: Annotated[  # noqa: A002 - the tool's parameter name, as in `taskproto ready --all`
            bool, Field(description="Also list the tasks that are not ready, and why.")
        ] = False,
    ) -> ReadyResult:
        """The tasks that can start now, most urgent first (priority 0-4, then age).

        Ready: nobody holds it, it is in its workflow's first or a resumable state, and every task
        it depends on is done. With a shared remote the queue is the remote's (synced first).
        `claim` without a task takes the first one.
        """
        q = self.engine().ready()
        return ReadyResult.model_validate(
            {
                "ready": [e.to_dict() for e in q.ready],
                "not_ready": [e.to_dict() for e in q.entries if not e.ready] if all else [],
                "unreadable": q.broken,
                "sync_conflicts": q.sync_conflicts,
            }
        )

    # --- claims ------------------------------------------------------------

    def claim(
        self,
        task: Annotated[
            str | None,
            Field(description="The task to claim; omit to claim the most urgent ready task."),
        ] = None,
    ) -> ClaimResult:
        """Claim a task for this session (renews it when it is already yours).

        Without a task: the most urgent ready task (see `ready`). Refused when another live
        session owns it, or when it waits for tasks that are not done; a takeover happens only
        when the owner is provably gone.
        """
        session = self.need_session("claim")
        engine = self.engine()
        result = (
            engine.claim(task, session, self.pid) if task else engine.claim_next(session, self.pid)
        )
        prev = result.previous
        return ClaimResult(
            task=result.task.name,
            state=result.task.state,
            session=session,
            outcome=result.outcome,
            previous_owner=prev.session if prev else None,
            reason=result.reason,
            warnings=engine.warnings,
        )

    def release(self, task: Task) -> ReleaseResult:
        """Release this session's claim on a task."""
        session = self.need_session("release")
        engine = self.engine()
        result = engine.release(task, session)
        return ReleaseResult(task=task, state=result.state, warnings=engine.warnings)

    def heartbeat(self, task: Task) -> HeartbeatResult:
        """Renew this session's claim on a task (the lease expires without heartbeats)."""
        session = self.need_session("heartbeat")
        engine = self.engine()
        result = engine.heartbeat(task, session)
        assert result.owner is not None
        return HeartbeatResult(
            task=task,
            heartbeat_at=result.owner.heartbeat_at.isoformat(),
            set_aside=engine.beats_kept.get(task),  # a half-written file, kept (as the CLI says)
            warnings=engine.warnings,
        )

    # --- state -------------------------------------------------------------

    def transition(
        self,
        task: Task,
        state: Annotated[
            str,
            Field(
                description="The state to move to (one of `next[].to` in `status`).",
                min_length=1,
                max_length=64,
            ),
        ],
        note: Annotated[
            str | None, Field(description="A note kept in the transition log.", max_length=2000)
        ] = None,
    ) -> TransitionResult:
        """Move the task to `state`, firing the workflow's transition that leads there.

        Refused, with nothing written, when the workflow has no such step, a guard fails (the reason
        names the guard), or another live session owns the task.
        """
        session = self.need_session("transition")
        engine = self.engine()
        before = engine.load(task).state
        moved = engine.fire(task, target=state.upper(), session=session, note=note)
        return TransitionResult.model_validate(
            {
                "task": task,
                "from": before,
                "to": moved.state,
                "revision": moved.revision,
                "warnings": engine.warnings,
            }
        )

    def agent_set_status(
        self,
        task: Task,
        agent: Annotated[
            str,
            Field(description="One of the task's required agents.", min_length=1, max_length=64),
        ],
        status: Annotated[
            Literal["PENDING", "WORKING", "COMPLETE", "ERROR"], Field(description="The new status.")
        ],
        message: Annotated[
            str | None, Field(description="What went wrong (kept with ERROR).", max_length=2000)
        ] = None,
    ) -> AgentStatusResult:
        """Set a required agent's status on a task (VALIDATION waits until every agent is
        COMPLETE)."""
        from taskproto.state.models import AgentState

        session = self.need_session("agent_set_status")
        engine = self.engine()
        result = engine.set_agent_status(task, agent, AgentState(status), message, session)
        return AgentStatusResult.model_validate(
            {"task": task, **result.model_dump(mode="json"), "warnings": engine.warnings}
        )

    def record_interruption(
        self,
        task: Task,
        text: Annotated[
            str,
            Field(description="The user's message, verbatim.", min_length=1, max_length=100_000),
        ],
    ) -> InterruptionResult:
        """Record a user's message that interrupts the work: classified, logged, and the state never
        moves.

        Call it for every message of the user during a task. The result's `message` says what to do
        next (answer and wait, or, on a resumption, how to go on).
        """
        from taskproto.ops.interrupts import context_message, record

        session = self.need_session("record_interruption")
        engine = self.engine()
        rec = record(engine, task, text, session)
        return InterruptionResult.model_validate(
            {**rec.to_dict(), "message": context_message(rec), "warnings": engine.warnings}
        )


CORE_TOOLS: dict[str, ToolAnnotations] = {
    "status": READ_ONLY,
    "log": READ_ONLY,
    "doctor": READ_ONLY,
    # Changes no task; with a shared remote it syncs first (as `taskproto sync`), so not read-only.
    "ready": ToolAnnotations(
        readOnlyHint=False, destructiveHint=False, idempotentHint=True, openWorldHint=False
    ),
    "claim": WRITES,
    "release": WRITES,
    "heartbeat": WRITES,
    "transition": WRITES,
    "agent_set_status": WRITES,
    "record_interruption": WRITES,
}

# What a user does, never an agent: kept out of the tool list on purpose (and tested).
NOT_EXPOSED = (
    "approve",
    "force",
    "takeover",
    "fix",
    "remove",
    "delete",
    "land",
    "rollback",
    "ack",
)


def build_server(config: Config, session: str | None, pid: int | None = None) -> MCPServer[Any]:
    """An MCP server whose tools act on `config`'s repository as `session`."""
    tools = Tools(config, session, pid if pid is not None else _session_pid())
    server: MCPServer[Any] = MCPServer(
        SERVER_NAME, instructions=INSTRUCTIONS, version=__version__, log_level="WARNING"
    )
    from taskproto.mcp import branch_tools
    from taskproto.mcp import workflow_tools as mcp_workflow_tools

    for name, fn, hints in [
        *((name, getattr(tools, name), hints) for name, hints in CORE_TOOLS.items()),
        *branch_tools.tools(tools),
        *mcp_workflow_tools.tools(tools),
    ]:
        if any(word in name for word in NOT_EXPOSED):  # a user's action never becomes a tool
            raise AssertionError(f"MCP tool {name!r} would expose a user's action")
        server.add_tool(refusals(fn, tools), name=name, annotations=hints, structured_output=True)
    return server


def serve_stdio(server: MCPServer[Any]) -> None:
    """Serve over stdin/stdout until the client closes stdin."""
    import anyio

    anyio.run(_serve_stdio, server)


async def _serve_stdio(server: MCPServer[Any]) -> None:
    # The SDK's stdio transport drops a line that is not JSON-RPC without a word (the
    # client then waits forever). JSON-RPC 2.0 asks for an error with id null; this relay
    # answers it and passes every valid message through, so the server keeps serving.
    import anyio
    import mcp_types
    from mcp.server.stdio import stdio_server
    from mcp.shared.message import SessionMessage
    from pydantic import ValidationError

    lowlevel = server._lowlevel_server  # what MCPServer.run_stdio_async serves, with our transport
    async with stdio_server() as (read_stream, write_stream):
        send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)

        async def relay() -> None:
            async with send:
                async for item in read_stream:
                    if not isinstance(item, Exception):
                        await send.send(item)
                        continue
                    parse = isinstance(item, ValidationError) and any(
                        e.get("type") == "json_invalid" for e in item.errors()
                    )
                    error = mcp_types.ErrorData(
                        code=mcp_types.PARSE_ERROR if parse else mcp_types.INVALID_REQUEST,
                        message="Parse error: not JSON"
                        if parse
                        else "Invalid Request: not a JSON-RPC 2.0 message",
                    )
                    await write_stream.send(
                        SessionMessage(mcp_types.JSONRPCError(jsonrpc="2.0", id=None, error=error))
                    )

        async with anyio.create_task_group() as tg:
            tg.start_soon(relay)
            await lowlevel.run(receive, write_stream, lowlevel.create_initialization_options())
            tg.cancel_scope.cancel()


def _session_pid() -> int | None:
    """The pid a claim records: TASKPROTO_SESSION_PID, else the client that started this server.

    A stdio server lives exactly as long as the client that spawned it, so the parent is the
    process whose death proves the session gone.
    """
    from taskproto.sessions import resolve_pid

    pid = resolve_pid(None)
    if pid is not None:
        return pid
    parent = os.getppid()
    return parent if parent > 1 else None

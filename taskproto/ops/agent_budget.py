"""The retry budget of the agents taskproto runs (`max_retries`, default 3): a restart within it
is one retry of the agent's status.json, journaled; past it the agent is ERROR and the task is
escalated. The supervisor (ops/supervisor.py) calls these when an agent crashed or stalled."""

from __future__ import annotations

from taskproto.errors import TaskprotoError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from taskproto.config import Config


def retry(config: Config, task: str, agent: str, how: str) -> int | None:
    """One retry of the agent's budget (its status.json's retry_count, the one doctor and
    `recover` count too): the agent is PENDING again with retry_count + 1, and "restart n/N" is
    journaled, in one save. None when the budget is used up (nothing written)."""
    from taskproto.engine import Engine
    from taskproto.state import store
    from taskproto.state.models import AgentState, utcnow

    engine = Engine(config)
    path = config.status_file(task, agent)
    budget = config.max_retries
    with engine.locked(task, verify=False) as current:
        status = store.load_status(path, move_aside=True)
        if status.retry_count >= budget:
            return None
        used = status.retry_count + 1
        note = f"restart {used}/{budget} of agent {agent}: it {how}"
        store.save_status(
            path,
            status.model_copy(
                update={
                    "status": AgentState.PENDING,
                    "retry_count": used,
                    "updated_at": utcnow(),
                    "error_message": None,
                }
            ),
        )
        new = current.model_copy(deep=True)
        new.record(trigger="agent-supervisor", time=utcnow(), kind="agent", note=note)
        engine.save(current, new, f"agent-supervisor: {note}")
    return used


def journal_escalation(config: Config, task: str, agent: str, detail: str) -> None:
    """Past the budget: the agent is ERROR with why, and the task is escalated."""
    from taskproto.engine import Engine
    from taskproto.state.models import AgentState, Escalation, Task, utcnow

    engine = Engine(config)
    try:
        engine.set_agent_status(
            task, agent, AgentState.ERROR, f"crashed: {detail}", None, True, escalated=True
        )
    except TaskprotoError as exc:
        print(f"supervisor: {task}/{agent}: {exc}")
    # "agent NAME ..." first: the inbox reads the agent from it (engine/attention.escalated_agent)
    note = f"agent {agent} crashed past its restart budget ({detail})"

    def change(old: Task) -> tuple[Task, str]:
        new = old.model_copy(deep=True)
        now = utcnow()
        new.escalations.append(
            Escalation(
                reason="agent-retries-exhausted",
                detail=note,
                tried=[detail],
                at=now,
                session=None,
            )
        )
        new.record(trigger="escalate", time=now, kind="note", note=f"escalated: {note}")
        return new, "escalate: agent-retries-exhausted"

    engine.mutate(task, change)

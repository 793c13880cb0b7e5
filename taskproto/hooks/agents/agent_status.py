"""An agent taskproto runs moves its own status from its hooks: the first prompt or tool call of
its client makes its status.json WORKING (PENDING until then), journaled, so `agent ps`, the
board and `agent wait` see that it works without the agent saying so.

`taskproto agent start` tells the client which agent it is (TASKPROTO_TASK,
TASKPROTO_AGENT_NAME, TASKPROTO_AGENT; ops/agent_launch.py), and the hooks inherit it. On the hot
path this costs one read of status.json per prompt or tool call of such an agent (nothing for any
other session); the engine is loaded once, for the move. Standard library until then.
"""

from __future__ import annotations

from taskproto import plainjson as json
from taskproto.clients.protocols import STATUS, WORKING

TYPE_CHECKING = False
if TYPE_CHECKING:
    from taskproto.layout import Layout


def note(layout: Layout | None, env: dict[str, str], event: str, session: str) -> None:
    """Make the agent's status WORKING if it is PENDING and `event` says it works. Never fails
    the hook."""
    task, agent = env.get("TASKPROTO_TASK"), env.get("TASKPROTO_AGENT_NAME")
    if layout is None or not task or not agent or env.get("TASKPROTO_AGENT") != "1":
        return
    if STATUS.get(event) != WORKING:
        return
    try:
        from taskproto.names import agent_name, task_name

        task, agent = task_name(task), agent_name(agent)
        with open(layout.status_file(task, agent), "rb") as fh:
            if json.loads(fh.read(65536)).get("status") != "PENDING":
                return
    except Exception:  # noqa: BLE001 - no such agent here, or no status: nothing to move
        return
    try:
        from taskproto.engine import transitions
        from taskproto.hooks.slowpath import engine_for

        transitions.agent_working(engine_for(layout), task, agent_name(agent), session or None)
    except Exception as exc:  # noqa: BLE001 - a status not moved is no reason to fail a hook
        import sys

        sys.stderr.write(f"taskproto: warning: agent {agent}'s status not moved: {exc}\n")

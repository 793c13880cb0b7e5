"""The TUI's agent controls: start (the agent and its client typed in, as `taskproto agent start
TASK AGENT --client C`), stop, and attach (the TUI suspends and `taskproto agent attach` takes the
terminal until you detach). Through ops/agent_control.py and ops/agent_tmux.py, as the CLI and
the board; start and stop wait for the supervisor in a worker thread, so the screen stays live.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from typing import TYPE_CHECKING

from taskproto.errors import TaskprotoError
from taskproto.ops import agent_control
from taskproto.ops import agent_records as rec
from taskproto.ops.agent_launch import CLIENTS

if TYPE_CHECKING:
    from taskproto.engine import Engine

try:  # now: a running Textual app swaps sys.stdout for an object that has no `encoding`,
    import libtmux  # noqa: F401  (which libtmux reads when it is first imported)
except ImportError:  # the agents extra is not installed: attach says so when asked
    pass

ASK = {
    "start": "start: AGENT CLIENT (client: {clients} or a command line), Enter starts, Esc cancels",
    "stop": "stop: AGENT, Enter stops it, Esc cancels",
    "attach": "attach: AGENT (detach with tmux's prefix, then d), Enter attaches, Esc cancels",
}


def agents_of(engine: Engine, task: str) -> list[str]:
    try:
        return list(engine.load(task).required_agents)
    except TaskprotoError:
        return []


def running_agents(engine: Engine, task: str) -> list[str]:
    """The task's agents taskproto runs now, in the task's order."""
    out = []
    for agent in agents_of(engine, task):
        record = rec.read(engine.config, task, agent)
        if record is not None and rec.running(record):
            out.append(agent)
    return out


def suggestion(engine: Engine, task: str, kind: str) -> str:
    """What the prompt starts filled with: the agent the key most likely means."""
    agents = agents_of(engine, task)
    live = running_agents(engine, task)
    if kind == "start":
        idle = [a for a in agents if a not in live]
        return f"{(idle or agents or ['AGENT'])[0]} claude"
    return (live or agents or [""])[0]


def placeholder(kind: str) -> str:
    return ASK[kind].format(clients=", ".join(CLIENTS))


def parse(engine: Engine, task: str, kind: str, text: str) -> tuple[str, str]:
    """(agent, client) from what was typed; the client only for start (default claude)."""
    from taskproto.names import agent_name

    words = text.strip().split(None, 1)
    if not words:
        raise TaskprotoError(f"name the agent to {kind} (task {task}: {agent_list(engine, task)})")
    agent = agent_name(words[0])
    client = words[1].strip() if len(words) > 1 else "claude"
    if kind == "start":
        try:
            shlex.split(client)
        except ValueError as exc:
            raise TaskprotoError(f"the client command line does not parse: {exc}") from None
    return agent, client


def agent_list(engine: Engine, task: str) -> str:
    return ", ".join(agents_of(engine, task)) or "no agents"


def start(engine: Engine, task: str, agent: str, client: str) -> str:
    """An interactive agent in tmux, as `taskproto agent start TASK AGENT --client CLIENT`."""
    record = agent_control.start(engine, task, agent, client, False, None)
    return f"started {agent} ({record['client']}, pid {record.get('pid')}); t attaches"


def stop(engine: Engine, task: str, agent: str) -> str:
    record = agent_control.stop(engine, task, agent)
    return f"{agent}: {record['state']}"


def attach_argv(engine: Engine, task: str, agent: str) -> list[str]:
    """`taskproto agent attach TASK AGENT` for this repository, checked first: an agent with no
    tmux window (headless, stopped) is refused before the screen is given up."""
    from taskproto.ops.agent_tmux import find_window

    find_window(engine.config, task, agent)
    layout = engine.config.layout
    here = ["--root", layout.root, "-C", layout.main]
    return [sys.executable, "-m", "taskproto", *here, "agent", "attach", task, agent]


def run_attached(argv: list[str]) -> int:
    """Run the attach in this terminal (the TUI suspended meanwhile)."""
    return subprocess.run(argv, check=False).returncode


def runs(engine: Engine, task: str) -> list[str]:
    """A line per agent of `task` that taskproto ran: its run's state, pid and client."""
    out = []
    for agent in agents_of(engine, task):
        record = rec.read(engine.config, task, agent)
        if record is None:
            continue
        live = rec.running(record)
        pid = record.get("pid") if live else None
        mode = "headless" if record.get("headless") else "tmux"
        out.append(
            f"{agent}  run: {record.get('state')}  pid {pid or '-'}  {record.get('client')}  {mode}"
        )
    return out

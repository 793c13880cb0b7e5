"""The quick read path: `task list` and `task show` answered from task.json on the standard
library, before click, pydantic or the engine are imported.

It prints exactly what the full command prints: the JSON is built by state/summary.py and the text
by cli/render.py, which the full command uses too, and tests/cli/test_quick.py compares the two on
real repositories. It only answers when everything is plain; otherwise it answers nothing and the
full command runs and decides (and says what is wrong): an option it does not know, a settings
error, a task its journal does not vouch for (the same integrity check as the hooks'), a
task.json of another shape (an older version's), a workflow whose state table is not cached yet
(the full command caches it), a dependency that is not on this machine, an agent status it cannot
read, a plan-task's plan, a link inside taskproto's folder. `TASKPROTO_QUICK=0` turns it off.
"""

from __future__ import annotations

import json
import os
import sys

from taskproto.state import summary

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.layout import Layout

OFF_ENV = "TASKPROTO_QUICK"
AGENT_STATES = ("PENDING", "WORKING", "COMPLETE", "ERROR")  # models.AgentState (a test checks)
STATUS_KEYS = frozenset(  # models.AgentStatus (a test checks)
    ("schema_version", "agent", "status", "updated_at", "retry_count", "error_message", "escalated")
)


class _Unusual(Exception):
    """Something the full command must look at."""


def answer(args: list[str]) -> int | None:
    """The exit code when the quick path answered `args`; None when the full command must run."""
    if os.environ.get(OFF_ENV) == "0" or len(args) < 2 or args[0] != "task":
        return None
    rest = [a for a in args[2:] if a != "--json"]
    as_json = len(rest) < len(args) - 2
    if args[1] == "list" and not rest:
        name = None
    elif args[1] == "show" and len(rest) == 1 and not rest[0].startswith("-"):
        name = rest[0]
    else:
        return None
    try:
        reader = _Reader()
        text = reader.list_text(as_json) if name is None else reader.show_text(name, as_json)
    except Exception:  # noqa: BLE001 - whatever it is, the full command decides and says why
        return None
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        return 0
    reader.renew()
    return 0


def _dumps(data: Any) -> str:
    return json.dumps(data, indent=2, default=str, sort_keys=False) + "\n"


class _Reader:
    """One command's reads: each task and state table once."""

    def __init__(self) -> None:
        from taskproto.config import load_config

        self.layout: Layout = load_config().layout
        self.tasks: dict[str, dict[str, Any]] = {}
        self.tables: dict[str, dict[str, dict[str, Any]]] = {}

    def table(self, workflow: str) -> dict[str, dict[str, Any]]:
        if workflow not in self.tables:
            from taskproto.hooks.flags import cached_flags

            found = cached_flags(self.layout, workflow)
            if found is None:
                raise _Unusual(f"the state table of {workflow} is not cached")
            self.tables[workflow] = found
        return self.tables[workflow]

    def task(self, name: str) -> dict[str, Any]:
        """task.json's JSON, checked as the engine checks it (else _Unusual)."""
        if name in self.tasks:
            return self.tasks[name]
        from taskproto.names import task_name
        from taskproto.state.light import read_task

        path = self.layout.task_file(task_name(name))
        if os.path.realpath(path) != path:
            raise _Unusual(f"{path} is reached through a link")
        view = read_task(self.layout, name)
        data = view.data
        if view.error is not None or not summary.conforms(data):
            raise _Unusual(view.error or f"{path} has another shape")
        if data["name"] != name or data["schema_version"] != summary.SCHEMA_VERSION:
            raise _Unusual(f"{path} names another task or schema")
        if data["state"] not in self.table(data["workflow"]):
            raise _Unusual(f"{data['state']} is not a state of {data['workflow']}")
        self.tasks[name] = data
        return data

    def agents(self, data: dict[str, Any]) -> dict[str, str]:
        from taskproto.state.light import read_bytes

        result: dict[str, str] = {}
        for agent in data["required_agents"]:
            path = self.layout.status_file(data["name"], agent)
            if os.path.realpath(path) != path:
                raise _Unusual(f"{path} is reached through a link")
            if not os.path.lexists(path):
                result[agent] = "missing"
                continue
            raw, error = read_bytes(path)
            if raw is None:
                raise _Unusual(error)
            status = json.loads(raw)
            if not isinstance(status, dict) or status.keys() != STATUS_KEYS:
                raise _Unusual(f"{path} has another shape")
            if status["status"] not in AGENT_STATES or status["agent"] != agent:
                raise _Unusual(f"{path} holds another status")
            if status["schema_version"] != summary.SCHEMA_VERSION:
                raise _Unusual(f"{path} has another schema")
            result[agent] = status["status"]
        return result

    def waits(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        """What the task waits for, as engine/deps.py says it (a dependency that is not here, or
        cannot be read, goes to the full command)."""
        found = []
        for dep in data["depends_on"]:
            if not os.path.isdir(self.layout.task_dir(dep)):
                raise _Unusual(f"dependency {dep} is not here")
            other = self.task(dep)
            state = other["state"]
            if not self.table(other["workflow"])[state]["final"]:
                found.append({"task": dep, "state": state, "why": f"in {state}"})
        return found

    def summary(self, data: dict[str, Any]) -> dict[str, Any]:
        return summary.task_summary(data, self.table(data["workflow"]), self.agents(data))

    def list_text(self, as_json: bool) -> str:
        from taskproto.names import task_name

        rows = []
        for name in self.layout.task_names():
            try:
                task_name(name)
            except Exception:  # noqa: BLE001 - not a task's name: the engine skips it too
                continue
            data = self.task(name)
            row = self.summary(data)
            row["waits_for"] = self.waits(data)
            row["waiting"] = summary.describe(row["waits_for"])
            rows.append(row)
        if as_json:
            return _dumps(rows)
        from taskproto.cli.render import list_text

        return list_text(rows)

    def show_text(self, name: str, as_json: bool) -> str:
        task = self.task(name)
        if task["workflow"] == "plan-task":
            raise _Unusual("a plan-task's plan is rendered by the full command")
        data = self.summary(task)
        data.update(summary.show_details(task))
        data["waits_for"] = self.waits(task)
        if as_json:
            return _dumps(data)
        from taskproto.cli.render import show_text

        return show_text(data, task, self.table(task["workflow"]))

    def renew(self) -> None:
        """As every command does: renew the heartbeat of the tasks read that this session owns."""
        session = (os.environ.get("TASKPROTO_SESSION") or "").strip()
        if session:
            from taskproto.state.light import renew_heartbeats

            renew_heartbeats(self.layout, sorted(self.tasks), session)

"""The tasks as the standard-library paths read them: task.json checked against its journal (the
hooks' integrity check), its workflow's cached state table (hooks/flags.py), the agents' statuses
and what each task waits for, all without pydantic or the engine.

Used by the quick read path of `task list/show` (cli/quick.py) and by SessionStart's offer of the
free tasks (hooks/agents/offer.py). It reads only what is plain; anything else raises `Unusual`
and the caller goes to the engine, which decides and says what is wrong: a task its journal does
not vouch for, a task.json of another shape (an older version's), a workflow whose state table is
not cached, a dependency that is not on this machine, an agent status the models would read
differently, a link inside taskproto's folder.
"""

from __future__ import annotations

import os

from taskproto import plainjson as json
from taskproto.layout import not_linked
from taskproto.state import summary

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.config import Config
    from taskproto.state.index import Row

AGENT_STATES = ("PENDING", "WORKING", "COMPLETE", "ERROR")  # models.AgentState (a test checks)
STATUS_KEYS = frozenset(  # models.AgentStatus (a test checks)
    ("schema_version", "agent", "status", "updated_at", "retry_count", "error_message", "escalated")
)


class Unusual(Exception):
    """Something only the engine can read (or refuse) properly."""


class TaskReader:
    """One command's or hook's reads: each task and each state table once."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.layout = config.layout
        self.tasks: dict[str, dict[str, Any]] = {}
        self.tables: dict[str, dict[str, dict[str, Any]]] = {}
        self.first: str | None = None  # the first task `rows` listed

    def moved(self) -> str | None:
        """Why the worktrees cannot be used here when the repository was moved and not re-linked
        (layout.py `not_linked`), read from the first listed task's worktree alone: two small
        reads, whatever the number of tasks (`task list`'s warning)."""
        return not_linked(self.layout.task_worktree(self.first)) if self.first else None

    def table(self, workflow: str) -> dict[str, dict[str, Any]]:
        if workflow not in self.tables:
            from taskproto.hooks.flags import cached_flags

            found = cached_flags(self.layout, workflow)
            if found is None:
                raise Unusual(f"the state table of {workflow} is not cached")
            self.tables[workflow] = found
        return self.tables[workflow]

    def task(self, name: str) -> dict[str, Any]:
        """task.json's JSON, checked as the engine checks it (else Unusual)."""
        if name in self.tasks:
            return self.tasks[name]
        from taskproto.names import task_name
        from taskproto.state.light import read_task

        path = self.layout.task_file(task_name(name))
        if os.path.realpath(path) != path:
            raise Unusual(f"{path} is reached through a link")
        view = read_task(self.layout, name)
        if view.error is not None:
            raise Unusual(view.error)
        return self.accept(name, path, view.data)

    def accept(self, name: str, path: str, data: Any) -> dict[str, Any]:
        """The JSON of task `name`'s task.json, kept if it is of the current shape and in a state
        of its workflow's cached table (else Unusual)."""
        if not summary.conforms(data):
            raise Unusual(f"{path} has another shape")
        summary.fill_later(data)  # an older version's approval: read as the models read it
        if data["name"] != name or data["schema_version"] != summary.SCHEMA_VERSION:
            raise Unusual(f"{path} names another task or schema")
        if data["state"] not in self.table(data["workflow"]):
            raise Unusual(f"{data['state']} is not a state of {data['workflow']}")
        task: dict[str, Any] = data
        self.tasks[name] = task
        return task

    def agents(self, data: dict[str, Any]) -> dict[str, str]:
        result: dict[str, str] = {}
        for agent in data["required_agents"]:
            status = self.status(data["name"], agent)
            result[agent] = "missing" if status is None else status[0]["status"]
        return result

    def status(self, task: str, agent: str) -> tuple[dict[str, Any], bytes] | None:
        """Agent `agent`'s status.json (its JSON and bytes) as the models read it, None when
        there is none; Unusual for a link, or a file of another shape (the engine sets it aside)."""
        from taskproto.state.light import read_bytes

        path = self.layout.status_file(task, agent)
        if os.path.realpath(path) != path:
            raise Unusual(f"{path} is reached through a link")
        if not os.path.lexists(path):
            return None
        raw, error = read_bytes(path)
        if raw is None:
            raise Unusual(error)
        status = json.loads(raw)
        if not isinstance(status, dict) or status.keys() != STATUS_KEYS:
            raise Unusual(f"{path} has another shape")
        if status["status"] not in AGENT_STATES or status["agent"] != agent:
            raise Unusual(f"{path} holds another status")
        if status["schema_version"] != summary.STATUS_SCHEMA_VERSION:
            raise Unusual(f"{path} has another schema")
        return status, raw

    def waits(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        """What the task waits for, as engine/deps.py says it (a dependency that is not here, or
        cannot be read, goes to the full command)."""
        found = []
        for dep in data["depends_on"]:
            if not os.path.isdir(self.layout.task_dir(dep)):
                raise Unusual(f"dependency {dep} is not here")
            other = self.task(dep)
            state = other["state"]
            if not self.table(other["workflow"])[state]["final"]:
                found.append({"task": dep, "state": state, "why": f"in {state}"})
        return found

    def summary(self, data: dict[str, Any]) -> dict[str, Any]:
        return summary.task_summary(
            data,
            self.table(data["workflow"]),
            self.agents(data),
            self.layout.task_dir(data["name"]),
        )

    def rows(self, statuses: bool = True) -> dict[str, Row]:
        """Every listed task's row (state/index.py): from the index while its files are as the
        index recorded them, else read here (and recorded again); Unusual as `task` says.
        Without `statuses`, the rows' agent statuses are taken as the index has them."""
        from taskproto.state import index

        # the folders here; a name the index holds was checked when its task was made, so only the
        # others are checked as names (a folder that is no task's name is skipped, as the engine
        # skips it)
        names = self.layout.task_entries()  # a file among them has no task.json: stale
        self.first = names[0] if names else None
        fresh, stale = index.rows(self.layout, names, statuses)
        if not stale:  # every row from the index: no task.json read, nothing more imported
            return {name: fresh[name] for name in names}
        from taskproto.state.many import load_many, names_of

        folders = self.layout.tasks  # what task_names leaves out: an entry that is no folder
        bad = {n for n in stale if not os.path.isdir(os.path.join(folders, n))}
        bad |= set(stale) - set(names_of(stale))
        if bad:
            names = [n for n in names if n not in bad]
            stale = [n for n in stale if n not in bad]
        # state/many.py's rule, the engine's too: one still being created is left out, the
        # journals read through one git process; a task not read here raises Unusual (`raising`)
        # and the engine reads them all, reporting it broken by that same rule
        read, _ = load_many(self.layout, stale, self.task, raising=True)
        for name in stale:
            if name not in read:
                names.remove(name)
                continue
            data = read[name]
            found = index.record(self.layout, name, data, self.agents(data))
            if found is None:
                raise Unusual(f"task {name}'s row could not be made")
            fresh[name] = found
        return {name: fresh[name] for name in names}

    def row_waits(self, row: Row, rows: dict[str, Row]) -> list[dict[str, Any]]:
        """What a listed task waits for, from the rows (engine/deps.py's rule: a dependency waits
        until it reaches a final state); a dependency not listed here: Unusual."""
        found = []
        for dep in row.depends_on:
            other = rows.get(dep)
            if other is None:
                raise Unusual(f"dependency {dep} is not here")
            state = other.state
            if not self.table(other.workflow)[state]["final"]:
                found.append({"task": dep, "state": state, "why": f"in {state}"})
        return found

    def names(self) -> list[str]:
        """The tasks here, as the engine lists them (folders whose names are task names)."""
        from taskproto.state.many import names_of

        return list(names_of(self.layout.task_names()))

    def renew(self, session: str) -> list[str]:
        """As every command does: renew the heartbeat of the tasks read that `session` owns.
        Returns the warnings (a heartbeat file set aside)."""
        from taskproto.state.light import renew_heartbeats

        return renew_heartbeats(self.layout, sorted(self.tasks), session)[1]


def listing_text(reader: TaskReader) -> str | None:
    """`task list`'s text from the index's rows (summary.list_line, as cli/render.py `list_text`
    prints the engine's rows); None when there is no task (the caller says so)."""
    rows = reader.rows(statuses=False)  # the text shows no agent's status
    if not rows:
        return None
    width = max(len(name) for name in rows)
    line = summary.list_line
    out = []
    for name, row in rows.items():
        waits = reader.row_waits(row, rows) if row.depends_on else None
        waiting = summary.describe(waits) if waits else ""
        out.append(
            line(
                name,
                width,
                row.state,
                row.priority,
                row.owner,
                row.workflow,
                waiting,
                row.escalated,
                row.paused,
            )
        )
    return "".join(out)


def listing(reader: TaskReader) -> list[dict[str, Any]]:
    """The rows `task list --json` prints, from the index (the click command and the quick front
    alike): each task's summary with what it waits for; Unusual when a task needs the engine to
    be read."""
    rows = reader.rows()
    listed = []
    for name, row in rows.items():
        waits = reader.row_waits(row, rows) if row.depends_on else []
        data = row.data
        table = reader.table(row.workflow)
        entry = summary.task_summary(data, table, data["agents"], reader.layout.task_dir(name))
        entry["waits_for"] = waits
        entry["waiting"] = summary.describe(waits) if waits else ""
        listed.append(entry)
    return listed

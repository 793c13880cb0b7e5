"""taskproto's own export format: versioned JSON Lines (docs/import-export.md).

The first line is the header `{"format":"taskproto-tasks","version":1}`; then one task a line,
sorted by name, its keys in a fixed order, compact, UTF-8. A line holds what moves with a task
from one repository to another: its name, workflow, state, priority, dependencies, description,
creation time, base branch, agents and their statuses, approvals (checkpoint), counters,
escalations, merges, its landing, artifacts and context (review comments included), and the
whole transition log and interruptions, read from the journal where task.json holds only their
tail. What belongs to one clone stays out: the owner (a claim), the base commit, the revision,
the update time, and whether the worktrees are still to be made. So export, import into an empty
repository and export again give the same bytes.
"""

from __future__ import annotations

import json
from typing import Any

from taskproto.engine.imported import DEFERRED, DEFERRED_KEY
from taskproto.errors import TaskprotoError
from taskproto.names import check_name
from taskproto.state.models import AgentStatus, Interruption, LogEntry, Task, utcnow

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from taskproto.engine import Engine

FORMAT = "taskproto-tasks"
VERSION = 1
HEADER = {"format": FORMAT, "version": VERSION}
# task.json's fields a line carries as they are, in this order (then agents, log, interruptions)
FIELDS = (
    "name",
    "workflow",
    "state",
    "priority",
    "depends_on",
    "description",
    "created_at",
    "base_branch",
    "checkpoint",
    "counters",
    "needs_review",
    "escalations",
    "merges",
    "landed",
    "artifacts",
    "context",
)


def dumps(value: Any) -> str:
    """One line of the format: compact, UTF-8 as it is, keys in the order given."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def record(
    task: Task,
    log: list[LogEntry],
    interruptions: list[Interruption],
    statuses: dict[str, AgentStatus | None],
) -> dict[str, Any]:
    """The line of `task`, with its whole log and interruptions and its agents' statuses."""
    data = task.model_dump(mode="json", by_alias=True)
    line = {key: data[key] for key in FIELDS}
    line["context"] = {k: v for k, v in data["context"].items() if k != DEFERRED_KEY}
    agents = []
    for agent in task.required_agents:
        status = statuses.get(agent)
        found = status.model_dump(mode="json") if status is not None else {"agent": agent}
        found.pop("schema_version", None)
        agents.append(found)
    line["agents"] = agents
    line["log"] = [e.model_dump(mode="json", by_alias=True) for e in log]
    line["interruptions"] = [i.model_dump(mode="json") for i in interruptions]
    return line


def parse(data: bytes) -> list[dict[str, Any]]:
    """The task lines of an export, its header checked; refused with the line that is wrong."""
    try:
        lines = data.decode("utf-8").splitlines()
        head = json.loads(lines[0]) if lines else None
    except ValueError:  # UnicodeDecodeError too: not text
        lines, head = [], None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise TaskprotoError(
            f"not a taskproto export: its first line is not {dumps(HEADER)}; nothing was imported"
        )
    if head.get("version") != VERSION:
        raise TaskprotoError(
            f"this taskproto reads export version {VERSION}, the file is version "
            f"{head.get('version')!r}; use the taskproto that wrote it, or a newer one"
        )
    records: list[dict[str, Any]] = []
    for number, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        try:
            found = json.loads(line)
        except ValueError as exc:
            raise _bad(number, f"is not JSON, cut short or edited ({exc})") from None
        if not isinstance(found, dict):
            raise _bad(number, "is not a JSON object (a task)")
        missing = [k for k in ("name", "workflow", "state", "log") if k not in found]
        if missing:
            raise _bad(number, f"lacks {', '.join(missing)}")
        found["_line"] = number
        records.append(found)
    return records


def _bad(number: int, why: str) -> TaskprotoError:
    return TaskprotoError(f"not a taskproto export: line {number} {why}; nothing was imported")


def to_task(line: dict[str, Any], base: str | None) -> tuple[Task, dict[str, AgentStatus]]:
    """The task a line describes, as it is written here (revision 1, no owner, its worktrees made
    at its claim, starting from `base`), and its agents' statuses."""
    fields = {key: line[key] for key in FIELDS if key in line}
    agents, context = line.get("agents") or [], line.get("context") or {}
    try:
        if not isinstance(agents, list) or not all(isinstance(a, dict) for a in agents):
            raise ValueError("agents: a list of objects, one an agent")
        if not isinstance(context, dict):
            raise ValueError("context: an object")
        for agent in agents:  # a name is a folder and a branch: none may climb out of the task's
            check_name("agent", str(agent.get("agent")))
        fields.update(
            base=base,
            updated_at=utcnow().isoformat(),
            revision=1,
            required_agents=[str(a.get("agent")) for a in agents],
            transition_log=line.get("log") or [],
            interruptions=line.get("interruptions") or [],
            context={**context, DEFERRED_KEY: DEFERRED},
        )
        task = Task.model_validate(fields)
        statuses = {
            str(a["agent"]): AgentStatus.model_validate(a) for a in agents if "updated_at" in a
        }
    except Exception as exc:  # noqa: BLE001 - the record's own message says which field
        raise TaskprotoError(
            f"line {line.get('_line')} of the export ({line.get('name')}) is not a valid task: "
            f"{str(exc).splitlines()[0]}"
        ) from None
    return task, statuses


def export(engine: Engine, names: Sequence[str] = ()) -> str:
    """The export of tasks `names` (every task here when empty), as text."""
    from taskproto.engine.deps import load_all
    from taskproto.names import task_name

    tasks: dict[str, Task]
    if names:
        tasks = {str(task_name(n)): engine.load(n) for n in names}
    else:
        found, broken = load_all(engine)
        tasks = dict(found)
        if broken:
            name, why = sorted(broken.items())[0]
            raise TaskprotoError(
                f"task {name} cannot be read ({why}); run `taskproto doctor`, or name the tasks "
                "to export"
            )
    lines = [dumps(HEADER)]
    for name in sorted(tasks):
        task = tasks[name]
        log, interruptions = task.transition_log, task.interruptions
        if task.log_offset or len(interruptions) < task.interruption_count:
            log, interruptions = engine.whole_log(name)  # task.json holds their tails
        statuses = {a: engine.agent_status(name, a) for a in task.required_agents}
        lines.append(dumps(record(task, log, interruptions, statuses)))
    return "\n".join(lines) + "\n"

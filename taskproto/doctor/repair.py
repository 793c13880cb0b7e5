"""Building blocks of the fixes: the repair entry, rebuilding task.json, worktree HEAD logs."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from taskproto.engine import Engine
from taskproto.errors import TaskprotoError
from taskproto.machine.registry import get_workflow
from taskproto.names import check_name
from taskproto.state import journal
from taskproto.state.models import LogEntry, Task, utcnow
from taskproto.state.record import RecordError

DEFAULT_WORKFLOW = "task-protocol"


def repair_entry(state: str, check: str, note: str, from_state: str | None = "same") -> LogEntry:
    return LogEntry(
        from_state=state if from_state == "same" else from_state,
        to_state=state,
        trigger=check,
        time=utcnow(),
        session=None,
        kind="repair",
        note=note,
    )


@dataclass
class Repair:
    old: Task
    new: Task
    notes: list[str] = field(default_factory=list)
    baseline: bool = False  # log the first note as setting the state from nothing


@contextmanager
def repairing(engine: Engine, name: str, check: str) -> Iterator[Repair]:
    """Hold the task's lock; on exit, log each note as a repair entry, save and journal."""
    with engine.locked(name, verify=False) as task:
        r = Repair(task, task.model_copy(deep=True))
        yield r
        if r.notes:
            for i, note in enumerate(r.notes):
                start = None if r.baseline and i == 0 else "same"
                r.new.transition_log.append(
                    repair_entry(r.new.state, check, note, from_state=start)
                )
            engine.save(task, r.new, f"repair {check}: {'; '.join(r.notes)}")


def stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")


def set_aside(path: Path, why: str) -> Path:
    """Keep a file or folder by renaming it `<name>.<why>-<time>` beside itself (never deleted)."""
    target = path.with_name(f"{path.name}.{why}-{stamp()}")
    os.replace(path, target)
    return target


def journal_task(engine: Engine, name: str) -> tuple[str, Task] | None:
    sha = journal.head(engine.git, name)
    if sha is None:
        return None
    data = journal.read_file(engine.repo, sha)
    if data is None:
        return None
    try:
        return sha, Task.model_validate_json(data)
    except RecordError:
        return None


def reconstruct(engine: Engine, name: str, workflow: str | None, check: str) -> Task:
    """A task rebuilt from what git and the folder show, in the workflow's initial state, for
    review."""
    try:
        wf = get_workflow(workflow or DEFAULT_WORKFLOW)
    except TaskprotoError:
        wf = get_workflow(DEFAULT_WORKFLOW)
    agents_dir = engine.config.task_dir(name) / "agents"
    agents = []
    if agents_dir.is_dir():
        for entry in sorted(os.listdir(agents_dir)):
            try:
                check_name("agent", entry)
            except TaskprotoError:
                continue
            if (agents_dir / entry).is_dir():
                agents.append(entry)
    now = utcnow()
    note = (
        "task.json was lost and there is no journal, so the real state is unknown; set to "
        f"{wf.initial}, "
        f"the workflow's initial state, with agents {', '.join(agents) or 'none'} found on disk: "
        "review it"
    )
    return Task(
        name=name,
        workflow=wf.name,
        state=wf.initial,
        created_at=now,
        updated_at=now,
        revision=0,
        required_agents=agents,
        needs_review=True,
        transition_log=[repair_entry(wf.initial, check, note, from_state=None)],
    )


def head_log_sha(worktree: Path) -> str | None:
    """The newest commit the worktree's own HEAD log recorded (it outlives a deleted branch)."""
    try:
        text = (worktree / ".git").read_text(encoding="utf-8")
    except OSError:
        return None
    if not text.startswith("gitdir:"):
        return None
    log = Path(text[len("gitdir:") :].strip()) / "logs" / "HEAD"
    try:
        lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    for line in reversed(lines):
        parts = line.split(" ", 2)
        if len(parts) >= 2 and len(parts[1]) == 40 and parts[1] != "0" * 40:
            return parts[1]
    return None

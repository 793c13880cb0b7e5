"""`taskproto migrate [--down]`: every task.json to the schema this taskproto writes, or back.

Schema 2 (this taskproto) keeps the log's tail in task.json and the whole log in the journal, where
each commit's task.json holds the entries it appended (state/bound.py); schema 1 held the whole
log in task.json. Every save writes schema 2, so a task moves up at its next change anyway;
`migrate` does it for every task at once, each as one journaled change. `migrate --down` writes
each task.json as schema 1 again, its log and interruptions rebuilt whole from the journal, so an
older taskproto reads them (it refuses schema 2 by its version). The user's alone.
"""

from __future__ import annotations

from taskproto.engine.core import Core
from taskproto.errors import TaskprotoError
from taskproto.state import changes, journal
from taskproto.state.models import (
    LOG_KEEP,
    SCHEMA_VERSION,
    Interruption,
    LogEntry,
    Task,
    utcnow,
)


def migrate(core: Core, down: bool, session: str | None) -> list[tuple[str, str]]:
    """(task, what was done) for every task here; a task that cannot be read is skipped and
    said so (doctor first)."""
    core.require_user("migrating the task files")
    results: list[tuple[str, str]] = []
    for name in core.task_names():
        try:
            with core.locked(name) as task:
                results.append(
                    (name, _down(core, task, session) if down else _up(core, task, session))
                )
        except TaskprotoError as exc:
            results.append((name, f"skipped: {exc}"))
    return results


def _up(core: Core, task: Task, session: str | None) -> str:
    if task.schema_version >= SCHEMA_VERSION and len(task.transition_log) <= LOG_KEEP:
        return f"already schema {SCHEMA_VERSION}"
    new = task.model_copy(deep=True)
    was = new.schema_version
    new.schema_version = SCHEMA_VERSION
    new.record(
        "migrate",
        utcnow(),
        session,
        "note",
        note=f"schema {was} -> {SCHEMA_VERSION}: task.json keeps the log's last {LOG_KEEP} "
        "entries, the journal all of them",
    )
    core.save(task, new, f"migrate: schema {was} -> {SCHEMA_VERSION}")
    return f"schema {was} -> {SCHEMA_VERSION} ({task.log_count} log entries, {LOG_KEEP} kept)"


def _down(core: Core, task: Task, session: str | None) -> str:
    log, interruptions = whole(core, task.name)
    new = task.model_copy(deep=True)
    new.transition_log = [LogEntry.model_validate(e) for e in log]
    new.interruptions = [Interruption.model_validate(i) for i in interruptions]
    new.record(
        "migrate",
        utcnow(),
        session,
        "note",
        note=f"schema {SCHEMA_VERSION} -> 1: task.json holds the whole log again",
    )
    core.save(task, new, f"migrate --down: schema {SCHEMA_VERSION} -> 1", schema1=True)
    return f"schema {SCHEMA_VERSION} -> 1 ({len(new.transition_log)} log entries)"


def whole(core: Core, name: str) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """The task's whole log and its interruptions, as its journal's commits appended them."""
    commits = list(reversed(journal.history(core.repo, journal.ref_for(name))))
    log: list[dict[str, object]] = []
    interruptions: list[dict[str, object]] = []
    before = None
    for commit in commits:
        found = changes.change(commit, before)
        log += found["log"]
        interruptions += found["interruptions"]
        before = commit
    return log, interruptions

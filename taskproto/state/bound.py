"""task.json stays bounded however long a task lives: its log is append-only in the journal, and
task.json keeps the tail (state/models.py `Task`: `log_count`, `interruption_counts`, `reached`).

`bound(old, new)` is applied by the engine's one write path (`Core.save`) to every task it saves:
it counts what `new` appended since `old` (the task as it was loaded), notes the states those
entries entered, and trims the lists to their tails. So a change costs the same at the ten-
thousandth entry as at the tenth, and each journal commit adds a small task.json. The whole log is
the journal's: each commit's task.json holds the entries it appended (state/changes.py reads them
back for `taskproto log`).
"""

from __future__ import annotations

from taskproto.state.models import (
    INTERRUPTIONS_KEEP,
    LOG_KEEP,
    MERGES_KEEP,
    REVOKED_KEEP,
    LogEntry,
    MergeRecord,
    Task,
    enters,
)


def bound(old: Task | None, new: Task) -> None:
    """Count, note and trim `new` (in place) as saved after `old` (None: a first record)."""
    log = new.transition_log
    before = old.transition_log if old is not None else []
    # entries are frozen and copies of a task share them: `new` extends `old`'s log when it
    # starts with the very same entries; anything else (a first record, a log doctor rebuilt
    # from the journal) counts as it is
    extends = bool(before) and len(log) >= len(before) and all(map(_same, before, log))
    if old is not None and extends:
        appended = len(log) - len(before)
        new.log_count = old.log_count + appended
        for e in log[len(before) :]:
            if enters(e):
                new.reached = {**new.reached, e.to_state: e.time}
    else:
        new.log_count = max(new.log_count, len(log))
        new.reached = {**new.reached, **{e.to_state: e.time for e in log if enters(e)}}
    added = len(new.interruptions) - (len(old.interruptions) if old is not None else 0)
    if old is not None and added > 0 and new.interruption_counts == old.interruption_counts:
        # (interruptions are only ever appended)
        counts = dict(new.interruption_counts)
        for i in new.interruptions[-added:]:
            counts[i.type] = counts.get(i.type, 0) + 1
        new.interruption_counts = counts
    new.transition_log = tail(log)
    new.interruptions = new.interruptions[-INTERRUPTIONS_KEEP:]
    new.merges = merges_tail(new)
    new.checkpoint.revoked = new.checkpoint.revoked[-REVOKED_KEEP:]


def tail(log: list[LogEntry]) -> list[LogEntry]:
    """The last LOG_KEEP entries, from the last one that vouches for the state at the latest (the
    integrity check reads back to it: state/integrity.py `log_state_problem`)."""
    start = max(0, len(log) - LOG_KEEP)
    vouch = next(
        (
            i
            for i in range(len(log) - 1, -1, -1)
            if log[i].kind != "repair" or log[i].from_state is None
        ),
        None,
    )
    if vouch is not None and vouch < start:
        start = vouch
    return log[start:]


def _same(a: LogEntry, b: LogEntry) -> bool:
    return a is b


def _vouches(e: LogEntry) -> bool:
    return e.kind != "repair" or e.from_state is None


def merges_tail(task: Task) -> list[MergeRecord]:
    """The last MERGES_KEEP merge records, and each agent's latest (doctor finds a lost agent
    branch from it: doctor/lost.py)."""
    keep = task.merges[-MERGES_KEEP:]
    latest = {m.agent: m for m in task.merges}
    older = [m for m in latest.values() if not any(m is k for k in keep)]
    return [m for m in task.merges if any(m is k for k in older + keep)]

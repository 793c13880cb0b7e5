"""Checks of one task's own records: task.json, its log, the journal, owner, temp files, agents,
approval.

Each check reads the Snapshot only (no git, no writes) and yields Findings.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

from taskproto.config import Config
from taskproto.doctor.model import Finding, Severity
from taskproto.doctor.snapshot import TMP_RE, Snapshot, TaskView
from taskproto.errors import TaskprotoError
from taskproto.git import reffiles
from taskproto.machine.registry import get_workflow
from taskproto.machine.workflow import Workflow
from taskproto.sessions import owner_gone, pid_alive
from taskproto.state import integrity, journal
from taskproto.state.models import AgentState, LogEntry, Task

# A temp file younger than this may belong to a write in progress on another host
# sharing the folder, where its pid means nothing to us.
TMP_GRACE_SECONDS = 60.0
# With no pid in its name, a temp file is stale only when clearly abandoned.
TMP_NO_PID_SECONDS = 3600.0

# Checks after which the task is left alone: doctor refuses to touch what it cannot read.
UNTOUCHABLE = {"lock-schema-too-new", "lock-unreadable"}

FAILED = (AgentState.ERROR, AgentState.WORKING)  # the states check_agents may report


def _f(
    check: str,
    view: TaskView,
    message: str,
    agent: str | None = None,
    path: str | None = None,
    **data: object,
) -> Finding:
    from taskproto.doctor.model import CHECKS

    return Finding(check, CHECKS[check].severity, message, view.name, agent, path, dict(data))


def workflow_of(task: Task, config: Config | None = None) -> Workflow | None:
    try:
        return get_workflow(task.workflow, config)
    except TaskprotoError:
        return None


def check_task_file(snap: Snapshot, view: TaskView) -> Iterator[Finding]:
    if view.problem:
        yield _f(view.problem, view, view.detail, path=str(snap.config.task_file(view.name)))


def is_baseline(e: LogEntry) -> bool:
    """A repair entry that set the state from nothing (a reconstruction): the log starts over
    there."""
    return e.kind == "repair" and e.from_state is None


def state_entries(task: Task) -> list[LogEntry]:
    """The entries that vouch for the state. Other repair entries are written in whatever state the
    task is in, so they must not make a wrong state look right."""
    return [e for e in task.transition_log if e.kind != "repair" or is_baseline(e)]


_LEGAL: dict[int, tuple[Workflow, frozenset[tuple[str, str, str]]]] = {}


def _legal(wf: Workflow) -> frozenset[tuple[str, str, str]]:
    """The (source, trigger, destination) steps of `wf`, made once per workflow object (doctor
    judges thousands of tasks of a few workflows)."""
    kept = _LEGAL.get(id(wf))
    if kept is None or kept[0] is not wf:
        steps = frozenset((src, t.trigger, t.dest) for t in wf.transitions for src in t.source)
        kept = _LEGAL[id(wf)] = (wf, steps)
    return kept[1]


def log_problems(wf: Workflow, task: Task) -> list[str]:
    """Entries of the log that are not legal steps of `wf`, in words."""
    problems: list[str] = []
    prev: str | None = None
    legal = _legal(wf)
    # task.json holds the log's tail (state/bound.py): what came before it was checked when it was
    # written, and `reached` names the states it entered
    offset = task.log_offset
    before = set(task.reached) if offset else set()
    for i, e in enumerate(state_entries(task)):
        where = (
            f"entry {offset + task.transition_log.index(e) + 1} ({e.kind} {e.trigger}: "
            f"{e.from_state} -> {e.to_state})"
        )
        if e.kind == "create":
            if i != 0 or offset or e.to_state != wf.initial:
                problems.append(
                    f"{where}: a create entry must be the first and lead to {wf.initial}"
                )
        elif e.kind == "transition":
            if (e.from_state, e.trigger, e.to_state) not in legal:
                problems.append(f"{where} is not a transition of workflow {wf.name}")
        elif e.kind == "rollback":
            earlier = before | {x.to_state for x in state_entries(task)[:i]}
            if e.to_state not in earlier:
                problems.append(f"{where}: a rollback must return to a state the log reached")
        elif e.kind == "import":
            pass  # `taskproto import`: the state its source gave (docs/import-export.md)
        elif is_baseline(e):
            if i != 0 and not offset:
                problems.append(
                    f"{where}: a state can only be set from nothing at the start of the log"
                )
        elif e.from_state != e.to_state:
            problems.append(f"{where}: a {e.kind} entry must not change the state")
        if i > 0 and not is_baseline(e) and e.from_state != prev:
            problems.append(
                f"{where} starts at {e.from_state} but the previous entry ended at {prev}"
            )
        prev = e.to_state
    return problems


def check_log(snap: Snapshot, view: TaskView) -> Iterator[Finding]:
    task = view.task
    assert task is not None
    entries = state_entries(task)
    if not entries:
        yield _f(
            "log-empty", view, f"the transition log is empty; state {task.state} cannot be verified"
        )
        return
    last = entries[-1]
    if last.to_state != task.state:
        yield _f(
            "state-log-mismatch",
            view,
            f"state is {task.state} but the last log entry ({last.trigger}) ended at "
            f"{last.to_state}",
            log_state=last.to_state,
        )
    wf = workflow_of(task, snap.config)
    if wf is None:
        yield _f(
            "workflow-unknown",
            view,
            f"task {task.name} uses workflow {task.workflow!r}, which this repository does not "
            "define: manual intervention required",
        )
    elif not wf.has_state(task.state):
        yield _f(
            "state-unknown",
            view,
            f"task {task.name} is in state {task.state!r}, which workflow {wf.name} does not "
            "have: manual intervention required",
        )
    else:
        problems = log_problems(wf, task)
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            yield _f("log-illegal-transition", view, problems[0] + more, problems=problems)


def check_journal(snap: Snapshot, view: TaskView) -> Iterator[Finding]:
    """task.json and the agents' status files against the journal's head: the journal is the
    authority (docs/on-disk-format.md), so every difference is a finding whose fix restores it."""
    if view.name not in snap.journals:
        yield _f("journal-missing", view, f"no journal ref refs/taskproto/tasks/{view.name}")
        return
    head_bytes = snap.journal_tasks.get(view.name)
    if head_bytes is None:  # every journal commit holds a task.json: git could not read it
        sha = snap.journals[view.name]
        yield _f(
            "journal-corrupt",
            view,
            f"git cannot read the journal's newest commit {sha[:12]} or its task.json (an object "
            "missing or corrupt)",
        )
        return
    if view.raw != head_bytes:  # else the journal holds task.json's very bytes: a valid task
        old = snap.journal_task(view.name)
        task = view.task
        if old is None:
            yield _f(
                "journal-unreadable",
                view,
                "the journal's newest commit holds no readable task.json",
            )
        elif task is not None:
            yield _journal_difference(view, task, old)
        return
    for agent, av in view.agents.items():
        if av.status is None:
            continue
        logged = snap.journal_status(view.name, agent)
        if logged is None or logged.model_dump() != av.status.model_dump():
            was = logged.status.value if logged is not None else "absent"
            yield _f(
                "agent-status-not-journaled",
                view,
                f"agent {agent}'s status file ({av.status.status.value}) differs from the "
                f"journal's ({was})",
                agent,
            )


def _journal_difference(view: TaskView, task: Task, old: Task) -> Finding:
    apart = integrity.revision_problem(task.revision, old.revision)
    if apart is not None:
        return _f(apart[0], view, apart[1])
    return _f(
        integrity.FORGED,
        view,
        f"task.json differs from its journal at revision {task.revision} (state {task.state} vs "
        f"{old.state}): edited by hand",
    )


def check_owner(snap: Snapshot, view: TaskView) -> Iterator[Finding]:
    head = view.head
    assert head is not None
    if head.owner is None:
        return
    folder = view.dir if head.name == view.name else snap.config.task_dir(head.name)
    reason = owner_gone(head.owner, snap.now, snap.config.lease_minutes, folder)
    if reason:
        yield _f(
            "owner-gone",
            view,
            f"owner session {head.owner.session} is gone: {reason}",
            session=head.owner.session,
        )


def tmp_stale(path: os.PathLike[str], now: float) -> str | None:
    """Why a leftover temp file is stale, or None while its writer may be alive."""
    try:
        age = now - os.lstat(path).st_mtime
    except FileNotFoundError:
        return None
    match = TMP_RE.search(os.fspath(path))
    if match:
        pid = int(match.group(1))
        if age >= TMP_GRACE_SECONDS and not pid_alive(pid):
            return f"its writer (pid {pid}) is gone"
        return None
    if age >= TMP_NO_PID_SECONDS:
        return f"it is {int(age // 60)} minutes old"
    return None


def check_tmp(snap: Snapshot, view: TaskView) -> Iterator[Finding]:
    now = snap.now.timestamp()
    for path in view.tmp_files:
        reason = tmp_stale(path, now)
        if reason:
            yield _f("tmp-file-leftover", view, f"leftover {path.name}: {reason}", path=str(path))


def journal_ref_lock(repo: Path, task: str) -> Path:
    """Where git keeps the lock of refs/taskproto/tasks/<task> (state/journal.py)."""
    return Path(journal.lock_file(os.fspath(repo), task))


def ref_lock_stale(path: Path, now: float) -> str | None:
    """Why the ref lock at `path` is stale (git/reffiles.py's rule, the merge queue's too), or
    None: there is none, or a live git may hold it."""
    held = reffiles.held_lock(os.fspath(path), now)
    return f"it is {int(held[0])} s old" if held is not None and held[1] else None


def _ref_locks(snap: Snapshot) -> tuple[Path, set[str] | None]:
    """The folder of the journal refs' locks and the names in it, listed once per snapshot (None:
    it could not be listed, so each task's lock is looked up on its own)."""
    if snap.ref_locks is None:
        folder = journal_ref_lock(Path(snap.config.repo), "-").parent
        names: set[str] | None
        try:
            names = set(os.listdir(folder))
        except (FileNotFoundError, NotADirectoryError):
            names = set()
        except OSError:
            names = None
        snap.ref_locks = (folder, names)
    return snap.ref_locks


def check_journal_lock(snap: Snapshot, view: TaskView) -> Iterator[Finding]:
    folder, names = _ref_locks(snap)
    if names is not None and f"{view.name}.lock" not in names:
        return  # no lock file: nothing to look at (a lookup would find none)
    path = folder / f"{view.name}.lock"
    reason = ref_lock_stale(path, snap.now.timestamp())
    if reason:
        yield _f(
            "journal-ref-locked", view, f"stale git ref lock {path.name}: {reason}", path=str(path)
        )


def check_agents(snap: Snapshot, view: TaskView) -> Iterator[Finding]:
    cfg = snap.config
    timeout = timedelta(minutes=cfg.agent_timeout_minutes)
    for agent, av in view.agents.items():
        if av.problem is None and av.status is not None and av.status.status not in FAILED:
            continue  # nothing to report (the path below is only worked out for a finding)
        path = str(cfg.status_file(view.name, agent))
        if av.problem == "missing":
            yield _f("agent-status-missing", view, f"{agent}: status.json is missing", agent, path)
            continue
        if av.problem or av.status is None:
            yield _f("agent-status-corrupt", view, f"{agent}: {av.problem}", agent, path)
            continue
        s = av.status
        failed = None
        if s.status == AgentState.ERROR:
            failed = f"ERROR ({s.error_message or 'no message'})"
        elif s.status == AgentState.WORKING and snap.now - s.updated_at > timeout:
            minutes = int((snap.now - s.updated_at).total_seconds() // 60)
            failed = f"WORKING for {minutes} min (timeout {cfg.agent_timeout_minutes:g})"
        if failed is None:
            continue
        if s.retry_count >= cfg.max_retries:
            yield _f(
                "agent-retries-exhausted",
                view,
                f"{agent}: {failed} after {s.retry_count} retries (max {cfg.max_retries})",
                agent,
                path,
            )
        elif s.status == AgentState.ERROR:
            yield _f(
                "agent-error-retryable",
                view,
                f"{agent}: {failed}; {cfg.max_retries - s.retry_count} retries left",
                agent,
                path,
            )
        else:
            yield _f("agent-timeout", view, f"{agent}: {failed}", agent, path)


def check_approval(snap: Snapshot, view: TaskView) -> Iterator[Finding]:
    task = view.head
    assert task is not None
    approval = task.commit_approval
    head = snap.branches.get(task.name)
    if approval is None or approval.sha is None or approval.stale or head is None:
        return
    if task.landed and head == task.base:
        return  # landed from another machine: this branch never had the work, and loses none
    if approval.sha != head:
        yield _f(
            "approval-stale",
            view,
            f"commit {approval.sha[:12]} was approved but branch {task.name} is now at {head[:12]}",
            head=head,
        )


def check_approver(snap: Snapshot, view: TaskView) -> Iterator[Finding]:
    """An approval recorded under the owner's session by a process with no terminal: the owner
    is an agent's session, and a detached process can approve as it (clients/approver.py). One the
    user kept as theirs (`taskproto ack`) is not named again."""
    from taskproto.clients.approver import no_terminal

    task = view.task
    assert task is not None
    for kind, approval in no_terminal(task):
        seen = approval.seen
        assert seen is not None
        processes = " < ".join(seen.processes[:8]) or "unknown"
        variables = ", ".join(seen.variables) or "none"
        yield _f(
            "approval-no-terminal",
            view,
            f"the {kind} approval ({approval.at:%Y-%m-%d %H:%M}) was recorded as the owner's "
            f"session {approval.by} by a process with no terminal (processes: {processes}; "
            f"client variables: {variables}); if you did not approve it, roll it back with "
            f"`taskproto rollback {task.name}`; if you did, keep it with `taskproto ack "
            f"{task.name}` and doctor no longer names it",
        )


def check_review(snap: Snapshot, view: TaskView) -> Iterator[Finding]:
    task = view.task
    assert task is not None
    if task.needs_review:
        yield Finding(
            "needs-review",
            Severity.INFO,
            f"reconstructed by doctor; review state {task.state} before continuing",
            view.name,
        )


# The checks that judge task.json's content alone (and the workflow's definition): what an earlier
# run found of the same bytes holds (doctor/known.py). The others read the head (TaskHead).
CONTENT_CHECKS = (check_log, check_approver, check_review)
TASK_CHECKS = [
    check_log,
    check_journal,
    check_journal_lock,
    check_owner,
    check_tmp,
    check_agents,
    check_approval,
    check_approver,
    check_review,
]

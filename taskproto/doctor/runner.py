"""Detect, fix, re-check: what `taskproto doctor` runs."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from taskproto import bulk
from taskproto.config import Config
from taskproto.doctor import (
    catalog,  # noqa: F401  (registers the checks)
    catalog_journal,  # noqa: F401  (registers the integrity checks)
    fixes_events,  # noqa: F401  (registers the fixes of moved repositories)
    fixes_git,  # noqa: F401  (registers the git-side fixes)
    fixes_journal,  # noqa: F401  (registers the integrity fixes)
    known,
)
from taskproto.doctor.checks import CONTENT_CHECKS, TASK_CHECKS, UNTOUCHABLE, check_task_file
from taskproto.doctor.checks_agents import check_agents
from taskproto.doctor.checks_beat import check_beat
from taskproto.doctor.checks_clients import (
    check_client_hooks,
    check_launchers_elsewhere,
    check_records,
    check_shared_settings,
)
from taskproto.doctor.checks_events import check_git_operations, check_half_made, check_hooks
from taskproto.doctor.checks_git import (
    check_folders,
    check_orphans,
    check_replacements,
    check_shared,
    check_worktrees,
)
from taskproto.doctor.checks_precommit import check_pre_commit_config
from taskproto.doctor.checks_remote import check_remote
from taskproto.doctor.checks_sandbox import check_sandboxes
from taskproto.doctor.checks_signing import check_signed_approvals, check_signing_key
from taskproto.doctor.escalation import numbered, render, work_at_risk
from taskproto.doctor.fixes import FIXES, OFFERS, ORDER, FixContext
from taskproto.doctor.model import CHECKS, Finding, FixRecord, Option, Severity
from taskproto.doctor.snapshot import Snapshot, take
from taskproto.engine import Actor, Engine
from taskproto.errors import TaskNotFound, TaskprotoError
from taskproto.names import task_name

MAX_PASSES = 4  # a fix can uncover the next one (branch -> worktree -> status); never loop forever


def detect(snap: Snapshot) -> list[Finding]:
    found: list[Finding] = list(check_folders(snap))
    for view in snap.tasks.values():
        if view.intent is not None:
            found += check_half_made(snap, view)
            continue  # nothing else is judged until the create is finished or undone
        found += check_task_file(snap, view)
        if view.head is None or view.problem in UNTOUCHABLE:
            continue  # nothing else can be judged (or touched) until task.json is back
        view.judged = not view.kept
        for check in TASK_CHECKS:
            if check in CONTENT_CHECKS:
                if view.kept:
                    continue  # these very bytes were judged by an earlier run (doctor/known.py)
                got = list(check(snap, view))
                view.judged = view.judged and not got
                found += got
            else:
                found += check(snap, view)
        found += check_beat(snap, view)
        found += check_signed_approvals(snap, view)
        found += check_worktrees(snap, view)
        found += check_git_operations(snap, view)
    found += check_shared(snap)
    if snap.scope is None:
        found += check_orphans(snap)
        found += check_replacements(snap)
        found += check_hooks(snap)
        found += check_records(snap)
        found += check_client_hooks(snap)
        found += check_launchers_elsewhere(snap)
        found += check_shared_settings(snap)
        found += check_sandboxes(snap)
        found += check_pre_commit_config(snap)
        found += check_signing_key(snap)
    found += check_agents(snap)
    found += check_remote(snap)
    return found


@dataclass
class Report:
    checked: int
    findings: list[Finding]  # what is left (after fixes, with --fix)
    fixes: list[FixRecord] = field(default_factory=list)
    initial: list[Finding] = field(default_factory=list)
    escalations: dict[tuple[str, str, str, str], str] = field(default_factory=dict)
    # the numbered options of each escalation (real names filled in), for `recover --option N`
    options: dict[tuple[str, str, str, str], list[Option]] = field(default_factory=dict)
    snapshot: Snapshot | None = None

    @property
    def problems(self) -> list[Finding]:
        return [f for f in self.findings if f.severity != Severity.INFO]

    @property
    def healthy(self) -> bool:
        return not self.problems

    def next_step(self) -> str:
        """The one line that says what is left and what to do: `--fix` only when a finding left
        has a safe fix that was not tried yet (or needs a flag), else the decisions."""
        tried = {x.finding.key(): x.status for x in self.fixes}
        problems = self.problems
        fixable = [
            f
            for f in problems
            if f.check in FIXES
            and not f.refused
            and tried.get(f.key()) in (None, "skipped", "planned")
        ]
        text = f"{len(problems)} finding(s) remain"
        decisions = len(self.escalations)
        if fixable:
            flags = {f.info.needs_flag for f in fixable}
            flag = f" {flags.pop()}" if len(flags) == 1 and None not in flags else ""
            text += f"; run `taskproto doctor --fix{flag}` to repair {len(fixable)} of them safely"
            return text + (f"; {decisions} decision(s) needed, see above" if decisions else "")
        if decisions:
            return (
                f"{text} with no safe fix: {decisions} decision(s) needed, see the escalation "
                "message(s) above"
            )
        return f"{text} with no safe fix; see the findings above"

    def by_task(self) -> Iterator[tuple[str, list[Finding]]]:
        groups: dict[str, list[Finding]] = {}
        for f in self.findings:
            groups.setdefault(f.task or "(repository)", []).append(f)
        yield from sorted(groups.items(), key=lambda kv: (kv[0] == "(repository)", kv[0]))

    def as_json(self) -> dict[str, Any]:
        counts = {s.value: sum(1 for f in self.findings if f.severity == s) for s in Severity}
        return {
            "version": 1,
            "healthy": self.healthy,
            "tasks_checked": self.checked,
            "summary": {
                **counts,
                "fixed": sum(1 for x in self.fixes if x.status == "applied"),
                "failed": sum(1 for x in self.fixes if x.status == "failed"),
            },
            "findings": [
                {**f.as_json(), "escalation": self.escalations.get(f.key())} for f in self.findings
            ],
            "fixes": [x.as_json() for x in self.fixes],
        }


def keep(snap: Snapshot) -> None:
    """Keep, for the next run, the heads of the task.json contents judged valid and without a
    finding of their own (doctor/known.py); after a run over every task, only those."""
    judged = {
        v.digest: v.head_json
        for v in snap.tasks.values()
        if v.digest is not None and v.head_json is not None and v.judged
    }
    known.write(snap.config, snap.kept, judged, whole=snap.scope is None)


def _order(f: Finding) -> tuple[int, tuple[str, str, str, str]]:
    return (ORDER.index(f.check) if f.check in ORDER else len(ORDER), f.key())


def run(
    config: Config,
    tasks: Sequence[str] = (),
    fix: bool = False,
    dry_run: bool = False,
    retry_agents: bool = False,
    progress: Callable[[int, int], None] | None = None,
    only: frozenset[str] | None = None,
    actor: Actor | None = None,
    full: bool = False,
) -> Report:
    """Check (and with `fix`, repair) the named tasks, or all tasks and the repository around
    them; `only`: the checks whose fixes may run (`taskproto init` repairs a move with them).
    The fixes act as `actor` (the user unless given): a fix that is the user's alone is refused
    to an agent's doctor. `full`: judge every task.json's content again, taking nothing from
    what earlier runs found (doctor/known.py)."""
    scope = [task_name(t) for t in tasks] or None
    engine = Engine(config) if actor is None else Engine(config, actor)
    with bulk.paused():  # thousands of records built at once, no cycles among them
        snap = take(config, scope, progress, full)
        _require_known(snap)
        findings = detect(snap)
    if not dry_run:
        keep(snap)
    report = Report(len(snap.tasks), findings, initial=list(findings), snapshot=snap)
    ctx = FixContext(
        engine, retry_agents, raw_workflows={n: v.raw_workflow for n, v in snap.tasks.items()}
    )
    attempted: dict[tuple[str, str, str, str], FixRecord] = {}
    if fix or dry_run:
        for _ in range(MAX_PASSES):
            todo = [
                f
                for f in findings
                if f.check in FIXES
                and not f.refused
                and f.key() not in attempted
                and (only is None or f.check in only)
            ]
            if not todo:
                break
            for f in sorted(todo, key=_order):
                info = CHECKS[f.check]
                if info.needs_flag == "--retry-agents" and not retry_agents:
                    record = FixRecord(f, "skipped", f"{info.fix} (run with {info.needs_flag})")
                elif dry_run:
                    record = FixRecord(f, "planned", str(info.fix))
                else:
                    try:
                        record = FixRecord(f, "applied", FIXES[f.check](ctx, f))
                    except (TaskprotoError, OSError) as exc:
                        record = FixRecord(f, "failed", str(info.fix), str(exc))
                attempted[f.key()] = record
                report.fixes.append(record)
            if dry_run:
                break
            ctx.pruned = False
            with bulk.paused():
                snap = take(config, scope, full=full)
                findings = detect(snap)
        report.findings, report.snapshot = findings, snap
    _escalate(engine, report, attempted)
    return report


def _require_known(snap: Snapshot) -> None:
    """A named task doctor knows nothing of (no folder, no journal live or archived, no branch)
    is a wrong name, refused: reporting it healthy would hide the typo."""
    for name in snap.scope or ():
        if not (
            name in snap.tasks
            or name in snap.journals
            or name in snap.archived
            or name in snap.branches
        ):
            raise TaskNotFound(name)


def _escalate(
    engine: Engine, report: Report, attempted: dict[tuple[str, str, str, str], FixRecord]
) -> None:
    """Render the escalation message for what is left with no safe fix, or whose fix failed: one
    message per root cause (the same check on the same task, failing the same way), not one per
    symptom."""
    config, snap = engine.config, report.snapshot
    groups: dict[tuple[str, str, str], list[Finding]] = {}
    for f in report.findings:
        record = attempted.get(f.key())
        offers = f.check not in FIXES and bool(f.data.get("options") or f.info.options)
        if f.severity == Severity.INFO or (
            f.severity != Severity.ERROR
            and not offers
            and not (record and record.status == "failed")
        ):
            continue
        if f.check in FIXES and not f.refused and not (record and record.status == "failed"):
            continue  # a fix exists and was not tried (no --fix): say so in the table, not here
        error = record.error if record and record.error else (f.refused or "")
        groups.setdefault((f.task or "", f.check, error), []).append(f)
    per_task: dict[str, int] = {}
    for task, _, _ in groups:
        per_task[task] = per_task.get(task, 0) + 1
    for (task, check, _), found in groups.items():
        f = found[0]
        record = attempted.get(f.key())
        tried = (
            [f"doctor --fix could not repair it: {record.error}"] if record and record.error else []
        )
        view = snap.tasks.get(f.task) if snap and f.task else None
        state = view.task.state if view is not None and view.task is not None else None
        if state is None and f.data.get("state"):  # a task with no task.json says what it is
            state = str(f.data["state"])
        options = f.data.get("options")
        if options is None and record is not None and record.error and f.check in OFFERS:
            options = OFFERS[f.check](engine, f) or None  # the fix could not decide alone
        report.options[f.key()] = numbered(f, options, config)
        report.escalations[f.key()] = render(
            config,
            f,
            state,
            tried,
            str(f.data.get("impact") or work_at_risk(snap, f.task)),
            options,
            also=[g.message for g in found[1:]],
            selector=f" --check {check}" if per_task[task] > 1 else "",
        )

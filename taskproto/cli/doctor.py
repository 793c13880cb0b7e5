"""`taskproto doctor` and `taskproto recover`."""

from __future__ import annotations

import sys
from collections.abc import Callable

import click

from taskproto.cli.common import AppState, emit, flush_warnings, json_option, pass_state
from taskproto.errors import TaskprotoError

PROGRESS_MIN_TASKS = 50  # fewer tasks finish before a progress line would be read


def _progress() -> Callable[[int, int], None] | None:
    if not sys.stdout.isatty():
        return None

    def show(i: int, n: int) -> None:
        if n < PROGRESS_MIN_TASKS:
            return
        if i == n:
            click.echo("\r" + " " * 40 + "\r", nl=False, err=True)
        elif i % 25 == 0:
            click.echo(f"\rchecking tasks {i}/{n}", nl=False, err=True)

    return show


@click.command("doctor")
@click.argument("tasks", nargs=-1)
@click.option(
    "--fix", is_flag=True, help="Apply the safe fixes, then check again and report what is left."
)
@click.option("--dry-run", is_flag=True, help="Show what --fix would do; change nothing.")
@click.option(
    "--retry-agents",
    is_flag=True,
    help="With --fix: re-queue agents in ERROR or timed out (retries left).",
)
@click.option(
    "--list-checks",
    is_flag=True,
    help="List every check id with what it means and what --fix does.",
)
@click.option(
    "--full",
    is_flag=True,
    help="Judge every task.json's content again, taking nothing from what earlier runs found "
    "of the same bytes (<root>/doctor-known.json; docs/doctor.md).",
)
@json_option
@pass_state
def doctor(
    state: AppState,
    tasks: tuple[str, ...],
    fix: bool,
    dry_run: bool,
    retry_agents: bool,
    list_checks: bool,
    full: bool,
    as_json: bool,
) -> None:
    """Check TASKS (default: every task and the repository around them) for broken state.

    Exit 0 when healthy (after fixes, with --fix), 1 when findings remain. Nothing
    that holds work (commits, uncommitted changes) is ever deleted; findings with
    no safe fix get an escalation message with numbered options.
    """
    from taskproto.doctor import CHECKS, run
    from taskproto.hooks.git import repair  # noqa: F401  (registers the hooks' reinstall fix)

    if list_checks:

        def table() -> None:
            for c in CHECKS.values():
                click.echo(f"{c.id:26} {c.severity.value:8} {c.meaning}")

        emit(
            as_json,
            [
                {
                    "check": c.id,
                    "severity": c.severity.value,
                    "meaning": c.meaning,
                    "fix": c.fix,
                    "fix_needs": c.needs_flag,
                }
                for c in CHECKS.values()
            ],
            table,
        )
        return
    engine = state.engine
    _renew_own(state, tasks)
    report = run(
        engine.config,
        tasks,
        fix=fix,
        dry_run=dry_run,
        retry_agents=retry_agents,
        progress=None if as_json else _progress(),
        actor=engine.actor,
        full=full,
    )
    emit(as_json, report.as_json(), lambda: _human(report, fix, dry_run))
    if not report.healthy:
        raise TaskprotoError(report.next_step())


def _renew_own(state: AppState, tasks: tuple[str, ...]) -> None:
    """The session running doctor is alive: renew its heartbeat on the tasks it owns first, as any
    command of the owner does, so doctor never finds (and --fix never releases) the caller's own
    claim gone."""
    try:
        session = state.session_id()
    except TaskprotoError:
        return
    if not session:
        return
    from taskproto.errors import InvalidName
    from taskproto.names import task_name

    engine = state.engine
    for name in tasks or engine.config.layout.task_names():
        try:
            engine.touched.add(task_name(name))
        except InvalidName:
            continue  # doctor itself reports the name
    engine.renew_heartbeat(session)
    flush_warnings(state)  # a heartbeat file it set aside (half-written), named


def _human(report: object, fix: bool, dry_run: bool) -> None:
    from taskproto.doctor import Report

    assert isinstance(report, Report)
    counts = {
        s: sum(1 for f in report.findings if f.severity.value == s)
        for s in ("error", "warning", "info")
    }
    fixed = sum(1 for x in report.fixes if x.status == "applied")
    failed = sum(1 for x in report.fixes if x.status == "failed")
    planned = sum(1 for x in report.fixes if x.status == "planned")
    state = "healthy" if report.healthy else "findings remain"
    done = f"{planned} would be fixed" if dry_run else f"{fixed} fixed, {failed} failed"
    # The short summary first, the details after.
    click.echo(
        f"summary: {report.checked} task(s) checked, {counts['error']} error(s), "
        f"{counts['warning']} warning(s), {counts['info']} info; {done}; {state}"
    )
    for task, findings in report.by_task():
        if task == "(repository)" or any(f.severity.value != "info" for f in findings):
            checks = sorted({f.check for f in findings})
            click.echo(f"  {task}: {', '.join(checks)}")
    if report.escalations:
        click.echo(f"  {len(report.escalations)} decision(s) needed: see the messages below")
    if report.findings or report.fixes or report.escalations:
        click.echo("")  # the details, after a blank line; a healthy report ends with its summary
    width = max([len(f.check) for f in report.findings] + [10])
    for task, findings in report.by_task():
        click.echo(task)
        for f in findings:
            click.echo(f"  {f.severity.value.upper():7}  {f.check:{width}}  {f.message}")
            info = f.info
            if info.fix and f.refused:
                click.echo(f"  {'':7}  {'':{width}}  no safe fix while {f.refused}")
            elif info.fix and not fix and not dry_run:
                flag = f" {info.needs_flag}" if info.needs_flag else ""
                click.echo(
                    f"  {'':7}  {'':{width}}  fix: {info.fix} (`taskproto doctor --fix{flag}`)"
                )
    if report.fixes:
        click.echo("what --fix would do:" if dry_run else "fixes:")
        for x in report.fixes:
            where = x.finding.task or x.finding.path or "(repository)"
            status = "would" if x.status == "planned" else x.status
            said = x.error or x.action  # a failure says why, not again what the fix would do
            click.echo(f"  {status:7}  {where}  {x.finding.check}: {said}")
    for text in report.escalations.values():
        click.echo("")
        click.echo(text.rstrip())


@click.command("recover")
@click.argument("name")
@click.option("--dry-run", is_flag=True, help="Show what recover would do; change nothing.")
@click.option(
    "--option",
    "option",
    type=click.IntRange(min=1),
    default=None,
    help="Carry out option N of the task's escalation message, when taskproto can run it safely "
    "(the message says `Run it: taskproto recover TASK --option N`).",
)
@click.option(
    "--check",
    "check",
    default=None,
    help="With --option: which escalation, when the task has more than one (a check id).",
)
@json_option
@pass_state
def recover(
    state: AppState,
    name: str,
    dry_run: bool,
    option: int | None,
    check: str | None,
    as_json: bool,
) -> None:
    """Apply the recovery decision tree to task NAME and print what it found and did.

    Corruption is repaired first (doctor's safe fixes); then the resume
    instructions for the current state; then incomplete agents are re-queued
    within their retry budget (at the maximum: escalation); then build failures.
    With --option N, carry out that option of the task's escalation instead.
    """
    from taskproto.doctor.recover import choose
    from taskproto.doctor.recover import recover as do_recover
    from taskproto.hooks.git import repair  # noqa: F401  (registers the hooks' reinstall fix)

    if check is not None and option is None:
        raise click.UsageError("--check goes with --option N")
    if option is not None:
        done = choose(state.engine, name, option, check, dry_run=dry_run)
        emit(
            as_json,
            {"task": name, "option": option, "dry_run": dry_run, "result": done},
            lambda: click.echo(done),
        )
        return
    result = do_recover(state.engine, name, dry_run=dry_run)
    verb = "would" if dry_run else "did"

    def human() -> None:
        click.echo(f"task {result.task} ({result.state or 'state unknown'})")
        for step in result.steps:
            click.echo(f"[{step.procedure}]")
            for line in step.found:
                click.echo(f"  {line}")
            for line in step.did:
                click.echo(f"  {verb}: {line.removeprefix('would ')}")
            for text in step.escalations:
                click.echo("")
                click.echo(text.rstrip())

    emit(as_json, {**result.as_json(), "dry_run": dry_run}, human)
    if not result.ok:
        raise TaskprotoError(f"task {name} needs a decision: see the escalation message above")


@click.command("escalate")
@click.argument("name")
@click.option(
    "--reason",
    required=True,
    type=click.Choice(["conflicting-requirements", "external-dependency"]),
    help="Which escalation trigger of the task protocol this is.",
)
@click.option("--detail", required=True, help="What is in conflict, or what is blocking.")
@click.option("--tried", multiple=True, help="What was tried already (repeatable).")
@json_option
@pass_state
def escalate(
    state: AppState, name: str, reason: str, detail: str, tried: tuple[str, ...], as_json: bool
) -> None:
    """Escalate task NAME to the user: conflicting agent requirements with no resolution path, or
    an external dependency blocking progress.

    Prints the escalation message (the same template as doctor's) and logs it on the task.
    """
    from taskproto.doctor.escalate import escalate as do_escalate

    text = do_escalate(
        state.engine, name, reason, " ".join(detail.split()), list(tried), state.session_id()
    )
    emit(as_json, {"task": name, "reason": reason, "message": text}, lambda: click.echo(text))


COMMANDS = [doctor, recover, escalate]

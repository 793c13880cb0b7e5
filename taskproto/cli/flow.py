"""`taskproto transition|fire|approve|agent|log|workflow`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from taskproto.cli.common import AppState, emit, flush_warnings, json_option, pass_state
from taskproto.errors import TaskprotoError


def _moved(as_json: bool, before: str, task: Any) -> None:
    emit(
        as_json,
        {"task": task.name, "from": before, "to": task.state, "revision": task.revision},
        lambda: click.echo(f"{task.name}: {before} -> {task.state}"),
    )


@click.command("transition")
@click.argument("name")
@click.argument("state_name", metavar="STATE")
@click.option("--force", is_flag=True, help="Move a task owned by another live session (logged).")
@click.option("--note", help="A note kept in the transition log.")
@json_option
@pass_state
def transition(
    state: AppState, name: str, state_name: str, force: bool, note: str | None, as_json: bool
) -> None:
    """Move task NAME to STATE, firing the transition that leads there.

    Refused (exit 1, nothing written) when the workflow has no such step or a
    guard fails; the message names the guard and what would make it pass.
    """
    engine = state.engine
    before = engine.load(name).state
    task = engine.fire(
        name, target=state_name.upper(), session=state.session_id(), force=force, note=note
    )
    flush_warnings(state)
    _moved(as_json, before, task)


@click.command("fire")
@click.argument("name")
@click.argument("trigger")
@click.option("--force", is_flag=True, help="Move a task owned by another live session (logged).")
@click.option("--note", help="A note kept in the transition log.")
@json_option
@pass_state
def fire_cmd(
    state: AppState, name: str, trigger: str, force: bool, note: str | None, as_json: bool
) -> None:
    """Fire TRIGGER on task NAME (see `taskproto workflow show` for the triggers)."""
    engine = state.engine
    before = engine.load(name).state
    task = engine.fire(name, trigger=trigger, session=state.session_id(), force=force, note=note)
    flush_warnings(state)
    _moved(as_json, before, task)


@click.command("approve")
@click.argument("name")
@click.option("--plan", "plan", is_flag=True, help="Record the user's approval of the plan.")
@click.option(
    "--commit",
    "commit",
    is_flag=False,
    flag_value="HEAD",
    default=None,
    metavar="[SHA]",
    help="Record the user's approval of a commit (default: the task branch's head).",
)
@click.option(
    "--force", is_flag=True, help="Approve a task owned by another live session (logged)."
)
@json_option
@pass_state
def approve(
    state: AppState, name: str, plan: bool, commit: str | None, force: bool, as_json: bool
) -> None:
    """Record a user approval on task NAME: of the plan, or of the exact head commit.

    Without --plan or --commit, fire the workflow's `approve` trigger (plan-task:
    a review state moves on to the next work state, or VERIFIED).

    Approvals are the user's: type them in your own terminal. An approval of a
    commit goes stale when the task branch moves.
    """
    engine = state.engine
    if plan and commit is not None:
        raise click.UsageError("give at most one of --plan or --commit [SHA]")
    if not plan and commit is None:
        from taskproto.ops import plan_task as planning

        step = planning.approve(engine, name, state.session_id(), force)
        flush_warnings(state)
        emit(
            as_json,
            {
                "task": name,
                "from": step.before,
                "to": step.task.state,
                "revision": step.task.revision,
            },
            lambda: click.echo(
                f"{name}: {step.before} -> {step.task.state}"
                + (f"; next prompt: `taskproto prompt {name}`" if step.prompt else "")
            ),
        )
        return
    if plan:
        task = engine.approve(name, "plan", state.session_id())
    else:
        task = engine.approve(
            name, "commit", state.session_id(), None if commit == "HEAD" else commit
        )
    flush_warnings(state)
    cp = task.checkpoint
    sha = cp.commit_approval.sha if cp.commit_approval else None
    data = {"task": name, "plan_approved": cp.plan_approval is not None, "commit": sha}
    emit(
        as_json,
        data,
        lambda: click.echo(
            f"{name}: plan approved" if plan else f"{name}: commit {(sha or '?')[:12]} approved"
        ),
    )


@click.group("agent")
def agent_group() -> None:
    """Agent status: PENDING, WORKING, COMPLETE or ERROR."""


@agent_group.command("set")
@click.argument("name")
@click.argument("agent")
@click.option(
    "--status",
    "status",
    required=True,
    type=click.Choice(["PENDING", "WORKING", "COMPLETE", "ERROR"], case_sensitive=False),
)
@click.option("--message", help="Error message (kept with ERROR).")
@click.option(
    "--force", is_flag=True, help="Update an agent of a task owned by another live session."
)
@json_option
@pass_state
def agent_set(
    state: AppState,
    name: str,
    agent: str,
    status: str,
    message: str | None,
    force: bool,
    as_json: bool,
) -> None:
    """Set AGENT's status on task NAME."""
    from taskproto.state.models import AgentState

    result = state.engine.set_agent_status(
        name, agent, AgentState(status.upper()), message, state.session_id(), force
    )
    flush_warnings(state)
    emit(
        as_json,
        result.model_dump(mode="json"),
        lambda: click.echo(
            f"{name}/{agent}: {result.status.value}" + (f" ({message})" if message else "")
        ),
    )


@click.command("log")
@click.argument("name")
@json_option
@pass_state
def log(state: AppState, name: str, as_json: bool) -> None:
    """Print task NAME's transition log, read from its journal in git."""
    from taskproto.names import task_name
    from taskproto.state import journal

    engine = state.engine
    task_name(name)
    ref, entries = journal.transition_log(engine.repo, name)

    def human() -> None:
        for e in entries:
            frm = e.get("from") or "-"
            extra = f"  ({e['note']})" if e.get("note") else ""
            forced = " FORCED" if e.get("forced") else ""
            click.echo(
                f"{e['time'][:19]}Z  {e['kind']:<10} {frm:>22} -> {e['to']:<22} {e['trigger']:<24}"
                f" {e.get('session') or '-'}{forced}{extra}"
            )

    emit(as_json, {"task": name, "ref": ref, "entries": entries}, human)


@click.group("workflow")
def workflow_group() -> None:
    """List, show and validate workflows (built-in and user-defined)."""


def _config(state: AppState) -> Any:
    """The repository's config, or None outside a repository (built-ins only)."""
    try:
        return state.engine.config
    except TaskprotoError:
        return None


@workflow_group.command("list")
@json_option
@pass_state
def workflow_list(state: AppState, as_json: bool) -> None:
    """List the available workflows: built-in and this repository's own."""
    from taskproto.machine.registry import builtin_names, get_workflow, workflow_names

    config = _config(state)
    builtins = set(builtin_names())
    rows = []
    for n in workflow_names(config):
        try:
            rows.append(
                {
                    "name": n,
                    "source": "builtin" if n in builtins else "user",
                    "description": get_workflow(n, config).description,
                }
            )
        except TaskprotoError as exc:  # a broken user workflow is listed with its problem
            rows.append(
                {"name": n, "source": "user", "description": "", "error": str(exc).splitlines()[0]}
            )

    def human() -> None:
        for r in rows:
            click.echo(f"{r['name']:<16} {r['source']:<8} {r.get('error') or r['description']}")

    emit(as_json, rows, human)


@workflow_group.command("show")
@click.argument("name")
@click.option("--mermaid", is_flag=True, help="Print a Mermaid state diagram.")
@json_option
@pass_state
def workflow_show(state: AppState, name: str, mermaid: bool, as_json: bool) -> None:
    """Show workflow NAME: states, transitions and guards."""
    from taskproto.machine.registry import get_workflow
    from taskproto.machine.workflow import describe, to_mermaid

    wf = get_workflow(name, _config(state))
    if mermaid:
        click.echo(to_mermaid(wf), nl=False)
        return

    def human() -> None:
        click.echo(f"{wf.name}: {wf.description}")
        click.echo(f"initial state: {wf.initial}")
        for s in wf.states:
            flags = [
                f
                for f, on in (
                    ("commits", s.allows_commits),
                    ("edits", s.allows_edits),
                    ("checkpoint", s.checkpoint),
                    ("terminal", s.terminal),
                )
                if on
            ]
            click.echo(f"  {s.name:<24} {', '.join(flags)}")
        click.echo("transitions:")
        for t in wf.transitions:
            guards = f"  [guards: {', '.join(t.guards)}]" if t.guards else ""
            click.echo(f"  {'|'.join(t.source):>24} -> {t.dest:<24} {t.trigger}{guards}")

    emit(as_json, describe(wf), human)


@workflow_group.command("validate")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@json_option
def workflow_validate(path: Path, as_json: bool) -> None:
    """Check the workflow file PATH (TOML) without installing it.

    Every problem is listed with the file and its key; exit 1 when there is any.
    """
    from taskproto.machine.registry import load_file

    wf = load_file(path)
    emit(
        as_json,
        {
            "file": str(path.absolute()),
            "name": wf.name,
            "valid": True,
            "states": len(wf.states),
            "transitions": len(wf.transitions),
        },
        lambda: click.echo(
            f"{path}: workflow {wf.name} is valid "
            f"({len(wf.states)} states, {len(wf.transitions)} transitions)"
        ),
    )


COMMANDS = [transition, fire_cmd, approve, agent_group, log, workflow_group]

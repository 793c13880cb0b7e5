"""`taskproto transition|fire|approve`: move a task, and the user's approvals."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from taskproto.cli.common import AppState, emit, flush_warnings, json_option, pass_state

if TYPE_CHECKING:
    from taskproto.state.models import Task


def _moved(state: AppState, as_json: bool, task: Task) -> None:
    # the state table the next transition's hooks read (hooks/flags.py), if it was not cached yet
    # (a new workflow, a changed definition, an upgrade)
    from taskproto.cli.render import moved, moved_lines
    from taskproto.hooks.flags import warm

    warm(state.engine.config.layout, {task.workflow})
    data = moved(task)
    emit(as_json, data, lambda: click.echo("\n".join(moved_lines(data))))


@click.command("transition")
@click.argument("name")
@click.argument("state_name", metavar="STATE")
@click.option(
    "--force",
    is_flag=True,
    help="Move a task owned by another live session, or start one that waits for others (logged).",
)
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
    task = state.engine.fire(
        name, target=state_name.upper(), session=state.session_id(), force=force, note=note
    )
    flush_warnings(state)
    _moved(state, as_json, task)


@click.command("fire")
@click.argument("name")
@click.argument("trigger")
@click.option(
    "--force",
    is_flag=True,
    help="Move a task owned by another live session, or start one that waits for others (logged).",
)
@click.option("--note", help="A note kept in the transition log.")
@json_option
@pass_state
def fire_cmd(
    state: AppState, name: str, trigger: str, force: bool, note: str | None, as_json: bool
) -> None:
    """Fire TRIGGER on task NAME (see `taskproto workflow show` for the triggers)."""
    task = state.engine.fire(
        name, trigger=trigger, session=state.session_id(), force=force, note=note
    )
    flush_warnings(state)
    _moved(state, as_json, task)


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
    "--head",
    "head",
    metavar="SHA",
    help="The task branch's head you reviewed (7 hex digits at least): refused, nothing "
    "written, when the branch has moved since. With --plan or the `approve` trigger; "
    "--commit SHA names it already.",
)
@click.option(
    "--force", is_flag=True, help="Approve a task owned by another live session (logged)."
)
@json_option
@pass_state
def approve(
    state: AppState,
    name: str,
    plan: bool,
    commit: str | None,
    head: str | None,
    force: bool,
    as_json: bool,
) -> None:
    """Record a user approval on task NAME: of the plan, or of the exact head commit.

    Without --plan or --commit, fire the workflow's `approve` trigger (plan-task:
    a review state moves on to the next work state, or VERIFIED); task-protocol has
    none: there it takes --plan or --commit.

    --commit approves exactly the task branch's head (a SHA that is not the head is
    refused, and so is a task worktree with uncommitted changes) and records the diff
    stat approved; review it first with `taskproto diff NAME`. --head SHA binds the plan's
    or the review's approval to the task branch's head you looked at, as --commit SHA does.

    Approvals are the user's: type them in your own terminal. An approval of a
    commit goes stale when the task branch moves.
    """
    engine = state.engine
    if plan and commit is not None:
        raise click.UsageError("give at most one of --plan or --commit [SHA]")
    if head is not None and commit is not None:
        raise click.UsageError("--commit SHA names the head it approves: drop --head")
    if head is not None:
        from taskproto.ops.review import expect_head

        expect_head(engine, name, head)
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
    from taskproto.clients import approver

    seen = approver.context()  # journaled with the approval: doctor's approval-no-terminal
    if plan:
        task = engine.approve(name, "plan", state.session_id(), seen=seen)
    else:
        task = engine.approve(
            name, "commit", state.session_id(), None if commit == "HEAD" else commit, seen
        )
    flush_warnings(state)
    cp = task.checkpoint
    approval = cp.commit_approval
    sha = approval.sha if approval else None
    stat = approval.diffstat if approval and not plan else None
    data = {
        "task": name,
        "plan_approved": cp.plan_approval is not None,
        "commit": sha,
        "diffstat": stat.model_dump(mode="json") if stat else None,
    }

    def human() -> None:
        if plan:
            click.echo(f"{name}: plan approved")
            return
        from taskproto.engine.diff import stat_text

        shown = f": {stat_text(stat)}" if stat else ""
        click.echo(f"{name}: commit {(sha or '?')[:12]} approved{shown}")

    emit(as_json, data, human)


COMMANDS = [transition, fire_cmd, approve]

"""`taskproto export` and `taskproto import`: tasks out to a JSON Lines file and in from one, or
from beads, vibe-kanban and GitHub issues (docs/import-export.md)."""

from __future__ import annotations

from pathlib import Path

import click

from taskproto.cli.common import AppState, emit, flush_warnings, json_option, pass_state


@click.command("export")
@click.argument("tasks", nargs=-1)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Write the export to FILE (atomically) instead of standard output.",
)
@pass_state
def export(state: AppState, tasks: tuple[str, ...], output: Path | None) -> None:
    """Write TASKS (every task when none is named) as taskproto's JSON Lines export.

    The first line is the header {"format":"taskproto-tasks","version":1}; then one task a
    line, sorted by name: its workflow, state, priority, dependencies, description, agents and
    their statuses, approvals, interruptions, review comments and its whole journaled history.
    `taskproto import FILE --from taskproto` reads it back: into an empty repository, then
    exported again, it gives the same bytes. The output is JSON already, so there is no --json.
    """
    from taskproto.ops.exchange import export as run_export

    text = run_export(state.engine, tasks)
    if output is None:
        click.echo(text, nl=False)
        return
    from taskproto.state.files import atomic_write

    atomic_write(str(output.absolute()), text.encode())
    click.echo(f"exported {text.count(chr(10)) - 1} task(s) to {output}", err=True)


@click.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--from",
    "source",
    required=True,
    type=click.Choice(["taskproto", "beads", "vibe-kanban", "github"]),
    help="The file's format: taskproto's export, beads' issues.jsonl, vibe-kanban's export ZIP, "
    "or the JSON of `gh issue list --json number,title,body,labels,state,...`.",
)
@click.option(
    "--workflow",
    default="task-protocol",
    show_default=True,
    metavar="NAME",
    help="The workflow of tasks made from beads, vibe-kanban or GitHub items.",
)
@click.option("--dry-run", is_flag=True, help="Print what would change; write nothing.")
@json_option
@pass_state
def import_(
    state: AppState, file: Path, source: str, workflow: str, dry_run: bool, as_json: bool
) -> None:
    """Make or update tasks from FILE; each task keyed by its id in the source.

    Importing the same file again changes nothing; a changed source changes only what changed
    (description, priority, dependencies, open or closed). Blocking dependencies become the
    task's `--after`; closed items become tasks in their workflow's final state, their
    history in the log's note. New tasks get their branches and worktrees when they are
    claimed. Anything that cannot be imported (a dependency cycle, a task of that name from
    elsewhere) refuses the whole file: nothing is written.
    """
    from taskproto.ops import importing

    engine = state.engine
    result = importing.plan(engine, source, file.read_bytes(), workflow)
    if not dry_run:
        importing.apply(engine, result, state.session_id())
    flush_warnings(state)
    data = {**result.to_dict(), "file": str(file), "dry_run": dry_run}

    def human() -> None:
        verb = "would be" if dry_run else "were"
        for change in data["changes"]:
            click.echo(f"{change['action']:<7} {change['task']}  ({'; '.join(change['what'])})")
        for warning in result.warnings:
            click.echo(f"taskproto: warning: {warning}", err=True)
        click.echo(
            f"{data['created']} task(s) {verb} created, {data['updated']} updated, "
            f"{data['unchanged']} unchanged ({source} {file.name})"
        )

    emit(as_json, data, human)


COMMANDS = [export, import_]

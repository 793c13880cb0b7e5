"""`taskproto build classify|run`: classify a failed build or test run, and record it on a task."""

from __future__ import annotations

import sys
from typing import Any

import click

from taskproto.cli.common import AppState, emit, flush_warnings, json_option, pass_state

MAX_RECORDED = 20  # builds kept per task


@click.group("build")
def build_group() -> None:
    """Classify build and test failures (compilation, test, style, unknown)."""


def _print_classification(data: dict[str, Any]) -> None:
    eco = f" ({data['ecosystem']})" if data.get("ecosystem") else ""
    count = f", {data['count']} reported" if data.get("count") is not None else ""
    click.echo(f"{data['kind']}{eco}{count}: {data['action']}")
    click.echo(f"  {data['advice']}")
    for line in data.get("evidence") or []:
        click.echo(f"  | {line}")


@build_group.command("classify")
@click.argument("log", required=False, default="-")
@json_option
def classify(log: str, as_json: bool) -> None:
    """Read a build or test LOG (or '-' for stdin) and say what kind of failure it shows."""
    from taskproto.classify.buildlog import classify_log
    from taskproto.errors import TaskprotoError

    if log == "-":
        data = sys.stdin.buffer.read()
    else:
        try:
            with open(log, "rb") as fh:
                data = fh.read()
        except OSError as exc:
            raise TaskprotoError(f"cannot read {log}: {exc.strerror}") from None
    result = classify_log(data.decode("utf-8", "replace"))
    emit(as_json, result.to_dict(), lambda: _print_classification(result.to_dict()))


@build_group.command("run", context_settings={"ignore_unknown_options": True})
@click.option("--task", "task", metavar="TASK", help="Record the result on TASK.")
@click.option("--timeout", type=float, help="Kill the command after this many seconds.")
@click.argument("argv", nargs=-1, required=True, type=click.UNPROCESSED)
@json_option
@pass_state
def run(
    state: AppState, task: str | None, timeout: float | None, argv: tuple[str, ...], as_json: bool
) -> None:
    """Run CMD (after --); when it fails, classify its output. Exit 1 when the command failed."""
    from taskproto.errors import TaskprotoError
    from taskproto.ops.build import run_and_classify

    if task:
        state.engine.load(task)  # refuse an unknown task before running anything
    result = run_and_classify(
        list(argv), timeout=timeout, tee=None if as_json else sys.stdout.buffer
    )
    data = result.to_dict()
    if task:
        _record(state, task, data)
        flush_warnings(state)
    if as_json:
        emit(True, data, lambda: None)
    elif result.classification is not None:
        click.echo()
        _print_classification(result.classification.to_dict())
    if not result.passed:
        kind = result.classification.kind if result.classification else "unknown"
        raise TaskprotoError(
            f"{' '.join(argv)} failed (exit {result.exit_code}): {kind} failure"
            + (f"; recorded on task {task}" if task else "")
        )


def _record(state: AppState, name: str, data: dict[str, Any]) -> None:
    from taskproto.state.models import Task, utcnow

    classification = data.get("classification") or {}
    entry = {
        "time": utcnow().isoformat(),
        "argv": data.get("argv"),
        "exit_code": data.get("exit_code"),
        "kind": classification.get("kind") if classification else None,
        "ecosystem": classification.get("ecosystem") if classification else None,
        "action": classification.get("action") if classification else None,
        "count": classification.get("count") if classification else None,
    }

    def change(task: Task) -> tuple[Task, str]:
        new = task.model_copy(deep=True)
        builds = list(new.context.get("builds", []))[-(MAX_RECORDED - 1) :]
        new.context["builds"] = [*builds, entry]
        return new, f"build: exit {entry['exit_code']} {entry['kind'] or 'passed'}"

    state.engine.mutate(name, change)


COMMANDS = [build_group]

"""`taskproto round|backends|relay` (phone-a-team)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from taskproto.cli.common import AppState, emit, flush_warnings, json_option, pass_state
from taskproto.cli.phone_a_team_run import round_run
from taskproto.cli.render import round_fail_lines, round_lines, round_moved
from taskproto.errors import TaskprotoError

if TYPE_CHECKING:
    from taskproto.state.models import Task

force_option = click.option(
    "--force", is_flag=True, help="Act on a task owned by another live session (logged)."
)


def _moved(name: str, before: str, task: Task) -> dict[str, Any]:
    return round_moved(name, before, task.state, task.counters.round, task.context, task.revision)


def _echo_moved(data: dict[str, Any]) -> None:
    for line in round_lines(data):
        click.echo(line)


def _read(path: Path | None, option: str) -> str | None:
    """The text of a file an option names (None without one); one clear line if it cannot be
    read."""
    if path is None:
        return None
    try:
        return path.absolute().read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise TaskprotoError(
            f"{option} {path}: {exc.strerror or exc}; pass a file to read"
        ) from None


@click.group("round")
def round_group() -> None:
    """phone-a-team rounds: review (DO done), decide (rubric), fail (backend failure), show."""


@round_group.command("review")
@click.argument("name")
@click.option(
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The round's output (or delta); the next relay payload sends it.",
)
@force_option
@json_option
@pass_state
def round_review(
    state: AppState, name: str, output: Path | None, force: bool, as_json: bool
) -> None:
    """DO -> REVIEW: the round's work is done; review it against the rubric next."""
    from taskproto.ops import phone_a_team as team

    engine = state.engine
    text = _read(output, "--output")
    before = engine.load(name).state
    task = team.review(engine, name, text, state.session_id(), force)
    flush_warnings(state)
    data = _moved(name, before, task)
    emit(as_json, data, lambda: _echo_moved(data))


@round_group.command("decide")
@click.argument("name")
@click.option(
    "--rubric",
    required=True,
    metavar="acceptance=pass,risks=pass,validation=pass|documented",
    help="The convergence rubric; each item pass or fail (validation also: documented).",
)
@click.option(
    "--note", help="Reviewer's note; required for validation=documented (the documented reason)."
)
@force_option
@json_option
@pass_state
def round_decide(
    state: AppState, name: str, rubric: str, note: str | None, force: bool, as_json: bool
) -> None:
    """REVIEW -> DECIDE -> SYNTHESIS (converged, or forced stop at the last round) or the next
    round."""
    from taskproto.machine.builtin.phone_a_team import parse_rubric
    from taskproto.ops import phone_a_team as team

    engine = state.engine
    parsed = parse_rubric(rubric)
    before = engine.load(name).state
    task = team.decide(engine, name, parsed, note, state.session_id(), force)
    flush_warnings(state)
    data = _moved(name, before, task)
    emit(as_json, data, lambda: _echo_moved(data))


@round_group.command("fail")
@click.argument("name")
@click.option("--backend", required=True, help="The backend that failed.")
@click.option("--reason", required=True, type=click.Choice(["rate-limited", "timeout", "crash"]))
@force_option
@json_option
@pass_state
def round_fail(
    state: AppState, name: str, backend: str, reason: str, force: bool, as_json: bool
) -> None:
    """Record a backend failure: 429 skips it this round; timeout/crash lose the round; all failed
    stops."""
    from taskproto.ops import phone_a_team as team

    engine = state.engine
    before = engine.load(name).state
    result = team.fail(engine, name, backend, reason, state.session_id(), force)
    flush_warnings(state)
    data = {
        **_moved(name, before, result.task),
        "action": result.outcome,
        "message": result.message,
    }

    def human() -> None:
        for line in round_fail_lines(data):
            click.echo(line)

    emit(as_json, data, human)


@round_group.command("show")
@click.argument("name")
@json_option
@pass_state
def round_show(state: AppState, name: str, as_json: bool) -> None:
    """Show the current round, the backends and the rounds so far."""
    task = state.engine.load(name)
    c = task.context
    data: dict[str, Any] = {
        "task": name,
        "state": task.state,
        "round": task.counters.round,
        "max_rounds": c.get("max_rounds"),
        "backends": c.get("backends"),
        "round_state": c.get("round_state"),
        "rounds": c.get("rounds") or [],
        "outcome": c.get("outcome"),
        "unresolved": c.get("unresolved"),
        "parent": c.get("parent"),
    }

    def human() -> None:
        click.echo(
            f"{name}: {task.state}, round {data['round']} of {data['max_rounds']}, "
            f"backends {', '.join(data['backends'] or [])}"
        )
        for r in data["rounds"]:
            click.echo(
                f"  round {r['round']}: {r['outcome']}"
                + (f" ({'; '.join(r['unresolved'])})" if r["unresolved"] else "")
            )
            for backend, call in (r.get("calls") or {}).items():  # rounds `round run` ran
                how = call.get("format") if call["outcome"] == "answered" else call["detail"]
                click.echo(f"    {backend:<7} {call['outcome']} ({how})")
        if data["outcome"]:
            click.echo(f"  outcome: {data['outcome']}")
        written = [r["round"] for r in data["rounds"] if r.get("sandbox") == "workspace-write"]
        if written:
            click.echo(
                f"  disclosure: backends could write in round(s) {', '.join(map(str, written))}"
            )

    emit(as_json, data, human)


@click.group("backends")
def backends_group() -> None:
    """phone-a-team backend preflight."""


@backends_group.command("check")
@click.option(
    "--backend", default="codex", show_default=True, help="codex, gemini, ollama or both."
)
@json_option
@pass_state
def backends_check(state: AppState, backend: str, as_json: bool) -> None:
    """Look the backend CLIs up on PATH and apply the degradation table.

    One of two missing: degrade with a warning. Every requested one missing:
    refused with an install hint. ollama is an HTTP endpoint: no binary check.
    """
    from taskproto.ops import backends

    try:
        settings = state.engine.config.raw
    except Exception:  # noqa: BLE001 - outside a repository the defaults apply
        settings = {}
    result = backends.preflight(backend, settings=settings)
    for w in result.warnings:
        click.echo(f"taskproto: warning: {w}", err=True)

    def human() -> None:
        for name, path in result.found.items():
            if name == "ollama":
                click.echo(f"ollama   HTTP endpoint {result.ollama_url} (no binary check)")
            else:
                click.echo(f"{name:<8} {path or 'missing'}")
        click.echo(f"using: {', '.join(result.active)}")

    emit(as_json, result.as_dict(), human)


@click.group("relay")
def relay_group() -> None:
    """phone-a-team relay payloads."""


@relay_group.command("build")
@click.argument("name")
@click.option(
    "--latest",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Send this file as the latest output or delta (default: the last round's output).",
)
@click.option(
    "--context",
    "context",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Extra context to send (capped at 200 KB).",
)
@click.option("--no-diff", is_flag=True, help="Leave the task worktree's diff out.")
@json_option
@pass_state
def relay_build(
    state: AppState,
    name: str,
    latest: Path | None,
    context: Path | None,
    no_diff: bool,
    as_json: bool,
) -> None:
    """Assemble the next relay payload; refused over 500 KB prompt, 200 KB context or 300 KB diff.

    The prompt holds the task description, the round, a short summary of earlier
    rounds and the latest output; the diff is the task worktree's against its base.
    """
    from taskproto.ops import phone_a_team as team

    payload = team.build_relay(
        state.engine,
        name,
        _read(latest, "--latest"),
        not no_diff,
        _read(context, "--context"),
    )
    emit(as_json, payload.as_dict(), lambda: click.echo(payload.text, nl=False))


round_group.add_command(round_run)  # `round run`: cli/phone_a_team_run.py

COMMANDS = [round_group, backends_group, relay_group]

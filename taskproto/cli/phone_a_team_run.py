"""`taskproto round run` (phone-a-team): call the backends for real, round after round."""

from __future__ import annotations

from typing import Any

import click

from taskproto.cli.common import AppState, emit, flush_warnings, json_option, pass_state

force_option = click.option(
    "--force", is_flag=True, help="Act on a task owned by another live session (logged)."
)


def ask_description(what: str) -> str:
    """The seed's rule: an empty task is asked for, in a terminal; elsewhere it is refused."""
    import sys

    from taskproto.errors import TaskprotoError

    if not sys.stdin.isatty():
        raise TaskprotoError(
            f"{what} needs a task description and none was given: pass --description TEXT, "
            "or run it in a terminal to be asked"
        )
    text = click.prompt(
        "What should the team do? (the task description)", default="", show_default=False
    )
    if not text.strip():
        raise TaskprotoError("no task description given: the loop does not start on an empty task")
    return str(text)


def _round_data(rnd: Any) -> dict[str, Any]:
    task = rnd.task
    calls = []
    for call in rnd.calls:
        entry = call.record()
        answer = rnd.answers.get(call.backend)
        if answer:
            entry.update(
                format=answer["format"],
                problems=answer["problems"],
                review={k: v["verdict"] for k, v in answer["review"].items()},
                verdict=answer["decide"]["verdict"],
            )
        calls.append(entry)
    return {
        "round": rnd.round,
        "mode": rnd.mode,
        "mode_note": rnd.mode_note,
        "calls": calls,
        "messages": rnd.messages,
        "rubric": rnd.rubric,
        "note": rnd.note,
        "state": task.state if task else None,
        "next_round": task.counters.round if task else None,
        "outcome": task.context.get("outcome") if task else None,
        "unresolved": task.context.get("unresolved") if task else None,
    }


def _echo_round(name: str, data: dict[str, Any], max_rounds: Any) -> None:
    lanes = ", ".join(c["backend"] for c in data["calls"])
    how = {"team": f"team ({lanes} in parallel)", "single": lanes}.get(data["mode"], data["mode"])
    if data["mode"] == "sequential":
        how = f"sequential ({lanes}; {data['mode_note']})"
    click.echo(f"{name}: round {data['round']} of {max_rounds}, {how}")
    for c in data["calls"]:
        if c["outcome"] == "answered":
            review = ", ".join(f"{k} {v}" for k, v in (c.get("review") or {}).items())
            problems = "; ".join(c.get("problems") or [])
            detail = f"answer unparseable: {problems}" if c.get("format") != "ok" else review
            click.echo(f"  {c['backend']:<7} answered in {c['seconds']:.1f} s: {detail}")
        else:
            click.echo(
                f"  {c['backend']:<7} {c['outcome']} after {c['seconds']:.1f} s: {c['detail']}"
            )
    for m in data["messages"]:
        click.echo(f"  {m}")
    if data["rubric"] and data["state"] == "REVIEW":
        rubric = ",".join(f"{k}={v}" for k, v in data["rubric"].items())
        click.echo(f"  proposed rubric: {rubric}; decide with `taskproto round decide {name}`")
    elif data["state"] == "SYNTHESIS":
        click.echo(f"  -> SYNTHESIS ({(data['outcome'] or '').replace('_', ' ')})")
        for item in data["unresolved"] or []:
            click.echo(f"  unresolved: {item}")
    elif data["state"] == "DO":
        click.echo(f"  -> DO (round {data['next_round']} of {max_rounds})")


@click.command("run")
@click.argument("name")
@click.option("--once", is_flag=True, help="Run one round only (default: until SYNTHESIS).")
@click.option(
    "--no-decide",
    is_flag=True,
    help="Stop in REVIEW with the answers recorded; decide yourself with `round decide`.",
)
@click.option(
    "--timeout",
    type=float,
    metavar="SECONDS",
    help="Per-call deadline (default [phone_a_team] timeout, else 600); the process group is "
    "killed.",
)
@click.option(
    "--sequential", is_flag=True, help="Call the backends one after another, not as a team."
)
@click.option(
    "--write",
    is_flag=True,
    help="Let the backends write in the task worktree (codex workspace-write, gemini auto_edit); "
    "disclosed in the synthesis. Default: read-only.",
)
@click.option(
    "--description", metavar="TEXT", help="The task description, for a task that has none."
)
@force_option
@json_option
@pass_state
def round_run(
    state: AppState,
    name: str,
    once: bool,
    no_decide: bool,
    timeout: float | None,
    sequential: bool,
    write: bool,
    description: str | None,
    force: bool,
    as_json: bool,
) -> None:
    """Call the task's backends for real, round after round, and apply the failure matrix.

    Each round sends the relay payload to codex (`codex exec`), gemini (`gemini -p`)
    or ollama (HTTP), records each answer's DO/REVIEW/DECIDE parts, and decides with
    the rubric from the answers: converged, next round, or a forced stop. A 429 skips
    that backend this round; a timeout or crash fails it this round; when every
    backend is down the round is lost (or, all failed, the loop stops).
    """
    from taskproto.ops import team_run

    engine = state.engine
    session = state.session_id()
    task = engine.load(name)
    if task.workflow == "phone-a-team" and not (task.description or "").strip():
        text = description if description is not None else ask_description(f"round run {name}")
        team_run.set_description(engine, name, text, session, force)
    elif description is not None:
        team_run.set_description(engine, name, description, session, force)
    max_rounds = task.context.get("max_rounds")
    rounds: list[dict[str, Any]] = []

    def report(rnd: Any) -> None:
        data = _round_data(rnd)
        rounds.append(data)
        if not as_json:
            _echo_round(name, data, max_rounds)

    try:
        team_run.run(
            engine,
            name,
            session,
            force,
            once=once,
            decide=not no_decide,
            timeout=timeout,
            sequential=sequential,
            write=write,
            on_round=report,
        )
    finally:
        flush_warnings(state)
    final = engine.load(name)
    escalated = team_run.escalations(final)
    if escalated and final.state == "SYNTHESIS" and not as_json:
        click.echo(
            f"  disclosure: the backends could write in the task worktree in round(s) "
            f"{', '.join(map(str, escalated))} (--write)"
        )
    if as_json:
        emit(
            True,
            {
                "task": name,
                "state": final.state,
                "round": final.counters.round,
                "outcome": final.context.get("outcome"),
                "unresolved": final.context.get("unresolved"),
                "write_access_rounds": escalated,
                "rounds": rounds,
            },
            lambda: None,
        )

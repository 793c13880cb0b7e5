"""phone-a-team's operations: creation (rounds, backends, no nesting), review, decide, failures,
relay."""

from __future__ import annotations

from taskproto.engine import Engine, Step
from taskproto.errors import TaskprotoError
from taskproto.machine.builtin.phone_a_team import (
    NAME,
    failure_message,
    failure_note,
    record_failure,
    round_message,
)
from taskproto.state.models import Task, utcnow

TYPE_CHECKING = False
if TYPE_CHECKING:  # a round's review, decision or failure needs neither the backends nor the relay
    from typing import Any

    from taskproto.engine.transitions import StepFn
    from taskproto.ops import relay

MIN_ROUNDS, MAX_ROUNDS, DEFAULT_ROUNDS = 1, 5, 3
REASONS = ("rate-limited", "timeout", "crash")


def _require(task: Task) -> None:
    if task.workflow != NAME:
        raise TaskprotoError(f"task {task.name!r} is a {task.workflow} task, not {NAME}")


def running_loops(engine: Engine, session: str | None) -> list[Task]:
    """phone-a-team tasks owned by `session` that have not reached SYNTHESIS."""
    if not session:
        return []
    found = []
    for name in engine.task_names():
        try:
            task = engine.load(name)
        except TaskprotoError:
            continue
        if (
            task.workflow == NAME
            and task.state != "SYNTHESIS"
            and task.owner
            and task.owner.session == session
        ):
            found.append(task)
    return found


def creation(
    engine: Engine,
    max_rounds: int | None = None,
    backend: str | None = None,
    parent: str | None = None,
    session: str | None = None,
    path: str | None = None,
) -> tuple[dict[str, Any], dict[str, int], list[str]]:
    """Check a new phone-a-team task's settings; returns its context, counters and warnings.

    Refused: max_rounds outside 1–5, a backend that fails preflight, and nesting
    (a recorded parent, or a loop this session owns, that is a running phone-a-team task).
    """
    rounds = DEFAULT_ROUNDS if max_rounds is None else max_rounds
    if not MIN_ROUNDS <= rounds <= MAX_ROUNDS:
        raise TaskprotoError(
            f"max_rounds must be between {MIN_ROUNDS} and {MAX_ROUNDS}, not {rounds}"
        )
    from taskproto.ops import backends

    check = backends.preflight(backend or backends.DEFAULT, path=path, settings=engine.config.raw)
    parents = [engine.load(parent)] if parent else running_loops(engine, session)
    for p in parents:
        if p.workflow == NAME and not engine.workflow(p).state(p.state).terminal:
            raise TaskprotoError(
                f"no re-entrancy: {p.name} is a running {NAME} loop (state {p.state}, round "
                f"{p.counters.round}); "
                f"a {NAME} task cannot be started inside another; finish {p.name} first"
            )
    context: dict[str, Any] = {
        "max_rounds": rounds,
        "backend": check.requested,
        "backends": check.active,
        "preflight": check.as_dict(),
        "round_state": {"skipped": [], "failed": {}},
        "rounds": [],
    }
    if parent:
        context["parent"] = parent
    return context, {"round": 1}, check.warnings


def _step(
    engine: Engine, name: str, session: str | None, force: bool, what: str, step: StepFn
) -> Task:
    """One locked, journaled change of a phone-a-team task (refused for a task of another
    workflow)."""

    def checked(s: Step) -> tuple[Task, str]:
        _require(s.task)
        return step(s)

    return engine.advance(name, checked, session, force, what)


def review(
    engine: Engine, name: str, output: Any = None, session: str | None = None, force: bool = False
) -> Task:
    """DO → REVIEW: the round's work is done; `output` becomes the latest output for the next
    relay."""

    def step(s: Step) -> tuple[Task, str]:
        new = s.fire(s.task, "review", {"output": output})
        return new, round_message("review", s.task.counters.round, new.state, "review")

    return _step(engine, name, session, force, "move it", step)


def decide(
    engine: Engine,
    name: str,
    rubric: dict[str, str],
    note: str | None = None,
    session: str | None = None,
    force: bool = False,
) -> Task:
    """REVIEW → DECIDE → SYNTHESIS (converged or forced stop) or DO (next round), in one change."""

    def step(s: Step) -> tuple[Task, str]:
        decided = s.fire(s.task, "decide", {"rubric": rubric, "note": note}, note)
        new = s.first(decided, ["converge", "iterate", "force_stop"], {"note": note}, note)
        trigger = new.transition_log[-1].trigger
        return new, round_message("decide", s.task.counters.round, new.state, trigger)

    return _step(engine, name, session, force, "move it", step)


class Failure:
    """A round's failure recorded: the task after it, what happens next, the line to print."""

    def __init__(self, task: Task, outcome: str, message: str) -> None:
        self.task = task
        self.outcome = outcome  # continue | retry_round | fail_stop
        self.message = message


def apply_failure(s: Step, task: Task, backend: str, reason: str) -> tuple[Task, str, str]:
    """The failure matrix: `task` with the failure recorded, and moved if the round is lost.

    Returns (new task, outcome continue|retry_round|fail_stop, message). `round fail` and
    `round run` both record failures through here; the quick path (cli/quick_team.py) runs the
    same functions of the workflow (`record_failure`, `failure_message`) on task.json's JSON.
    """
    new = task.model_copy(deep=True)
    note, up = record_failure(new, backend, reason)
    new.record(
        trigger="backend_failure",
        time=utcnow(),
        session=s.session,
        kind="note",
        note=note,
    )
    if up:
        return new, "continue", failure_message(note, up, "continue", task.counters.round, new)
    moved = s.first(new, ["fail_stop", "retry_round"], {}, note)
    outcome = moved.transition_log[-1].trigger
    return moved, outcome, failure_message(note, up, outcome, task.counters.round, moved)


def fail(
    engine: Engine,
    name: str,
    backend: str,
    reason: str,
    session: str | None = None,
    force: bool = False,
) -> Failure:
    """Record a backend failure this round and apply the failure matrix."""
    if reason not in REASONS:
        raise TaskprotoError(f"--reason must be one of {', '.join(REASONS)}, not {reason!r}")
    result: dict[str, str] = {}

    def step(s: Step) -> tuple[Task, str]:
        new, outcome, message = apply_failure(s, s.task, backend, reason)
        result.update(outcome=outcome, message=message)
        round_ = s.task.counters.round
        note = failure_note(backend, reason, round_)
        return new, round_message("fail", round_, new.state, new.transition_log[-1].trigger, note)

    task = _step(engine, name, session, force, "record failures", step)
    return Failure(task, result["outcome"], result["message"])


def build_relay(
    engine: Engine,
    name: str,
    latest: str | None = None,
    with_diff: bool = True,
    context: str | None = None,
) -> relay.Payload:
    task = engine.load(name)
    _require(task)
    if task.state == "SYNTHESIS":
        raise TaskprotoError(
            f"task {name!r} is in SYNTHESIS; the loop has ended, there is nothing to relay"
        )
    diff = ""
    if with_diff and task.base:
        worktree = engine.config.task_worktree(name)
        diff = engine.repo.run(
            "diff",
            "--no-color",
            "--no-ext-diff",
            task.base,
            "--",
            cwd=worktree if worktree.is_dir() else None,
        )
    from taskproto.ops import relay

    return relay.build(task, diff, latest, context)

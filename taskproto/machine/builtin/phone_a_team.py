"""phone-a-team: rounds of DO → REVIEW → DECIDE, ending in SYNTHESIS.

`counters.round` is the current round (1-based); `context.max_rounds` (1–5)
caps it. DECIDE converges only when all three rubric items pass; otherwise the
next round, or a forced stop at the last round. Backend failures recorded in
`context.round_state` may lose the round (retry next round) or, when every
backend failed, stop the loop. Every outcome ends in SYNTHESIS with
`context.outcome` and the unresolved items.
"""

from __future__ import annotations

from taskproto.errors import TaskprotoError, TransitionRejected
from taskproto.machine.steps import effect, guard

# Standard library only (machine/steps.py `LIGHT`): the models are imported by `definition()`.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.machine.steps import FireContext
    from taskproto.machine.workflow import Workflow
    from taskproto.state.models import Task

NAME = "phone-a-team"
RUBRIC = {
    "acceptance": ("pass", "fail"),
    "risks": ("pass", "fail"),
    "validation": ("pass", "documented", "fail"),
}
UNRESOLVED = {
    "acceptance": "acceptance criteria not met",
    "risks": "critical risks or correctness issues remain",
    "validation": "validation not done and no documented reason",
}


def rubric_failures(rubric: dict[str, Any]) -> list[str]:
    """The rubric items that did not pass, as the unresolved items a synthesis lists."""
    out = []
    for item in RUBRIC:
        value = rubric.get(item)
        if not (value == "pass" or (item == "validation" and value == "documented")):
            out.append(UNRESOLVED[item])
    return out


def round_state(task: Task) -> dict[str, Any]:
    return task.context.get("round_state") or {"skipped": [], "failed": {}}


def backends_down(task: Task) -> list[str]:
    rs = round_state(task)
    return [
        b for b in task.context.get("backends") or [] if b in rs["skipped"] or b in rs["failed"]
    ]


def max_rounds(task: Task) -> int:
    return int(task.context.get("max_rounds", 3))


def parse_rubric(text: str) -> dict[str, str]:
    """`acceptance=pass,risks=pass,validation=documented` → a dict, or TaskprotoError."""
    rubric: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        key, value = key.strip().lower(), value.strip().lower()
        if not sep or key not in RUBRIC:
            raise TaskprotoError(
                f"rubric item {part!r}: expected one of {', '.join(f'{k}=...' for k in RUBRIC)}"
            )
        if value not in RUBRIC[key]:
            raise TaskprotoError(f"rubric {key}={value!r}: expected {'|'.join(RUBRIC[key])}")
        rubric[key] = value
    missing = [k for k in RUBRIC if k not in rubric]
    if missing:
        raise TaskprotoError(
            f"the rubric is missing {', '.join(missing)}: "
            "--rubric acceptance=pass|fail,risks=pass|fail,validation=pass|documented|fail"
        )
    return rubric


def record_failure(task: Task, backend: str, reason: str) -> tuple[str, list[str]]:
    """Backend `backend`'s failure (`reason`: rate-limited, timeout or crash) recorded in this
    round's state of `task` (a copy the caller saves: the engine's model, or task.json's JSON seen
    as a task); returns its note and the backends still up. Raises TransitionRejected outside a
    round (DO or REVIEW) and TaskprotoError for a backend that is not the task's or is down
    already, with nothing changed."""
    if task.state not in ("DO", "REVIEW"):
        raise TransitionRejected(
            task.name,
            task.state,
            "round fail",
            "backend failures are recorded during a round (DO or REVIEW)",
        )
    active = task.context.get("backends") or []
    if backend not in active:
        raise TaskprotoError(
            f"{backend!r} is not a backend of {task.name} (active: {', '.join(active) or 'none'})"
        )
    if backend in backends_down(task):
        raise TaskprotoError(
            f"backend {backend} is already down this round (round {task.counters.round})"
        )
    rs = task.context.setdefault("round_state", {"skipped": [], "failed": {}})
    if reason == "rate-limited":
        rs["skipped"].append(backend)  # skip this round, retry next
    else:
        rs["failed"][backend] = reason
    up = [b for b in active if b not in backends_down(task)]
    return failure_note(backend, reason, task.counters.round), up


def failure_note(backend: str, reason: str, round_: int) -> str:
    """The note a backend's failure in round `round_` leaves in the log."""
    return f"backend {backend} {reason} in round {round_}"


def round_message(verb: str, round_: int, state: str, trigger: str, note: str | None = None) -> str:
    """The journal message of `round review|decide|fail` (`verb`) in round `round_`: `state` is
    the state reached, `trigger` the last fired (`backend_failure`: a failure that moved
    nothing), `note` a failure's."""
    if verb == "review":
        return f"review: round {round_}"
    if verb == "decide":
        return f"decide: round {round_} -> {state} ({trigger})"
    return str(note) if trigger == "backend_failure" else f"{trigger}: {note}"


def failure_message(note: str, up: list[str], outcome: str, round_: int, task: Task) -> str:
    """What `round fail` says of a failure (`outcome`: continue, retry_round or fail_stop) in
    round `round_`, `task` as it is after it."""
    if outcome == "continue":
        return f"{note}; continuing with {', '.join(up)}"
    if outcome == "retry_round":
        return f"{note}; round {round_} lost, round {task.counters.round} starts"
    return f"{note}; loop stopped ({task.context.get('outcome', '').replace('_', ' ')})"


@guard("rubric_given")
def rubric_given(task: Task, ctx: FireContext) -> str | None:
    rubric = ctx.params.get("rubric")
    if not isinstance(rubric, dict) or set(rubric) != set(RUBRIC):
        return (
            "DECIDE needs the rubric: --rubric "
            "acceptance=pass|fail,risks=pass|fail,validation=pass|documented|fail"
        )
    for item, allowed in RUBRIC.items():
        if rubric[item] not in allowed:
            return f"rubric {item}={rubric[item]!r} is not one of {', '.join(allowed)}"
    if rubric["validation"] == "documented" and not str(ctx.params.get("note") or "").strip():
        return "validation=documented needs the documented reason: --note TEXT"
    return None


@guard("rubric_passes")
def rubric_passes(task: Task, ctx: FireContext) -> str | None:
    failures = rubric_failures(task.context.get("rubric") or {})
    return "; ".join(failures) if failures else None


@guard("rounds_remain")
def rounds_remain(task: Task, ctx: FireContext) -> str | None:
    if task.counters.round >= max_rounds(task):
        return f"round {task.counters.round} is the last (max_rounds {max_rounds(task)})"
    return None


@guard("round_lost")
def round_lost(task: Task, ctx: FireContext) -> str | None:
    active = task.context.get("backends") or []
    up = [b for b in active if b not in backends_down(task)]
    return f"backend(s) {', '.join(up)} still working this round" if up else None


@guard("backends_all_failed")
def backends_all_failed(task: Task, ctx: FireContext) -> str | None:
    active = task.context.get("backends") or []
    failed = round_state(task)["failed"]
    if len(active) < 2 or any(b not in failed for b in active):
        return "not every backend of a multi-backend loop failed this round"
    return None


def _close_round(task: Task, ctx: FireContext, outcome: str) -> dict[str, Any]:
    rubric = task.context.get("rubric")
    rs = round_state(task)
    entry = {
        "round": task.counters.round,
        "outcome": outcome,
        "rubric": rubric,
        "unresolved": rubric_failures(rubric) if rubric else [],
        "failures": dict(rs["failed"]),
        "skipped": list(rs["skipped"]),
        "note": ctx.params.get("note"),
        "time": ctx.time.isoformat(),
    }
    for key in ("calls", "mode", "sandbox"):  # what `round run` saw of the backends this round
        if key in rs:
            entry[key] = rs[key]
    task.context.setdefault("rounds", []).append(entry)
    return entry


@effect("record_output")
def record_output(task: Task, ctx: FireContext) -> None:
    if ctx.params.get("output") is not None:
        task.context["latest_output"] = ctx.params["output"]


@effect("record_rubric")
def record_rubric(task: Task, ctx: FireContext) -> None:
    task.context["rubric"] = dict(ctx.params["rubric"])
    if ctx.params.get("note"):
        task.context["rubric_note"] = ctx.params["note"]


@effect("next_round")
def next_round(task: Task, ctx: FireContext) -> None:
    lost = task.state != "DECIDE"
    _close_round(task, ctx, "round_failed" if lost else "not_converged")
    task.counters.round += 1
    task.context["round_state"] = {"skipped": [], "failed": {}}
    task.context.pop("rubric", None)
    task.context.pop("rubric_note", None)


@effect("synthesize")
def synthesize(task: Task, ctx: FireContext) -> None:
    rubric = task.context.get("rubric")
    if task.state == "DECIDE" and rubric is not None and not rubric_failures(rubric):
        outcome = "converged"
    elif task.state == "DECIDE":
        outcome = "forced_stop"
    elif backends_all_failed(task, ctx) is None:
        outcome = "backends_failed"
    else:
        outcome = "round_failed_at_last_round"
    entry = _close_round(task, ctx, outcome)
    unresolved = list(entry["unresolved"])
    for backend, reason in entry["failures"].items():
        unresolved.append(f"backend {backend} failed: {reason}")
    for backend in entry["skipped"]:
        unresolved.append(f"backend {backend} was rate-limited")
    task.context["outcome"] = outcome
    task.context["unresolved"] = [] if outcome == "converged" else unresolved


_LOOP = ["DO", "REVIEW"]


def definition() -> Workflow:
    from taskproto.machine.workflow import StateDef, Workflow
    from taskproto.machine.workflow import TransitionDef as _T

    return Workflow(
        name=NAME,
        description="Rounds of do, review, decide over external backends; converge on the rubric "
        "or stop at max_rounds.",
        initial="DO",
        states=[
            StateDef(
                name="DO",
                allows_edits=True,
                allows_commits=True,
                description="Delegate the round's work to the backend(s) "
                "(`taskproto relay build`).",
                resume="Resume the round: build the relay payload and delegate, then `taskproto "
                "round review`.",
            ),
            StateDef(
                name="REVIEW",
                resumable=True,
                description="Review the round's output against the convergence rubric.",
                resume="Review the output, then `taskproto round decide --rubric ...`.",
            ),
            StateDef(
                name="DECIDE",
                resumable=True,
                description="Converge, iterate, or stop at the last round.",
                resume="Decide with `taskproto round decide`.",
            ),
            StateDef(
                name="SYNTHESIS",
                terminal=True,
                description="Final synthesis: outcome and unresolved items.",
                resume="Write the final synthesis from context.outcome and context.unresolved.",
            ),
        ],
        transitions=[
            _T(trigger="review", source=["DO"], dest="REVIEW", effects=["record_output"]),
            _T(
                trigger="decide",
                source=["REVIEW"],
                dest="DECIDE",
                guards=["rubric_given"],
                effects=["record_rubric"],
            ),
            _T(
                trigger="converge",
                source=["DECIDE"],
                dest="SYNTHESIS",
                guards=["rubric_passes"],
                effects=["synthesize"],
            ),
            _T(
                trigger="iterate",
                source=["DECIDE"],
                dest="DO",
                guards=["!rubric_passes", "rounds_remain"],
                effects=["next_round"],
            ),
            _T(
                trigger="force_stop",
                source=["DECIDE"],
                dest="SYNTHESIS",
                guards=["!rubric_passes", "!rounds_remain"],
                effects=["synthesize"],
                description="Issues remain at the last round: synthesis lists them.",
            ),
            _T(
                trigger="retry_round",
                source=_LOOP,
                dest="DO",
                guards=["round_lost", "rounds_remain", "!backends_all_failed"],
                effects=["next_round"],
                description="Every backend is down this round (timeout, crash, 429): retry next "
                "round.",
            ),
            _T(
                trigger="fail_stop",
                source=_LOOP,
                dest="SYNTHESIS",
                guards=["backends_all_failed"],
                effects=["synthesize"],
                description="Both backends failed mid-loop: stop with a failure summary.",
            ),
            _T(
                trigger="fail_stop",
                source=_LOOP,
                dest="SYNTHESIS",
                guards=["round_lost", "!rounds_remain"],
                effects=["synthesize"],
                description="The last round was lost: stop with a failure summary.",
            ),
        ],
    )

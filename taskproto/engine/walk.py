"""`taskproto next`: fire the one step the workflow allows next, or walk to a state along the only
path, each step its own journaled transition, stopping at a guard or a user's step and saying which
(machine/progress.py decides; this module fires)."""

from __future__ import annotations

from dataclasses import dataclass, field

from taskproto.engine.core import Core
from taskproto.engine.transitions import Step, advance
from taskproto.errors import TaskprotoError
from taskproto.machine import progress
from taskproto.state.models import Task


class Stopped(TaskprotoError):
    """No step goes ahead now; `kind` is progress.StopKind, the message says why and what acts."""

    def __init__(self, task: str, state: str, kind: str, reason: str) -> None:
        self.task, self.state, self.kind, self.reason = task, state, kind, reason
        super().__init__(f"task {task!r} stays in {state}: {reason}")


@dataclass
class Walk:
    task: str
    target: str | None
    state: str = ""
    steps: list[tuple[str, str, str]] = field(default_factory=list)  # (from, trigger, to)
    stopped: Stopped | TaskprotoError | None = None

    @property
    def reached(self) -> bool:
        return self.stopped is None

    def as_json(self) -> dict[str, object]:
        stop = self.stopped
        return {
            "task": self.task,
            "to": self.target,
            "state": self.state,
            "steps": [{"from": a, "trigger": t, "to": b} for a, t, b in self.steps],
            "reached": self.reached,
            "stopped": None
            if stop is None
            else {"kind": getattr(stop, "kind", "refused"), "reason": str(stop)},
        }


def walk(
    core: Core,
    name: str,
    target: str | None = None,
    session: str | None = None,
    force: bool = False,
) -> Walk:
    """Fire the next step of task `name`, or (with `target`) each step up to that state. A refusal
    before the first step raises; after it, the walk ends there and says why (`stopped`)."""
    task = core.load(name)
    wf = core.workflow(task)
    result = Walk(task.name, target, task.state)
    if target is not None:
        if not wf.has_state(target):
            raise TaskprotoError(
                f"{target} is not a state of workflow {wf.name} (states: "
                f"{', '.join(wf.state_names())})"
            )
        if task.state == target:
            return result
        if not progress.reaches(wf, task.state, target):
            raise Stopped(
                name,
                task.state,
                "behind",
                f"{target} is not ahead of {task.state} in {wf.name}; "
                f"`taskproto rollback {name} --to {target}` goes back (the user's)",
            )

    def step(s: Step) -> tuple[Task, str]:
        nxt = progress.plan(s.workflow, s.task, s.context(), target)
        if nxt.trigger is None:
            raise Stopped(s.task.name, s.task.state, str(nxt.kind), nxt.reason)
        new = s.fire(s.task, nxt.trigger)
        return new, f"{nxt.trigger}: {s.task.state} -> {new.state} (next)"

    for _ in range(len(wf.states)):
        try:
            task = advance(core, name, step, session, force)
        except TaskprotoError as exc:
            if not result.steps:
                raise
            result.stopped = exc
            return result
        entry = task.transition_log[-1]
        result.steps.append((entry.from_state or "", entry.trigger, task.state))
        result.state = task.state
        if target is None or task.state == target:
            return result
    result.stopped = Stopped(name, result.state, "choice", "the walk went round; name a state")
    return result

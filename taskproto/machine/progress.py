"""`taskproto next`: which step a workflow allows next, decided from its definition (pure).

A workflow's main line is the longest simple path from its initial state: for task-protocol INIT
… COMPLETE, CLEANUP. A transition that moves further along it goes ahead; one that goes back (a
validation failure, a review's rejection, another loop) or stays does not. The next step is the
one transition ahead whose guards pass now. It is not taken, and the answer says why, when a guard
fails (its reason names what would make it pass), when the step is the user's (an approval, a
landing), when several steps pass at once, and at the workflow's end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from taskproto.machine.steps import FireContext
from taskproto.machine.workflow import TransitionDef, Workflow, guard_failure
from taskproto.state.models import Task

StopKind = Literal["guard", "user", "choice", "end", "behind"]
MAX_EXACT = 16  # states; above it, the main line is measured by breadth (longest paths explode)


@dataclass(frozen=True)
class Next:
    """The trigger to fire (and where it leads), or why there is none (`kind`, `reason`)."""

    trigger: str | None = None
    dest: str | None = None
    kind: StopKind | None = None
    reason: str = ""


def ranks(wf: Workflow) -> dict[str, int]:
    """Each state's place on the main line: the length of the longest simple path from the
    initial state to it (the breadth-first depth for a large workflow); unreachable: absent."""
    edges: dict[str, list[str]] = {}
    for t in wf.transitions:
        for src in t.source:
            edges.setdefault(src, []).append(t.dest)
    best: dict[str, int] = {wf.initial: 0}
    if len(wf.states) > MAX_EXACT:
        todo = [wf.initial]
        while todo:
            state = todo.pop(0)
            for nxt in edges.get(state, []):
                if nxt not in best:
                    best[nxt] = best[state] + 1
                    todo.append(nxt)
        return best

    def walk(state: str, depth: int, seen: frozenset[str]) -> None:
        if depth > best.get(state, -1):
            best[state] = depth
        for nxt in edges.get(state, []):
            if nxt not in seen:
                walk(nxt, depth + 1, seen | {nxt})

    walk(wf.initial, 0, frozenset({wf.initial}))
    return best


def ahead(wf: Workflow, state: str, rank: dict[str, int] | None = None) -> list[TransitionDef]:
    """The transitions from `state` that go further along the main line."""
    rank = ranks(wf) if rank is None else rank
    here = rank.get(state, -1)
    return [t for t in wf.triggers_from(state) if rank.get(t.dest, -1) > here]


def reaches(wf: Workflow, start: str, target: str, rank: dict[str, int] | None = None) -> bool:
    """Whether `target` is `start` or lies ahead of it along transitions that go ahead."""
    rank = ranks(wf) if rank is None else rank
    todo, seen = [start], set()
    while todo:
        state = todo.pop()
        if state == target:
            return True
        if state not in seen:
            seen.add(state)
            todo += [t.dest for t in ahead(wf, state, rank)]
    return False


def user_command(task: str, t: TransitionDef) -> str:
    """The command the user runs for a step of theirs."""
    if t.hint:
        return t.hint.format(task=task)
    if t.trigger == "approve":
        return f"taskproto approve {task}"
    return f"taskproto fire {task} {t.trigger}"


def plan(wf: Workflow, task: Task, ctx: FireContext, target: str | None = None) -> Next:
    """The next step of `task` (toward `target` when given), or why there is none."""
    name, state = task.name, task.state
    rank = ranks(wf)
    steps = ahead(wf, state, rank)
    if target is not None:
        steps = [t for t in steps if reaches(wf, t.dest, target, rank)]
    if not steps:
        if target is not None:
            return Next(kind="behind", reason=f"{target} is not ahead of {state} in {wf.name}")
        return Next(kind="end", reason=f"{state} is the end of workflow {wf.name}")
    users = [t for t in steps if t.by == "user"]
    agents = [t for t in steps if t.by != "user"]
    failures = {id(t): guard_failure(t, task, ctx) for t in agents}
    passing = [t for t in agents if failures[id(t)] is None]
    dests = list(dict.fromkeys(t.dest for t in passing))
    if len(dests) == 1:
        return Next(trigger=passing[0].trigger, dest=dests[0])
    if len(dests) > 1:
        choices = ", ".join(f"`taskproto transition {name} {d}`" for d in dests)
        return Next(kind="choice", reason=f"several steps go ahead from {state}: {choices}")
    if users:
        t = users[0]
        return Next(
            kind="user",
            reason=f"the next step is the user's: `{user_command(name, t)}` (-> {t.dest})",
        )
    t = agents[0]
    failure = failures[id(t)]
    assert failure is not None
    guard, why = failure
    return Next(kind="guard", reason=f"{t.trigger} (-> {t.dest}) waits for {guard}: {why}")

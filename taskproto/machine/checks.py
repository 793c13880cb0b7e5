"""Checks on a workflow definition, run when it is built: for the built-ins and for user TOML alike.

In the manner of python-statemachine's factory: a definition with an unknown initial
state, a transition to or from a state that does not exist, a guard or effect nobody
defined, a terminal state with exits, a state no path reaches, or no terminal state at
all is refused when it is built, never discovered by a task that gets stuck in it.
Pure: no IO.
"""

from __future__ import annotations

from taskproto.errors import ValidationFailed
from taskproto.machine.workflow import Workflow

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


def reachable(wf: Workflow) -> set[str]:
    seen = {wf.initial}
    todo = [wf.initial]
    while todo:
        for dest in wf.targets_from(todo.pop()):
            if dest not in seen:
                seen.add(dest)
                todo.append(dest)
    return seen


def problems(
    wf: Workflow, guards: Mapping[str, object], effects: Mapping[str, object]
) -> list[str]:
    """Every problem of a parsed definition, as `key: what`."""
    found: list[str] = []
    states = wf.state_names()
    seen: set[str] = set()
    for i, s in enumerate(wf.states):
        if s.name in seen:
            found.append(f"states[{i}].name: duplicate state {s.name!r}")
        seen.add(s.name)
        if s.allows_merge and not s.allows_commits:
            found.append(
                f"states[{i}].allows_merge: {s.name!r} allows merging but not commits (a merge "
                "makes commits: set allows_commits too)"
            )
    if not states:
        found.append("states: the workflow has no states")
    if wf.initial and wf.initial not in seen:
        found.append(
            f"initial: {wf.initial!r} is not one of the states ({', '.join(states) or 'none'})"
        )
    for i, t in enumerate(wf.transitions):
        for j, src in enumerate(t.source):
            if src not in seen:
                found.append(
                    f"transitions[{i}].source[{j}]: unknown state {src!r} (trigger {t.trigger!r})"
                )
        if t.dest not in seen:
            found.append(f"transitions[{i}].dest: unknown state {t.dest!r} (trigger {t.trigger!r})")
        for j, g in enumerate(t.guards):
            if g.lstrip("!") not in guards:
                known = ", ".join(sorted(guards))
                found.append(f"transitions[{i}].guards[{j}]: unknown guard {g!r} (known: {known})")
        for j, e in enumerate(t.effects):
            if e not in effects:
                known = ", ".join(sorted(effects))
                found.append(
                    f"transitions[{i}].effects[{j}]: unknown effect {e!r} (known: {known})"
                )
    for i, s in enumerate(wf.states):
        exits = [t.trigger for t in wf.triggers_from(s.name)]
        if s.terminal and exits:
            found.append(
                f"states[{i}].terminal: {s.name} is terminal but has exits ({', '.join(exits)})"
            )
    if wf.initial in seen:
        reached = reachable(wf)
        for i, s in enumerate(wf.states):
            if s.name not in reached:
                found.append(
                    f"states[{i}]: {s.name} is unreachable from the initial state {wf.initial}"
                )
    if states and not any(s.terminal for s in wf.states):
        found.append("states: no state is terminal; mark the final one `terminal = true`")
    return found


def require_valid(
    wf: Workflow, guards: Mapping[str, object], effects: Mapping[str, object], source: str
) -> Workflow:
    """`wf`, or ValidationFailed listing every problem as `SOURCE: key: what`."""
    found = problems(wf, guards, effects)
    if found:
        lines = "\n".join(f"  {source}: {p}" for p in found)
        raise ValidationFailed(
            f"{source}: workflow {wf.name!r} is invalid ({len(found)} problem(s)):\n{lines}"
        )
    return wf

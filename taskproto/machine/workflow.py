"""Workflows as data, and `fire()`: the pure step from one task to the next.

No IO here. The engine gathers what guards need to know (agent statuses, the
task branch's head) into a FireContext, calls fire(), and saves the result.
A rejected transition raises TransitionRejected and returns nothing, so the
caller's task is untouched.
"""

from __future__ import annotations

from taskproto.errors import TransitionRejected
from taskproto.machine.steps import EFFECTS, GUARDS, FireContext
from taskproto.state.models import LogEntry, Task
from taskproto.state.record import Record, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal


class StateDef(Record):
    name: str
    description: str = ""
    allows_commits: bool = False
    allows_edits: bool = False
    allows_merge: bool = False  # `taskproto merge` brings agents' branches in here
    terminal: bool = False
    checkpoint: bool = False  # waits for the user (approval); questions never move it
    approval: Literal["plan", "commit"] | None = None  # what `taskproto approve` records here
    resume: str = ""  # what an agent resuming in this state should do
    # the same for a task with no agents, where `resume` speaks of them (else `resume` is said)
    resume_alone: str = ""
    # The order of work (docs/ready.md). final: a task here counts as done for the tasks that
    # depend on it (a terminal state always does). resumable: an unowned task here can be taken
    # from the ready queue by any session (the initial state always can).
    final: bool = False
    resumable: bool = False


def _as_list(value: Any) -> Any:
    """A transition's source may be one state's name."""
    return [value] if isinstance(value, str) else value


class TransitionDef(Record):
    trigger: str
    source: list[str] = field(before=_as_list)
    dest: str
    guards: list[str] = field(factory=list)
    effects: list[str] = field(factory=list)
    description: str = ""
    # "user": only the user fires it (an approval, a review's verdict). Refused to agents at every
    # door: the MCP server, the CLI inside an agent session, the tool guard's view of shell
    # commands.
    by: Literal["agent", "user"] = "agent"
    # the command the user runs for this step, `{task}` for the task's name (`taskproto next`
    # names it when it stops here); else `taskproto fire <task> <trigger>`
    hint: str = ""


class Workflow(Record):
    name: str
    description: str = ""
    initial: str
    states: list[StateDef]
    transitions: list[TransitionDef]
    uses_agents: bool = False

    def state(self, name: str) -> StateDef:
        for s in self.states:
            if s.name == name:
                return s
        raise KeyError(name)

    def has_state(self, name: str) -> bool:
        return any(s.name == name for s in self.states)

    def is_final(self, name: str) -> bool:
        """Whether a task in state `name` has done its work, for the tasks that wait for it."""
        return any(s.name == name and (s.final or s.terminal) for s in self.states)

    def final_states(self) -> list[str]:
        return [s.name for s in self.states if s.final or s.terminal]

    def can_start(self, name: str) -> bool:
        """Whether an unowned task in state `name` may be taken from the ready queue."""
        return name == self.initial or any(
            s.name == name and s.resumable and not s.terminal for s in self.states
        )

    def state_names(self) -> list[str]:
        return [s.name for s in self.states]

    def triggers_from(self, state: str) -> list[TransitionDef]:
        return [t for t in self.transitions if state in t.source]

    def targets_from(self, state: str) -> list[str]:
        seen: list[str] = []
        for t in self.triggers_from(state):
            if t.dest not in seen:
                seen.append(t.dest)
        return seen

    def state_table(self) -> dict[str, dict[str, Any]]:
        """Every state's flags and next steps as plain JSON: what the hooks decide on and what
        `task list/show` print. hooks/flags.py caches it, so neither has to load the workflow.

        push_ok: a task branch may go to a protected branch in COMPLETE and in any state reachable
        from it (task-protocol: COMPLETE, CLEANUP); a workflow with no COMPLETE state allows it in
        its terminal states.
        """
        edges: dict[str, list[str]] = {s.name: [] for s in self.states}
        for t in self.transitions:
            for src in t.source:
                edges.setdefault(src, []).append(t.dest)
        push_ok: set[str] = set()
        if "COMPLETE" in edges:
            todo = ["COMPLETE"]
            while todo:
                state = todo.pop()
                if state not in push_ok:
                    push_ok.add(state)
                    todo += edges.get(state, [])
        else:
            push_ok = {s.name for s in self.states if s.terminal}
        return {
            s.name: {
                "allows_commits": s.allows_commits,
                "allows_edits": s.allows_edits,
                "terminal": s.terminal,
                "final": s.final or s.terminal,
                "approval": s.approval,
                "push_ok": s.name in push_ok,
                "next": list(dict.fromkeys(edges.get(s.name, []))),
                # trigger -> destination of the transitions only the user fires, from this state
                "user_triggers": {
                    t.trigger: t.dest
                    for t in self.transitions
                    if s.name in t.source and t.by == "user"
                },
                "initial": s.name == self.initial,
                # what hooks/move.py needs to fire a plain transition without this model
                "triggers": [
                    {
                        "trigger": t.trigger,
                        "to": t.dest,
                        "guards": list(t.guards),
                        "effects": list(t.effects),
                        "by": t.by,
                    }
                    for t in self.triggers_from(s.name)
                ],
            }
            for s in self.states
        }


def fire(workflow: Workflow, task: Task, trigger: str, ctx: FireContext) -> Task:
    """Return the task after `trigger`, or raise TransitionRejected. `task` is not modified."""
    candidates = [
        t for t in workflow.transitions if t.trigger == trigger and task.state in t.source
    ]
    if not candidates:
        # dict.fromkeys keeps the order and drops the repeats of guarded alternatives
        allowed = ", ".join(
            dict.fromkeys(f"{t.trigger} (-> {t.dest})" for t in workflow.triggers_from(task.state))
        )
        known = any(t.trigger == trigger for t in workflow.transitions)
        why = (
            f"'{trigger}' is not allowed from {task.state}"
            if known
            else f"no trigger named '{trigger}' in workflow {workflow.name}"
        )
        raise TransitionRejected(
            task.name,
            task.state,
            trigger,
            f"{why}; allowed now: {allowed or 'nothing (terminal state)'}"
            + _next(workflow, task, trigger, ctx),
        )
    first_failure: tuple[str, str] | None = None
    for candidate in candidates:
        failure = _check_guards(candidate, task, ctx)
        if failure is None:
            return _apply(candidate, task, ctx)
        first_failure = first_failure or failure
    assert first_failure is not None
    name, reason = first_failure
    if "`taskproto " not in reason and "\n" not in reason:  # name what can be done instead
        reason += _next(workflow, task, trigger, ctx)
    raise TransitionRejected(task.name, task.state, trigger, reason, guard=name)


def _next(workflow: Workflow, task: Task, trigger: str, ctx: FireContext) -> str:
    """The commands that would go through now, for a refusal to name (or where to look)."""
    ready = dict.fromkeys(
        f"`taskproto fire {task.name} {t.trigger}` (-> {t.dest})"
        for t in workflow.triggers_from(task.state)
        if t.trigger != trigger and _check_guards(t, task, ctx) is None
    )
    if ready:
        return "; what can happen now: " + ", ".join(ready)
    return f"; see `taskproto task show {task.name}` for what the task waits for"


def guard_failure(t: TransitionDef, task: Task, ctx: FireContext) -> tuple[str, str] | None:
    """(the guard, why) of the first guard of `t` that fails now, or None when all pass."""
    return _check_guards(t, task, ctx)


def _check_guards(t: TransitionDef, task: Task, ctx: FireContext) -> tuple[str, str] | None:
    for name in t.guards:
        negate = name.startswith("!")
        fn = GUARDS[name.lstrip("!")]
        reason = fn(task, ctx)
        if negate:
            reason = None if reason is not None else f"{name.lstrip('!')} holds"
        if reason is not None:
            return name, reason
    return None


def _apply(t: TransitionDef, task: Task, ctx: FireContext) -> Task:
    new = task.model_copy(deep=True)
    for name in t.effects:
        EFFECTS[name](new, ctx)
    new.transition_log.append(
        LogEntry(
            from_state=task.state,
            to_state=t.dest,
            trigger=t.trigger,
            time=ctx.time,
            session=ctx.session,
            kind="transition",
            forced=ctx.forced,
            note=ctx.note,
        )
    )
    new.state = t.dest
    return new


def transition_to(workflow: Workflow, task: str, state: str, target: str) -> str:
    """The trigger that leads from `state` to `target`, or raise TransitionRejected."""
    for t in workflow.triggers_from(state):
        if t.dest == target:
            return t.trigger
    targets = (
        ", ".join(
            dict.fromkeys(
                f"{t.dest} (`taskproto transition {task} {t.dest}`)"
                for t in workflow.triggers_from(state)
            )
        )
        or "nothing (terminal state)"
    )
    if not workflow.has_state(target):
        reason = (
            f"{target} is not a state of workflow {workflow.name} (states: "
            f"{', '.join(workflow.state_names())})"
        )
    else:
        reason = (
            f"{state} -> {target} is not a transition of {workflow.name}; from {state} you "
            f"can go to: {targets}"
        )
    raise TransitionRejected(task, state, f"to {target}", reason)


def to_mermaid(workflow: Workflow) -> str:
    lines = ["stateDiagram-v2", f"    [*] --> {workflow.initial}"]
    for t in workflow.transitions:
        label = t.trigger + (f" [{', '.join(t.guards)}]" if t.guards else "")
        for src in t.source:
            lines.append(f"    {src} --> {t.dest}: {label}")
    for s in workflow.states:
        if s.terminal:
            lines.append(f"    {s.name} --> [*]")
    return "\n".join(lines) + "\n"


def describe(workflow: Workflow) -> dict[str, Any]:
    return workflow.model_dump(mode="json")

"""`taskproto recover TASK`: the recovery decision tree of the task protocol.

corruption?               -> doctor's repairs for this task (procedure 4; first, so the state can be
read) session interrupted       -> resume instructions for the current state (procedure 1) agents
not all COMPLETE   -> list them; re-queue the incomplete ones within their retry budget (procedure
2) build failed              -> BUILD_FAILURE_HOOKS (procedure 3; classification lives in
taskproto.classify.buildlog)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from taskproto.doctor.escalation import numbered, render
from taskproto.doctor.fixes import OFFERS, requeue
from taskproto.doctor.model import RELAUNCH, Finding, Option, Severity
from taskproto.doctor.runner import run
from taskproto.engine import Engine
from taskproto.errors import TaskprotoError
from taskproto.sessions import owner_gone
from taskproto.state.models import AgentState, Task, utcnow


@dataclass
class Step:
    procedure: str  # corruption | session | agents | build
    found: list[str] = field(default_factory=list)
    did: list[str] = field(default_factory=list)
    escalations: list[str] = field(default_factory=list)
    # (task, check) -> the options of an escalation of this step, for `recover --option N`
    options: dict[tuple[str, str, str, str], list[Option]] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "procedure": self.procedure,
            "found": self.found,
            "did": self.did,
            "escalations": self.escalations,
        }


@dataclass
class Recovery:
    task: str
    state: str | None
    steps: list[Step]

    @property
    def ok(self) -> bool:
        return not any(s.escalations for s in self.steps)

    def as_json(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "state": self.state,
            "ok": self.ok,
            "steps": [s.as_json() for s in self.steps],
        }


# Hook point for build failures (procedure 3): functions that look at the task and return a Step
# (classification, the recommended action, an escalation for an unknown failure), or None when no
# build failed. `recorded_build` (reading what `taskproto build run --task` recorded) is the
# default.
BuildFailureHook = Callable[[Engine, Task], Step | None]
BUILD_FAILURE_HOOKS: list[BuildFailureHook] = []  # recorded_build is appended below

# States in which agents are expected to be working, per workflow (others: every non-terminal
# state).
AGENT_STATES = {"task-protocol": {"REQUIREMENTS", "IMPLEMENTATION", "REVIEW"}}

BUILD_OPTIONS = (
    Option(
        "Read the saved build log, fix the cause by hand, then run the build again with "
        "`taskproto build run --task TASK -- COMMAND`",
        "a person sees what the classifier could not",
        "needs a person",
    ),
    Option(
        "Send the task back to IMPLEMENTATION with `taskproto rollback TASK --to IMPLEMENTATION` "
        "(the log stays next to the task)",
        "the agents retry with the evidence",
        "may fail the same way; a commit approval recorded since is revoked",
        command=("taskproto", "rollback", "TASK", "--to", "IMPLEMENTATION"),
    ),
)

RETRY_OPTIONS = (
    Option(
        "Investigate the agent's last error, fix the cause, reset it with "
        "`taskproto agent set TASK AGENT --status PENDING`",
        "keeps the plan",
        "needs a person",
    ),
    Option(
        "Do the agent's part by hand on its branch and mark it COMPLETE",
        "unblocks the task",
        "the agent's own checks are skipped",
    ),
    RELAUNCH,
)


def resume_text(engine: Engine, task: Task) -> list[str]:
    """What a session resuming this task should do now (taskproto.engine.resume), plus what doctor
    can add."""
    from taskproto.engine.resume import resume_instructions

    lines = resume_instructions(engine, task).splitlines()
    cp = task.checkpoint
    if engine.workflow(task).state(task.state).approval == "commit":
        head = engine.branch_head(task.name)
        if cp.commit_sha and head and cp.commit_sha != head:
            lines.append(
                f"Note: branch {task.name} has moved to {head[:12]} since commit "
                f"{cp.commit_sha[:12]} "
                "was presented; present the new head."
            )
    if task.interruptions:
        last = task.reached.get(task.state)  # when it entered the state it is in
        since = [i for i in task.interruptions if last is None or i.time >= last]
        if since:
            lines.append(
                f"{len(since)} interruption(s) since the last transition; the state stayed "
                f"{task.state} "
                "and is resumed only on an explicit resume."
            )
    if task.owner is not None:
        gone = owner_gone(
            task.owner, utcnow(), engine.config.lease_minutes, engine.config.task_dir(task.name)
        )
        lines.append(
            f"Owner {task.owner.session}: "
            + (
                f"gone ({gone}); claim it with `taskproto claim {task.name}`."
                if gone
                else "still live."
            )
        )
    return lines


def recorded_build(engine: Engine, task: Task) -> Step | None:
    """Procedure 3 from what `taskproto build run --task` recorded (classification is
    taskproto.classify.buildlog's)."""
    builds = task.context.get("builds") or []
    last = (
        builds[-1] if isinstance(builds, list) and builds and isinstance(builds[-1], dict) else None
    )
    if last is None or last.get("exit_code") in (0, None):
        return None
    argv = " ".join(str(a) for a in last.get("argv") or [])
    kind = last.get("kind") or "unknown"
    step = Step(
        "build",
        found=[
            f"last build `{argv}` failed (exit {last.get('exit_code')}): {kind}"
            + (f" ({last['ecosystem']})" if last.get("ecosystem") else "")
        ],
    )
    if kind == "unknown":
        log = last.get("log")
        finding = Finding(
            "build-failure-unknown",
            Severity.ERROR,
            f"build `{argv}` failed with an unknown error type"
            + (f"; its log is saved at {log}" if log else ""),
            task.name,
        )
        if log:
            step.found.append(f"log saved at {log}")
        step.escalations.append(
            render(
                engine.config,
                finding,
                task.state,
                ["classified by taskproto build"],
                f"the work on branch {task.name}",
                BUILD_OPTIONS,
                selector=" --check build-failure-unknown",
            )
        )
        step.options[finding.key()] = numbered(finding, BUILD_OPTIONS, engine.config)
    elif last.get("action"):
        step.found.append(f"recommended action: {last['action']}")
    return step


def _agents_step(engine: Engine, task: Task, dry_run: bool) -> Step | None:
    wf = engine.workflow(task)
    if not task.required_agents or wf.state(task.state).terminal:
        return None
    if task.state not in AGENT_STATES.get(task.workflow, set(wf.state_names())):
        return None
    step = Step("agents")
    cfg = engine.config
    timeout = timedelta(minutes=cfg.agent_timeout_minutes)
    complete = 0
    counts = agent_counts(engine, task)
    for agent in task.required_agents:
        try:
            status = engine.agent_status(task.name, agent)
        except TaskprotoError as exc:
            step.found.append(f"{agent}: corrupt status ({exc})")
            continue
        if status is None:
            step.found.append(
                f"{agent}: status.json missing (not invoked, or the invocation failed)"
            )
            continue
        age = utcnow() - status.updated_at
        label = status.status.value
        incomplete = status.status == AgentState.ERROR
        if status.status == AgentState.COMPLETE:
            complete += 1
        elif status.status == AgentState.WORKING:
            incomplete = age > timeout
            label = (
                f"TIMEOUT (WORKING for {int(age.total_seconds() // 60)} min)"
                if incomplete
                else f"WORKING ({int(age.total_seconds() // 60)} min)"
            )
        if status.status == AgentState.ERROR:
            label += f" - {status.error_message or 'no message'}"
        step.found.append(f"{agent}: {label} (retries {status.retry_count}/{cfg.max_retries})")
        if not incomplete:
            continue
        if status.retry_count >= cfg.max_retries:
            finding = Finding(
                "agent-retries-exhausted",
                Severity.ERROR,
                f"agent {agent} failed after {status.retry_count} retries",
                task.name,
                agent,
            )
            step.escalations.append(
                render(
                    cfg,
                    finding,
                    task.state,
                    [f"{status.retry_count} retries"],
                    f"the work on branch {task.name}-{agent}",
                    RETRY_OPTIONS,
                )
            )
        elif dry_run:
            step.did.append(
                f"would re-queue {agent} (retry {status.retry_count + 1} of {cfg.max_retries})"
            )
        else:
            step.did.append(requeue(engine, task.name, agent, "recover", kind="agent"))
    step.found.insert(0, counts.line())
    return step


@dataclass
class AgentCounts:
    """Procedure 2's tally of a task's agents."""

    total: int
    complete: list[str] = field(default_factory=list)
    error: list[str] = field(default_factory=list)
    timeout: list[str] = field(default_factory=list)  # WORKING for longer than the timeout
    missing: list[str] = field(default_factory=list)  # no (readable) status.json
    working: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (
            f"Summary: {len(self.complete)}/{self.total} complete, {len(self.error)} error(s), "
            f"{len(self.timeout)} timeout(s), {len(self.missing)} missing"
        )

    def as_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items()}


def agent_counts(engine: Engine, task: Task) -> AgentCounts:
    """Complete, error, timed out (WORKING, IN_PROGRESS read as WORKING, past the timeout),
    missing, working and pending agents, from their status files."""
    counts = AgentCounts(len(task.required_agents))
    limit = timedelta(minutes=engine.config.agent_timeout_minutes)
    now = utcnow()
    for agent in task.required_agents:
        try:
            status = engine.agent_status(task.name, agent)
        except TaskprotoError:
            status = None
        if status is None:
            counts.missing.append(agent)
        elif status.status == AgentState.COMPLETE:
            counts.complete.append(agent)
        elif status.status == AgentState.ERROR:
            counts.error.append(agent)
        elif status.status == AgentState.WORKING:
            (counts.timeout if now - status.updated_at > limit else counts.working).append(agent)
        else:
            counts.pending.append(agent)
    return counts


def recover(engine: Engine, name: str, dry_run: bool = False) -> Recovery:
    steps: list[Step] = []
    report = run(engine.config, [name], fix=not dry_run, dry_run=dry_run, actor=engine.actor)
    # info findings (a merge taskproto asked for, a task to review) are no corruption: they are
    # told with the session's resume instructions
    notes = [f"{f.check}: {f.message}" for f in report.initial if f.severity == Severity.INFO]
    corruption = Step(
        "corruption",
        [f"{f.check}: {f.message}" for f in report.initial if f.severity != Severity.INFO],
    )
    corruption.did = [
        f"{x.finding.check}: {x.action}" + (f" (failed: {x.error})" if x.error else "")
        for x in report.fixes
    ]
    corruption.escalations = list(report.escalations.values())
    if corruption.found:
        steps.append(corruption)
    try:
        task = engine.load(name)
    except TaskprotoError as exc:
        corruption.escalations.append(str(exc))
        if corruption not in steps:
            steps.append(corruption)
        return Recovery(name, None, steps)
    steps.append(Step("session", found=resume_text(engine, task) + notes))
    agents = _agents_step(engine, task, dry_run)
    if agents is not None:
        steps.append(agents)
    for hook in BUILD_FAILURE_HOOKS:
        build = hook(engine, task)
        if build is not None:
            steps.append(build)
    return Recovery(name, engine.load(name).state, steps)


BUILD_FAILURE_HOOKS.append(recorded_build)


def choose(
    engine: Engine, name: str, option: int, check: str | None = None, dry_run: bool = False
) -> str:
    """Carry out option `option` of the task's escalation (`recover TASK --option N`), when the
    option is a command taskproto can run safely; refuse otherwise, changing nothing."""
    import shlex

    report = run(engine.config, [name])
    offered = dict(report.options)
    for f in report.findings:  # a fix that cannot decide alone: its choices, worked out now
        if f.task == name and f.check in OFFERS and f.key() not in offered:
            choices = OFFERS[f.check](engine, f)
            if choices:
                offered[f.key()] = numbered(f, choices, engine.config)
    if not any(k[0] == name for k in offered) or check == "build-failure-unknown":
        # recover's own escalations (an unknown build failure), found without changing anything
        for step in recover(engine, name, dry_run=True).steps:
            offered.update(step.options)
    keys = [k for k in offered if k[0] == name and (check is None or k[1] == check)]
    if not keys:
        raise TaskprotoError(
            f"task {name} has no escalation"
            + (f" for check {check}" if check else "")
            + f" to choose from; run `taskproto doctor {name}` to see its findings"
        )
    if len(keys) > 1:
        raise TaskprotoError(
            f"task {name} has {len(keys)} escalations ({', '.join(k[1] for k in keys)}); name one "
            f"with `taskproto recover {name} --check ID --option {option}`"
        )
    options = offered[keys[0]]
    if not 1 <= option <= len(options):
        raise TaskprotoError(
            f"option {option} does not exist for {keys[0][1]} of task {name}: choose 1 to "
            f"{len(options)} (`taskproto doctor {name}` shows them)"
        )
    chosen = options[option - 1]
    if chosen.command is None:
        raise TaskprotoError(
            f"option {option} ({chosen.title}) is for a person to carry out; taskproto does not "
            "run it"
        )
    line = shlex.join(chosen.command)
    if dry_run:
        return f"would run: {line}"
    if chosen.command[0] == "git":
        engine.repo.run(*chosen.command[1:])
    else:
        import subprocess
        import sys

        proc = subprocess.run(
            [sys.executable, "-m", "taskproto", *chosen.command[1:]],
            cwd=engine.config.repo,
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            raise TaskprotoError(f"`{line}` failed: {proc.stderr.strip() or proc.stdout.strip()}")
    return f"ran: {line}"

"""`round run`: phone-a-team's rounds with real backend calls, through the engine.

One round: build the relay payload (caps checked first), call each backend that
is up this round (team mode: in parallel, one lane per backend; else one after
another), then in one locked, journaled change record every call and apply the
failure matrix to what really happened (429: skipped this round; timeout or
crash: failed this round; all down: the round is lost or the loop stops). If the
round goes on, the same change moves DO -> REVIEW with the answers' DO parts as
the round's output; then DECIDE fires with the rubric the lead gave in one more call over all the
answers (`team_lead.py`, as in the seed), converging, iterating or stopping.

Team mode is the seed's agent team: with two backends, `round run` tries to
create the session's team (a lock per session under `<root>/teams/`). One team
per session: when the session's team is busy with another loop, or a lane
cannot be started, the round runs sequentially instead and says why.

No backend call holds the task's lock (calls take minutes; hooks need it); a
per-task `round.lock` keeps a second `round run` of the same task out, and the
recording change refuses results of a round the task has left meanwhile.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from taskproto.engine import Engine, Step
from taskproto.errors import TaskprotoError
from taskproto.machine.builtin.phone_a_team import NAME, backends_down
from taskproto.ops import backends, team_answer, team_call, team_lead
from taskproto.ops import phone_a_team as team
from taskproto.state.models import Task, utcnow


@dataclass
class Round:
    """What one `round run` round did, for the CLI to print."""

    round: int
    mode: str  # team | sequential | single
    mode_note: str | None
    calls: list[team_call.Call]
    answers: dict[str, dict[str, Any]]
    messages: list[str] = field(default_factory=list)
    rubric: dict[str, str] | None = None
    note: str | None = None
    task: Task | None = None
    lead: dict[str, Any] | None = None  # the lead's review (team_lead.py), when it decided


def _check(task: Task, name: str) -> None:
    if task.workflow != NAME:
        raise TaskprotoError(f"task {name!r} is a {task.workflow} task, not {NAME}")
    if not (task.description or "").strip():
        raise TaskprotoError(
            f"task {name!r} has no description, so there is nothing to ask the backends: "
            f"run `taskproto round run {name}` in a terminal to be asked, "
            "or pass --description TEXT"
        )


def set_description(
    engine: Engine, name: str, text: str, session: str | None = None, force: bool = False
) -> Task:
    """Give a phone-a-team task without a description the one the user typed (journaled)."""
    text = " ".join(text.split())
    if not text:
        raise TaskprotoError(
            "the task description cannot be empty: the loop does not start without one"
        )

    def change(task: Task) -> tuple[Task, str] | None:
        if task.workflow != NAME:
            raise TaskprotoError(f"task {name!r} is a {task.workflow} task, not {NAME}")
        if (task.description or "").strip():
            if task.description.strip() == text:
                return None
            raise TaskprotoError(
                f"task {name!r} already has a description; --description only fills an empty one"
            )
        engine.check_mover(task, session, force, "describe it")
        new = task.model_copy(deep=True)
        new.description = text
        new.record(
            trigger="describe",
            time=utcnow(),
            session=session,
            kind="note",
            note=f"description given by the user: {text[:200]}",
        )
        return new, "describe: the user gave the task description"

    result = engine.mutate(name, change)
    return result


def settings(engine: Engine, timeout: float | None, write: bool) -> team_call.Settings:
    raw = engine.config.raw
    s = team_call.settings_from(raw, backends.ollama_url(raw))
    over: dict[str, Any] = {"sandbox": "workspace-write" if write else "read-only"}
    if timeout is not None:
        if timeout <= 0:
            raise TaskprotoError(f"--timeout must be a positive number of seconds, not {timeout:g}")
        over["timeout"] = timeout
    from dataclasses import replace

    return replace(s, **over)


# --- team mode ------------------------------------------------------------------------


class _Team:
    """The session's team: a lock held while a round runs its lanes in parallel."""

    def __init__(self, engine: Engine, session: str | None) -> None:
        key = session or f"pid-{os.getpid()}"
        folder = engine.config.root / "teams"
        self.path = folder / (hashlib.sha256(key.encode()).hexdigest()[:16] + ".lock")
        self.who = f"session {session}" if session else "this process"
        self.lock = FileLock(str(self.path), thread_local=False)

    def create(self) -> str | None:
        """Take the team; None on success, else why team mode is not available."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.lock.acquire(timeout=0)
        except Timeout:
            return f"{self.who} already has a team running (one team per session)"
        except OSError as exc:
            return f"the team could not be created ({exc.strerror or exc})"
        return None

    def release(self) -> None:
        if self.lock.is_locked:
            self.lock.release()


def _call_all(
    lanes: list[str],
    payload: str,
    cwd: Path,
    cfg: team_call.Settings,
    parallel: bool,
) -> tuple[list[team_call.Call], str | None]:
    """Call each lane, in parallel when asked; the calls (lane order) and a fallback note."""
    results: dict[str, team_call.Call] = {}

    def lane(backend: str) -> None:
        results[backend] = team_call.call(backend, payload, cwd, cfg, cfg.timeout)

    fallback = None
    if parallel:
        threads = []
        try:
            for backend in lanes:
                t = threading.Thread(target=lane, args=(backend,), name=f"lane-{backend}")
                t.start()
                threads.append(t)
        except RuntimeError as exc:  # no thread could be started: the team could not be made
            fallback = f"a lane could not be started ({exc}); the rest ran sequentially"
        for t in threads:
            t.join()
    for backend in lanes:
        if backend not in results:
            lane(backend)
    return [results[b] for b in lanes], fallback


# --- recording ------------------------------------------------------------------------


def _combined_output(answers: dict[str, dict[str, Any]]) -> str:
    if len(answers) == 1:
        return str(next(iter(answers.values()))["do"])
    return "\n\n".join(f"## {b}\n{a['do']}" for b, a in answers.items())


def _record(
    engine: Engine,
    name: str,
    number: int,
    rnd: Round,
    sandbox: str,
    session: str | None,
    force: bool,
) -> Task:
    """One change: the calls, the failure matrix, and DO -> REVIEW when the round goes on."""

    def step(s: Step) -> tuple[Task, str]:
        task = s.task
        if task.workflow != NAME:
            raise TaskprotoError(f"task {name!r} is a {task.workflow} task, not {NAME}")
        if task.state != "DO" or task.counters.round != number:
            raise TaskprotoError(
                f"task {name!r} moved on while the backends ran (now {task.state}, round "
                f"{task.counters.round}); the answers of round {number} were not recorded"
            )
        new = task.model_copy(deep=True)
        rs = new.context.setdefault("round_state", {"skipped": [], "failed": {}})
        rs.update(mode=rnd.mode, sandbox=sandbox)
        records = rs.setdefault("calls", {})
        for call in rnd.calls:
            records[call.backend] = call.record()
            if call.backend in rnd.answers:
                records[call.backend].update(rnd.answers[call.backend])
        answered = ", ".join(f"{b} ({a['format']})" for b, a in rnd.answers.items()) or "none"
        new.record(
            trigger="round_calls",
            time=utcnow(),
            session=session,
            kind="note",
            note=f"round {number} ({rnd.mode}): answered {answered}",
        )
        for call in rnd.calls:
            if call.outcome == "answered":
                continue
            new, _, message = team.apply_failure(s, new, call.backend, call.outcome)
            rnd.messages.append(message)
        if new.state == "DO" and new.counters.round == number and rnd.answers:
            new = s.fire(new, "review", {"output": _combined_output(rnd.answers)})
        return new, f"round {number}: {rnd.mode}, answered {answered} -> {new.state}"

    return engine.advance(name, step, session, force, "record its round")


def _recorded_answers(task: Task) -> dict[str, dict[str, Any]]:
    calls = (task.context.get("round_state") or {}).get("calls") or {}
    return {b: c for b, c in calls.items() if c.get("outcome") == "answered"}


def _decide(
    engine: Engine,
    name: str,
    rnd: Round,
    session: str | None,
    force: bool,
    cfg: team_call.Settings,
) -> Task:
    """DECIDE with the rubric the lead gave over all the round's answers (team_lead.py)."""
    task = engine.load(name)
    text = team_lead.payload(name, task.description or "", rnd.round, rnd.answers)
    worktree = engine.config.task_worktree(name)
    cwd = worktree if worktree.is_dir() else engine.config.repo

    def call(backend: str, payload: str) -> str | None:
        done = team_call.call(backend, payload, cwd, cfg, cfg.timeout)
        return done.text if done.outcome == "answered" else None

    rubric, note, lead = team_lead.review(rnd.answers, text, call)
    rnd.rubric, rnd.note, rnd.lead = rubric, note, lead
    return team.decide(engine, name, rubric, note, session, force)


# --- the loop ---------------------------------------------------------------------------


def run(
    engine: Engine,
    name: str,
    session: str | None = None,
    force: bool = False,
    once: bool = False,
    decide: bool = True,
    timeout: float | None = None,
    sequential: bool = False,
    write: bool = False,
    on_round: Callable[[Round], None] | None = None,
) -> list[Round]:
    """Run rounds until SYNTHESIS (or one with `once`); each round is reported to `on_round`."""
    task = engine.load(name)
    _check(task, name)
    if task.state == "SYNTHESIS":
        raise TaskprotoError(
            f"task {name!r} is in SYNTHESIS: the loop has ended ({task.context.get('outcome')})"
        )
    engine.check_mover(task, session, force, "run its rounds")
    cfg = settings(engine, timeout, write)
    guard = FileLock(str(engine.config.task_dir(name) / "round.lock"), thread_local=False)
    try:
        guard.acquire(timeout=0)
    except Timeout:
        raise TaskprotoError(
            f"a round of {name!r} is already running in another process; wait for it to finish"
        ) from None
    done: list[Round] = []
    try:
        while True:
            task = engine.load(name)
            if task.state == "SYNTHESIS":
                break
            rnd = _one_round(engine, name, task, cfg, session, force, decide, sequential)
            done.append(rnd)
            if on_round is not None:
                on_round(rnd)
            if once or not decide or rnd.task is None or rnd.task.state != "DO":
                break
    finally:
        guard.release()
    return done


def _one_round(
    engine: Engine,
    name: str,
    task: Task,
    cfg: team_call.Settings,
    session: str | None,
    force: bool,
    decide: bool,
    sequential: bool,
) -> Round:
    number = task.counters.round
    if task.state == "REVIEW":
        answers = _recorded_answers(task)
        if not answers:
            raise TaskprotoError(
                f"task {name!r} is in REVIEW without recorded answers (a manual round): "
                f"decide it with `taskproto round decide {name} --rubric ...`"
            )
        rnd = Round(
            number, (task.context.get("round_state") or {}).get("mode", "?"), None, [], answers
        )
        rnd.messages.append("decided from the answers recorded earlier")
        rnd.task = _decide(engine, name, rnd, session, force, cfg) if decide else task
        return rnd
    if task.state != "DO":
        raise TaskprotoError(
            f"task {name!r} is in {task.state}; `round run` starts a round in DO "
            f"(decide this one with `taskproto round decide {name}`)"
        )
    payload = team.build_relay(engine, name).text
    lanes = [b for b in task.context.get("backends") or [] if b not in backends_down(task)]
    worktree = engine.config.task_worktree(name)
    cwd = worktree if worktree.is_dir() else engine.config.repo
    mode, note, parallel = "single", None, False
    crew: _Team | None = None
    if len(lanes) > 1:
        if sequential:
            mode, note = "sequential", "--sequential"
        else:
            crew = _Team(engine, session)
            why = crew.create()
            if why is None:
                mode, parallel = "team", True
            else:
                mode, note, crew = "sequential", why, None
    try:
        calls, fallback = _call_all(lanes, payload, cwd, cfg, parallel)
    finally:
        if crew is not None:
            crew.release()
    if fallback:
        mode, note = "sequential", fallback
    answers = {
        c.backend: {**team_answer.parse(c.text), "sandbox": cfg.sandbox}
        for c in calls
        if c.outcome == "answered"
    }
    rnd = Round(number, mode, note, calls, answers)
    rnd.task = _record(engine, name, number, rnd, cfg.sandbox, session, force)
    if decide and rnd.task.state == "REVIEW":
        rnd.task = _decide(engine, name, rnd, session, force, cfg)
    elif not decide and rnd.task.state == "REVIEW":
        rnd.rubric, rnd.note = team_answer.combine(answers)
    return rnd


def escalations(task: Task) -> list[int]:
    """Rounds whose backends ran with write access (disclosed in the synthesis)."""
    rounds = list(task.context.get("rounds") or [])
    current = task.context.get("round_state") or {}
    out = [r["round"] for r in rounds if r.get("sandbox") == "workspace-write"]
    if current.get("sandbox") == "workspace-write" and task.counters.round not in out:
        out.append(task.counters.round)
    return out

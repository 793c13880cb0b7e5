"""The agent-client events that read or write through the engine: session start, prompts,
heartbeats, end.

Loaded only when a hook has something to record; the tool-call path never
imports this module.
"""

from __future__ import annotations

import os
from typing import Any

from taskproto.clients import protocols
from taskproto.engine import Engine
from taskproto.engine.claims import register
from taskproto.errors import TaskprotoError
from taskproto.hooks.agents import quiet
from taskproto.hooks.agents.common import Call, Payload, governing, heartbeat_due, own_task
from taskproto.hooks.agents.offer import claim_hint, offer, offer_lines, write_env_file
from taskproto.hooks.flags import warm
from taskproto.hooks.slowpath import engine_for
from taskproto.layout import Layout
from taskproto.sessions import hostname, pid_alive
from taskproto.state import beat
from taskproto.state.light import TaskView, owned_task
from taskproto.state.models import Task, utcnow


class Hook(Call):
    """A lifecycle call answered through the engine (opened on first use)."""

    _engine: Engine | None = None

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            self._engine = engine_for(self.layout)
        return self._engine

    def answer(self, text: str = "") -> tuple[int, str, str]:
        if self._engine is not None:
            self.warnings += self._engine.warnings
        err = "".join(f"taskproto: warning: {w}\n" for w in self.warnings)
        return 0, protocols.context(self.client, self.event, text), err


def handle(
    client: str,
    event: str,
    what: str,
    payload: Payload,
    layout: Layout | None,
    cwd: str,
    env: dict[str, str],
    pid: int | None,
) -> tuple[int, str, str]:
    if layout is None:
        hook = Hook(client, event, payload, Layout("/", "/"), cwd, env, pid)
        if what == "session_start":
            _write_env_file(hook)
        return hook.answer()
    hook = Hook(client, event, payload, layout, cwd, env, pid)
    try:
        if what == "session_start":
            return hook.answer(session_start(hook))
        if what == "prompt":
            return hook.answer(prompt(hook))
        heartbeat(hook, end=what == "end")
    except TaskprotoError as exc:
        hook.warnings.append(f"{exc}")
        if what == "session_start":
            return hook.answer(
                f"taskproto: could not read the tasks ({exc}). Run `taskproto doctor`."
            )
    return hook.answer()


# --- SessionStart --------------------------------------------------------------


def _write_env_file(hook: Hook) -> None:
    warning = write_env_file(hook.env, hook.session, hook.pid)
    if warning:
        hook.warnings.append(warning)


def inherit_on_clear(hook: Hook) -> list[str]:
    """/clear starts a new session in the same client process: it takes over that process's claims.

    The one safe handover: same host, same live client pid, so the old session
    cannot still be running anywhere. Logged as a takeover.
    """
    if not hook.pid or not hook.session or not pid_alive(hook.pid):
        return []
    needle = f'"pid": {hook.pid}'.encode()
    moved: list[str] = []
    for name in hook.layout.task_names():
        try:
            with open(hook.layout.task_file(name), "rb") as fh:
                if needle not in fh.read():
                    continue
        except OSError:
            continue

        def change(task: Task) -> tuple[Task, str] | None:
            old = task.owner
            if (
                old is None
                or old.pid != hook.pid
                or old.host != hostname()
                or old.session == hook.session
            ):
                return None
            now = utcnow()
            new = task.model_copy(deep=True)
            new.owner = old.model_copy(update={"session": hook.session, "heartbeat_at": now})
            new.record(
                trigger="clear_handover",
                time=now,
                session=hook.session,
                kind="takeover",
                note=f"from {old.session}: new session after /clear in the same client process "
                f"{hook.pid}",
            )
            moved.append(f"{name} (from session {old.session})")  # noqa: B023 - called at once
            return new, f"handover: {old.session} -> {hook.session} (clear, pid {hook.pid})"

        task = hook.engine.mutate(name, change)
        if task.owner is not None and task.owner.session == hook.session:
            register(hook.engine, task)
    return moved


def session_start(hook: Hook) -> str:
    _write_env_file(hook)
    lines: list[str] = []
    if hook.payload.source == "clear":
        moved = inherit_on_clear(hook)
        if moved:
            lines.append(
                "taskproto: this new session (after /clear) took over the claim of "
                f"{', '.join(moved)}."
            )
    if not os.path.isdir(hook.layout.tasks):
        return "\n".join(lines)
    engine = hook.engine
    mine = own_task(hook.layout, hook.session, hook.cwd)
    if mine is not None and mine.error is None:
        engine.claim(
            mine.name, hook.session, hook.pid
        )  # renews the heartbeat, records the client pid
        task = engine.load(mine.name)
        from taskproto.engine.resume import resume_instructions

        lines.append(
            f"taskproto: this session ({hook.session}) owns task {task.name}, in state "
            f"{task.state}."
        )
        lines.append(resume_instructions(engine, task))
        return "\n".join(lines)
    if mine is not None:
        lines.append(
            f"taskproto: task {mine.name} names this session but cannot be read ({mine.error}); "
            "run `taskproto doctor` before working on it."
        )
    lines += _offer(hook, engine)
    return "\n".join(lines)


def _offer(hook: Hook, engine: Engine) -> list[str]:
    """offer.offer on the tasks as the engine reads them (and refuses them)."""
    from taskproto.engine.deps import Resolver, load_all

    made = quiet.started(hook.layout)  # before any task file is read
    loaded, broken = load_all(engine)  # the journals checked with one git process
    tasks: list[tuple[str, dict[str, Any] | str]] = [
        (name, loaded[name].model_dump(mode="json") if name in loaded else broken[name])
        for name in sorted({*loaded, *broken})  # as the tasks' folder lists them
    ]
    resolver = Resolver(engine, loaded, broken)  # every task here read once, above
    found = offer(
        hook.layout,
        tasks,
        lambda data: engine.workflow(loaded[data["name"]]).state_table(),
        lambda name, _data: [w.to_dict() for w in resolver.waits_for(loaded[name])],
        engine.config.lease_minutes,
    )
    # the next SessionStart is answered in `sh` (offer_cache.py), or on the standard library
    if made:
        found.leave(hook.layout, hook.client, [n for n, _ in tasks], made)
    warm(hook.layout, {task.workflow for task in loaded.values()})
    hint = claim_hint(hook.env, hook.session, hook.pid)
    return offer_lines(found, hook.layout, hook.cwd, hint, hook.session)


# --- UserPromptSubmit / BeforeAgent ----------------------------------------------


def prompt(hook: Hook) -> str:
    task, _agent = governing(hook.layout, hook.session, hook.cwd)
    if task is None:
        return ""
    if task.error is not None:
        return (
            f"taskproto: the state of task {task.name} cannot be read ({task.error}); "
            "run `taskproto doctor` before going on."
        )
    text = hook.payload.prompt
    if not text.strip():
        return ""
    if _launch_prompt(hook, text):
        # the prompt `taskproto agent start` gave the client it started (run.json's, set by
        # taskproto in the client's environment, or by the agent's channel): the user's
        # assignment, not an interruption that would pause the work it asks for
        heartbeat(hook, end=False, task=task)
        return ""
    if task.paused is not None and hook.env.get("TASKPROTO_CHANNEL_OF"):
        # through an agent's sandbox channel (sandbox/serve.py): the agent can run its client's
        # hook with any prompt, so a pause is lifted only from outside (docs/sandbox.md)
        hook.warnings.append(
            f"a prompt inside the agent's sandbox does not resume task {task.name}: it waits for "
            f"the user (`taskproto resume {task.name}`, the board or `taskproto agent say`)"
        )
        return ""
    if task.paused is not None:  # only the user's prompt may resume it: is this one theirs?
        from taskproto.hooks.agents.prompt_origin import forged

        why = forged(hook.layout, task, hook.session, hook.payload.before)
        if why is not None:
            hook.warnings.append(
                f"this prompt is not taken as the user's ({why}): nothing recorded, and task "
                f"{task.name} still waits for the user"
            )
            return ""
    from taskproto.ops.interrupts import context_message, record

    rec = record(hook.engine, task.name, text, hook.session or None)
    heartbeat(hook, end=False, task=task)
    return context_message(rec)


def _launch_prompt(hook: Hook, text: str) -> bool:
    """Whether `text` is the prompt taskproto started this agent's client with. Nothing is gained
    by forging it: a prompt taken so is not recorded, and so resumes nothing."""
    given = hook.env.get("TASKPROTO_PROMPT", "")
    return (
        bool(given.strip())
        and bool(hook.env.get("TASKPROTO_AGENT_NAME"))
        and (text.strip() == given.strip())
    )


# --- Stop, PreCompact, SessionEnd --------------------------------------------------


def _due(hook: Hook, task: TaskView) -> bool:
    """Whether this session's heartbeat should be written now (at most once a minute)."""
    return heartbeat_due(hook.layout, hook.session, task)  # the runner's stdlib path asks the same


def heartbeat(hook: Hook, end: bool, task: TaskView | None = None) -> None:
    """Renew this session's claim (throttled); at SessionEnd also log the end and keep the claim."""
    mine = (
        task
        if task is not None and task.owner_session == hook.session
        else owned_task(hook.layout, hook.session)
    )
    if mine is None or mine.error is not None:
        return
    if end:
        reason = hook.payload.text("reason") or "unknown"

        def change(t: Task) -> tuple[Task, str] | None:
            if t.owner is None or t.owner.session != hook.session:
                return None
            new = t.model_copy(deep=True)
            now = utcnow()
            assert new.owner is not None
            new.owner.heartbeat_at = now
            new.record(
                trigger="session_end",
                time=now,
                session=hook.session,
                kind="note",
                note=f"session ended ({reason}); the claim is kept so the session can resume",
            )
            return new, f"session end: {hook.session}"

        hook.engine.mutate(mine.name, change)
        return
    owner_pid = (mine.owner or {}).get("pid")
    if hook.pid and hook.pid != owner_pid:
        hook.engine.claim(mine.name, hook.session, hook.pid)  # records the client's pid (journaled)
    elif _due(hook, mine):
        if hook.engine.remote is not None:  # the remote's claim is the one that counts
            from taskproto.engine.claims import OwnerGone

            try:
                hook.engine.heartbeat(mine.name, hook.session)  # pushed at most once a tenth lease
            except OwnerGone:
                pass  # its process is gone: left to expire, doctor names it
        else:
            now = utcnow().isoformat()
            beat.write(hook.layout.task_dir(mine.name), hook.session, owner_pid, now)

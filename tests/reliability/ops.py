"""The operations the reliability suites drive, as data, and the hook entry points to fuzz.

The crash harness and the contention workers pick from OPERATIONS; the fuzz suite
iterates over HOOK_ENTRY_POINTS. Adding a new write path (a doctor repair, a hook
that records something) to the suites is one entry here:

- an `Op` with `ready(snap)` (may it run now?), `run(engine, task, session)` and
  `expect(before, after)` (does `after` show exactly this one change applied?);
- a `HookEntry` with the argv that runs the hook and the answer it must give on
  malformed stdin.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taskproto.config import Config, load_config
from taskproto.engine import Engine
from taskproto.errors import TaskprotoError
from taskproto.git.command import Git
from taskproto.git.repo import Repo
from taskproto.ops import interrupts as interrupt
from taskproto.state import beat, journal, store
from taskproto.state.models import AgentState, Task

SESSION = "crash-session"
AGENT = "a1"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Reliability",
    "GIT_AUTHOR_EMAIL": "reliability@example.invalid",
    "GIT_COMMITTER_NAME": "Reliability",
    "GIT_COMMITTER_EMAIL": "reliability@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}


# --- snapshots: what a change may touch --------------------------------------

Snap = dict[str, Any]  # {"task": Task.significant(), "revision": int, "status": {agent: {...}}}


def status_view(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "updated_at"}


def snapshot(config: Config, name: str) -> Snap:
    """Validated state on disk; raises if task.json or a status file does not parse."""
    task = store.load_task(config.task_file(name))
    status = {}
    for agent in task.required_agents:
        loaded = store.load_status(config.status_file(name, agent))
        status[agent] = status_view(loaded.model_dump(mode="json"))
    return {"task": task.significant(), "revision": task.revision, "status": status}


def journal_snapshot(config: Config, name: str) -> Snap | None:
    """The same view, read from the journal's newest commit."""
    git = Git(config.repo)
    head = journal.head(git, name)
    if head is None:
        return None
    repo = Repo(config.repo)
    data = journal.read_file(repo, head)
    assert data is not None, f"journal commit {head} has no task.json"
    task = Task.model_validate_json(data)
    status = {}
    for agent in task.required_agents:
        raw = journal.read_file(repo, head, journal.status_entry(agent))
        if raw is not None:
            from taskproto.state.models import AgentStatus

            status[agent] = status_view(
                AgentStatus.model_validate_json(raw).model_dump(mode="json")
            )
    return {"task": task.significant(), "revision": task.revision, "status": status}


def same_state(a: Snap, b: Snap) -> bool:
    return a["task"] == b["task"] and a["status"] == b["status"]


# --- operations ----------------------------------------------------------------


def _owner(snap: Snap) -> str | None:
    owner = snap["task"].get("owner")
    return owner["session"] if owner else None


def _count(task: dict[str, Any], key: str) -> int:
    """How many items list `key` has had: task.json holds its tail (state/bound.py)."""
    held = len(task[key])
    if key == "transition_log":
        return max(int(task.get("log_count") or 0), held)
    return max(sum((task.get("interruption_counts") or {}).values()), held)


def _grew(before: Snap, after: Snap, key: str, by: int) -> str | None:
    """List `key` grew by `by` (counted whole) and kept, of what it held, all its tail keeps."""
    old, new = before["task"][key], after["task"][key]
    was, now = _count(before["task"], key), _count(after["task"], key)
    kept = new[: len(new) - by] if by else new
    if now != was + by or kept != old[len(old) - len(kept) :]:
        return f"{key} should grow by {by} and keep its prefix ({was} -> {now})"
    return None


def _one_change(
    before: Snap, after: Snap, *, log: int = 0, interruptions: int = 0, saves_task: bool = True
) -> str | None:
    """The parts every single change obeys: revision +1 (or unchanged), logs append-only."""
    want_rev = before["revision"] + (1 if saves_task else 0)
    if after["revision"] != want_rev:
        return f"revision {after['revision']}, expected {want_rev}"
    return _grew(before, after, "transition_log", log) or _grew(
        before, after, "interruptions", interruptions
    )


@dataclass(frozen=True)
class Op:
    name: str
    ready: Callable[[Snap], bool]
    run: Callable[[Engine, str, str], object]
    expect: Callable[[Snap, Snap], str | None]
    journaled: bool = True  # whether the change makes a journal commit
    kinds: tuple[str, ...] = field(default=())  # transition_log kinds it appends (for counts)


def _expect_claim(b: Snap, a: Snap) -> str | None:
    return _one_change(b, a, log=1) or (None if _owner(a) == SESSION else "owner not set")


def _expect_release(b: Snap, a: Snap) -> str | None:
    return _one_change(b, a, log=1) or (None if _owner(a) is None else "owner still set")


def _expect_heartbeat(b: Snap, a: Snap) -> str | None:
    return _one_change(b, a, saves_task=False) or (
        None if a["task"] == b["task"] else "heartbeat changed a significant field"
    )


def _expect_record(b: Snap, a: Snap) -> str | None:
    return _one_change(b, a, interruptions=1) or (
        None if a["task"]["state"] == b["task"]["state"] else "an interruption moved the state"
    )


def _expect_fire(dest: str) -> Callable[[Snap, Snap], str | None]:
    def check(b: Snap, a: Snap) -> str | None:
        return _one_change(b, a, log=1) or (
            None if a["task"]["state"] == dest else f"state is not {dest}"
        )

    return check


def _expect_status(value: str) -> Callable[[Snap, Snap], str | None]:
    def check(b: Snap, a: Snap) -> str | None:
        if a["task"] != b["task"]:
            return "an agent status update changed task.json"
        return _one_change(b, a, saves_task=False) or (
            None if a["status"][AGENT]["status"] == value else f"status is not {value}"
        )

    return check


def _agent_status(snap: Snap) -> str | None:
    return snap["status"].get(AGENT, {}).get("status")


OPERATIONS: list[Op] = [
    Op(
        "claim",
        lambda s: _owner(s) is None,
        lambda e, t, s: e.claim(t, s),
        _expect_claim,
        kinds=("claim",),
    ),
    Op(
        "heartbeat",
        lambda s: _owner(s) == SESSION,
        lambda e, t, s: e.heartbeat(t, s),
        _expect_heartbeat,
        journaled=False,
    ),
    Op(
        "release",
        lambda s: _owner(s) == SESSION,
        lambda e, t, s: e.release(t, s),
        _expect_release,
        kinds=("release",),
    ),
    Op(
        "interrupt-record",
        lambda s: True,
        lambda e, t, s: interrupt.record(e, t, "what is the status of the tests?", s),
        _expect_record,
    ),
    Op(
        "agent-working",
        lambda s: AGENT in s["status"],
        lambda e, t, s: e.set_agent_status(t, AGENT, AgentState.WORKING, session=s),
        _expect_status("WORKING"),
    ),
    Op(
        "agent-complete",
        lambda s: AGENT in s["status"],
        lambda e, t, s: e.set_agent_status(t, AGENT, AgentState.COMPLETE, session=s),
        _expect_status("COMPLETE"),
    ),
    Op(
        "fire-validate",
        lambda s: (
            s["task"]["state"] == "IMPLEMENTATION"
            and _agent_status(s) in (None, "COMPLETE")
            and _owner(s) in (None, SESSION)
        ),
        lambda e, t, s: e.fire(t, "validate", session=s),
        _expect_fire("VALIDATION"),
        kinds=("transition",),
    ),
    Op(
        "fire-validation-failed",
        lambda s: s["task"]["state"] == "VALIDATION" and _owner(s) in (None, SESSION),
        lambda e, t, s: e.fire(t, "validation_failed", session=s),
        _expect_fire("IMPLEMENTATION"),
        kinds=("transition",),
    ),
]
# TODO(doctor): add Op("doctor-fix", ...) once `taskproto doctor --fix` is on main, so that a kill
# in the middle of a repair is checked the same way (expect: the repaired or the unrepaired state).

OPS_BY_NAME = {op.name: op for op in OPERATIONS}


# --- hook entry points (for stdin fuzzing) --------------------------------------


@dataclass(frozen=True)
class HookEntry:
    """A hook as it is run: argv (after `python -m taskproto`, or after the installed entry script
    when `script` is set, the way `taskproto init` installs it), and what malformed input must give.
    """

    name: str
    argv: tuple[str, ...]
    allowed_exit_codes: frozenset[int] = frozenset({0})
    env: dict[str, str] = field(default_factory=dict)
    script: Path | None = None
    run_by_sh: bool = False  # `script` is hook.sh, run as argv by /bin/sh (no shell string)

    def command(self, python: str) -> list[str]:
        if self.script is not None and self.run_by_sh:
            return ["/bin/sh", str(self.script), python, *self.argv]
        if self.script is not None:
            return [python, "-I", "-S", str(self.script), *self.argv]
        return [python, "-m", "taskproto", *self.argv]


def _hook_entries() -> list[HookEntry]:
    from taskproto.clients.settings import ENTRY as AGENT_ENTRY
    from taskproto.clients.settings import SCRIPT as AGENT_SCRIPT
    from taskproto.hooks.git.install import ENTRY as GIT_ENTRY

    # Malformed input must never block the user: every one of these answers 0 on a
    # repository whose own state is sound, whatever bytes arrive on stdin; but a tool call's
    # hook, which then cannot tell what the agent would run, denies it.
    entries = [
        HookEntry("git-pre-push", ("hook", "pre-push", "origin", "file:///nowhere")),
        HookEntry("git-post-rewrite", ("hook", "post-rewrite", "amend")),
        HookEntry(
            "git-pre-push-installed", ("pre-push", "origin", "file:///nowhere"), script=GIT_ENTRY
        ),
        HookEntry("git-post-rewrite-installed", ("post-rewrite", "rebase"), script=GIT_ENTRY),
    ]
    events = {
        "claude": (
            "SessionStart",
            "UserPromptSubmit",
            "PreToolUse",
            "Stop",
            "PreCompact",
            "SessionEnd",
        ),
        "codex": ("SessionStart", "UserPromptSubmit", "PreToolUse", "Stop"),
        "gemini": ("SessionStart", "BeforeAgent", "BeforeTool", "AfterAgent", "SessionEnd"),
    }
    # a tool call the guard cannot judge is denied (exit 2, one line: issue #39): a defined answer
    judged = frozenset({0, 2})
    for client, names in events.items():
        for event in names:
            codes = judged if event == names[2] else frozenset({0})
            entries.append(HookEntry(f"{client}-{event}", ("hook", client, event), codes))
        entries.append(
            HookEntry(
                f"{client}-{names[2]}-installed", (client, names[2]), judged, script=AGENT_ENTRY
            )
        )
        for event in (names[1], names[3]):  # a prompt and a turn's end, as installed: hook.sh
            entries.append(
                HookEntry(
                    f"{client}-{event}-installed-sh",
                    (client, event),
                    script=AGENT_SCRIPT,
                    run_by_sh=True,
                )
            )
    return entries


# tests/reliability/test_fuzz.py feeds each one arbitrary bytes on stdin.
HOOK_ENTRY_POINTS: list[HookEntry] = _hook_entries()


# --- setup ------------------------------------------------------------------------


def git_env() -> dict[str, str]:
    return {**os.environ, **GIT_ENV}


def make_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    env = git_env()
    for args in (
        ["init", "--quiet", "--initial-branch=main"],
        ["config", "commit.gpgsign", "false"],
        ["commit", "--quiet", "--allow-empty", "-m", "initial"],
    ):
        subprocess.run(["git", *args], cwd=path, env=env, check=True, capture_output=True)
    return path


def prepare_task(engine: Engine, name: str, agents: tuple[str, ...] = (AGENT,)) -> Task:
    """A task in IMPLEMENTATION with its plan approved and its agents COMPLETE (every op can
    run)."""
    engine.create_task(name, agents=list(agents))
    for target in ("CLASSIFIED", "REQUIREMENTS", "SYNTHESIS"):
        engine.fire(name, target=target)
    engine.approve(name, "plan", "user")
    for agent in agents:
        engine.set_agent_status(name, agent, AgentState.COMPLETE)
    return engine.fire(name, target="IMPLEMENTATION")


def engine_for(repo: Path) -> Engine:
    return Engine(load_config(repo))


def journal_chain(config: Config, name: str) -> list[tuple[str, list[str]]]:
    """(sha, parents) of every journal commit, newest first (one git call)."""
    out = Git(config.repo).run("rev-list", "--parents", journal.ref_for(name))
    chain = []
    for line in out.splitlines():
        sha, *parents = line.split()
        chain.append((sha, parents))
    return chain


def leftovers(config: Config, name: str) -> dict[str, list[str]]:
    """Files a crash can leave: our temp files, git's ref locks and temporary objects."""
    task_dir = config.task_dir(name)
    ours = sorted(
        str(p.relative_to(task_dir))
        for p in task_dir.rglob(f"{store.TMP_PREFIX}*")
        if "code" not in p.relative_to(task_dir).parts
    )
    git_dir = Git(config.repo).common_dir()
    ref_locks = sorted(
        str(p.relative_to(git_dir)) for p in (git_dir / "refs" / "taskproto").rglob("*.lock")
    )
    objects = sorted(str(p.relative_to(git_dir)) for p in (git_dir / "objects").rglob("tmp_*"))
    return {"tmp": ours, "ref_locks": ref_locks, "git_tmp_objects": objects}


def _set_aside_by_doctor(name: str) -> bool:
    from taskproto.doctor.fixes_journal import RESTORES

    kept = (*RESTORES, "agent-status-not-journaled", "state-log-mismatch", "journal-missing")
    return any(f".{check}-" in name for check in kept)


def other_files(config: Config, name: str) -> list[str]:
    """Anything in the task folder (outside the worktrees) that is not ours to expect."""
    task_dir = config.task_dir(name)
    # heartbeat.json: the owner's liveness (every command the owner runs renews it)
    expected = {"task.json", "task.json.lock", "heartbeat.json", "code", "agents"}
    odd = []
    for path in task_dir.rglob("*"):
        rel = path.relative_to(task_dir)
        if (
            "code" in rel.parts
            or rel.name.startswith(store.TMP_PREFIX)
            or rel.name.startswith("heartbeat.json.tmp-")
        ):
            continue
        if _set_aside_by_doctor(rel.name):
            continue  # a file doctor's restore from the journal kept (never deletes)
        if len(rel.parts) == 1 and (rel.name in expected or rel.name.startswith(beat.NAME)):
            continue
        if rel.parts[0] == "agents" and (
            len(rel.parts) == 2 or rel.name in ("status.json", "code")
        ):
            continue
        odd.append(str(rel))
    return sorted(odd)


__all__ = ["HOOK_ENTRY_POINTS", "OPERATIONS", "HookEntry", "Op", "TaskprotoError"]

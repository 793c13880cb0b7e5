"""SessionStart of a session that owns no task: the free tasks, in the ready queue's order (most
urgent, then oldest), the ones that wait for others and the ones taken.

`offer` builds the text from plain task JSON, so it is the same whether the tasks were read on the
standard library (start.py `quick_session_start`, before the engine is imported) or through the
engine (events.py, for everything the quick reads leave to it: a /clear handover, a session that
owns a task, a task the quick reads cannot vouch for). Both leave what they showed for the next
start, which hook.sh answers without Python while nothing it rests on has changed (offer_cache.py).
`refresh` renews that copy after a change, from whichever door it came (the CLI, the engine for
the MCP server and the Python API); so this module, offer_cache.py, quiet.py and the quick reads
they rest on (hooks/tasks.py, hooks/flags.py) are a layer below the engine
(tests/test_architecture.py) and import nothing above it.
"""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime, timedelta

import taskproto.hooks.agents.quiet as quiet
from taskproto.sessions import OwnerView, hostname, liveness
from taskproto.state.light import TaskView
from taskproto.state.summary import DEFAULT_PRIORITY, describe

CLOCK_REALTIME_COARSE = 5  # Linux: the clock file times come from; its resolution is one tick
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from taskproto.layout import Layout

    Table = dict[str, dict[str, Any]]


def write_env_file(env: dict[str, str], session: str, pid: int | None) -> str | None:
    """So every command the agent runs later knows the session (Claude Code gives SessionStart this
    file). Returns a warning when the file cannot be written."""
    path = env.get("CLAUDE_ENV_FILE")
    if not path or not session or any(c in session for c in "'\n\\"):
        return None
    # TASKPROTO_AGENT: the CLI then knows it acts for an agent and refuses the user's actions.
    lines = f"export TASKPROTO_SESSION='{session}'\nexport TASKPROTO_AGENT=1\n"
    if pid:
        lines += f"export TASKPROTO_SESSION_PID={pid}\n"
    try:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(lines)
    except OSError as exc:
        return f"could not write CLAUDE_ENV_FILE {path}: {exc}"
    return None


def claim_hint(env: dict[str, str], session: str, pid: int | None) -> str:
    if env.get("CLAUDE_ENV_FILE"):
        return "`taskproto claim NAME` (this session's id is already in TASKPROTO_SESSION)"
    return f"`taskproto --session {session} claim NAME{f' --pid {pid}' if pid else ''}`"


class Offer:
    """The free, waiting and taken tasks, and what that answer rests on besides the task files
    (for the `sh` fast path's copy, offer_cache.py): it holds `until` a taken task's lease runs
    out, while the local owner processes in `alive` live and those in `dead` stay gone, the
    heartbeat files of the `beats` tasks stay, and those of the `lapsed` tasks (free because their
    owner's lease ran out) do not come back. `owners`: the sessions that own a task, terminal
    ones too, as state/light.py `owned_task` reads them (None: a task could not be read, so any
    session may own it)."""

    def __init__(self) -> None:
        self.free: list[tuple[tuple[int, datetime, str], str]] = []  # (queue order, text)
        self.taken: list[str] = []
        self.waiting: list[str] = []
        self.escalated: list[str] = []
        self.until: datetime | None = None
        self.alive: list[int] = []
        self.dead: list[int] = []
        self.beats: list[str] = []
        self.lapsed: list[str] = []
        self.owners: set[str] | None = set()

    def owned_by(self, name: str, data: dict[str, Any] | str) -> None:
        """Note whose task this is (`data`: its JSON, or why it cannot be read), as `owned_task`
        reads it; a task it would report unreadable rules out no session."""
        if self.owners is None:
            return
        view = TaskView(name, data if isinstance(data, dict) else None, None)
        if isinstance(data, str) or view.error is not None:
            self.owners = None
        elif view.owner_session is not None:
            self.owners.add(view.owner_session)

    def owner(self, name: str, owner: OwnerView, now: datetime, lease: float, folder: str) -> bool:
        """Is the task's owner gone (sessions.owner_gone)? Notes what the answer rests on."""
        why, beat_at = liveness(owner, now, lease, folder)
        local = owner.pid is not None and owner.host == hostname()
        if beat_at is None:
            self.dead.append(owner.pid or 0)
            return True
        if local:
            self.alive.append(owner.pid or 0)
        if why is not None:
            self.lapsed.append(name)
            return True
        if beat_at != owner.heartbeat_at:
            self.beats.append(name)
        ends = beat_at + timedelta(minutes=lease)
        self.until = ends if self.until is None else min(self.until, ends)
        return False

    def leave(self, layout: Layout, client: str, names: list[str], made_ns: int) -> None:
        """Keep this offer, made from the tasks `names` read after `made_ns`
        (quiet.started), for the next SessionStart's `sh` in `client`."""
        import taskproto.hooks.agents.offer_cache as offer_cache

        facts = (bool(self.free), self.until, self.alive, self.dead, self.beats, self.lapsed)
        offer_cache.write(
            layout, client, "SessionStart", self.body(), facts, names, made_ns, self.owners
        )

    def head(self, session: str, hint: str) -> list[str]:
        """The lines that name the session (the fast path writes them itself)."""
        lines = [f"taskproto: this session ({session}) owns no task."]
        if self.free:
            lines.append(f"To work on a free task, claim it first: {hint}.")
        return lines

    def body(self) -> list[str]:
        """The lines that are the same for every session: each list at most `SHOWN` long (the
        most urgent free tasks first), the rest counted, so that a repository of a thousand tasks
        does not fill the agent's context."""
        if self.free:
            free = [text for _, text in sorted(self.free)]
            lines = ["Free tasks: " + _some(free, LISTED)]
        else:
            lines = ["No task is free to claim."]
        if self.waiting:
            lines.append("Not yet (they wait for other tasks): " + _some(self.waiting, READY))
        if self.escalated:
            lines.append(
                "Escalated, not to be claimed until the user resumes them: "
                + _some(self.escalated, LISTED)
            )
        if self.taken:
            lines.append("Taken: " + _some(self.taken, LISTED))
        return lines


SHOWN = 20  # the items of each list of the offer shown; the rest are counted
READY = "`taskproto ready --all` lists them"
LISTED = "`taskproto task list` lists them"


def _some(items: list[str], where: str) -> str:
    """`items` joined, at most SHOWN of them and how many more (and where to see them)."""
    if len(items) <= SHOWN:
        return "; ".join(items) + "."
    return "; ".join(items[:SHOWN]) + f"; and {len(items) - SHOWN} more ({where})."


def offer(
    layout: Layout,
    tasks: list[tuple[str, dict[str, Any] | str]],
    table_of: Callable[[dict[str, Any]], Table],
    waits_of: Callable[[str, dict[str, Any]], list[dict[str, Any]]],
    lease_minutes: float,
) -> Offer:
    """What SessionStart offers a session that owns no task. `tasks`: each task's JSON, or why it
    cannot be read; `waits_of` is asked only about tasks that are free."""
    found = Offer()
    now = datetime.now(UTC)
    for name, data in tasks:
        found.owned_by(name, data)
        if isinstance(data, str):
            hint = "" if "taskproto doctor" in data else "; run `taskproto doctor`"  # said once
            found.taken.append(f"{name} (unreadable: {data}{hint})")
            continue
        state = data["state"]
        if table_of(data)[state]["terminal"]:
            continue
        owner = data["owner"]
        if owner is None or found.owner(
            name, OwnerView(owner), now, lease_minutes, layout.task_dir(name)
        ):
            if data["escalations"]:
                reasons = ", ".join(e["reason"] for e in data["escalations"])
                found.escalated.append(f"{name} ({state}; {reasons})")
                continue
            waits = waits_of(name, data)
            if waits:
                found.waiting.append(f"{name} waits for {describe(waits)}")
                continue
            priority = data["priority"]
            text = f"{name} ({state}" + (
                "" if priority == DEFAULT_PRIORITY else f", priority {priority}"
            )
            text += ")" + (f": {data['description']}" if data["description"] else "")
            found.free.append(((priority, datetime.fromisoformat(data["created_at"]), name), text))
        else:
            found.taken.append(
                f"{name} ({state}) is taken by live session {owner['session']}: do not work on it"
            )
    return found


def offer_lines(found: Offer, layout: Layout, cwd: str, hint: str, session: str) -> list[str]:
    """The lines SessionStart shows a session that owns no task."""
    lines = [*found.head(session, hint), *found.body()]
    kind, task_name, agent = layout.where(cwd)
    if kind == "worktree" and task_name:
        who = f"agent {agent}'s" if agent else "the task"
        lines.append(
            f"This folder is {who} worktree of task {task_name}: that task's state decides what "
            "may be edited here."
        )
    return lines


def gather(layout: Layout, most: int | None = None) -> tuple[Offer, list[str], int] | None:
    """The offer as the standard library reads the tasks (hooks/tasks.py), their names and a moment
    before the reading began (quiet.started); None when there are more than `most` tasks.
    Raises where the reads cannot vouch for a task (the engine decides, and says what is wrong)."""
    from taskproto.config import load_config
    from taskproto.hooks.agents.offer_known import Known
    from taskproto.hooks.tasks import TaskReader

    made = quiet.started(layout)
    if most is not None and len(layout.task_names()) > most:
        return None  # counted before any name is checked or file read: a command's renewal
    config = load_config(layout.main, root=layout.root_given)
    reader = TaskReader(config)
    names = reader.names()
    if most is not None and len(names) > most:
        return None
    known = Known(layout, made)
    keys = {name: known.key(name) for name in names}
    found_before = {name: known.get(name, key) for name, key in keys.items()}
    again = [name for name, data in found_before.items() if data is None]
    # state/many.py's rule, as the engine's offer reads them (hooks/agents/events.py): one still
    # being created is left out, the journals read through one git process; one the standard
    # library cannot read raises, and the engine makes the offer
    read: dict[str, dict[str, Any]] = {}
    if again:
        from taskproto.state.many import load_many

        read, _ = load_many(layout, again, reader.task, raising=True)
    names = [name for name in names if found_before[name] is not None or name in read]
    tasks: list[tuple[str, dict[str, Any] | str]] = []
    for name in names:  # a task whose files are as when last read is not read again
        key = keys[name]
        data = found_before[name] or read[name]
        reader.tasks[name] = data  # its dependents' waits read it there
        known.keep(name, key, data)
        tasks.append((name, data))
    known.save()
    found = offer(
        layout,
        tasks,
        lambda data: reader.table(data["workflow"]),
        lambda _name, data: reader.waits(data),
        config.lease_minutes,
    )
    return found, names, made


REFRESH_MOST = 100  # tasks: reading them costs a command about 0.2 ms each


def refresh(layout: Layout) -> None:
    """After a command: renew the offers `sh` answers the next SessionStart from, when there are
    any and a task changed since they were made, and the tasks are at most REFRESH_MOST (with
    more, the next start pays instead). Never fails the command."""
    import taskproto.hooks.agents.offer_cache as offer_cache

    try:
        copies = offer_cache.copies(layout)
        if not copies:
            return
        changed = offer_cache.latest(layout)
        if changed <= min(copies.values()):
            return
        if _many(layout):
            return  # before the stamp and its tick's wait: with this many, gather reads none
        if changed > quiet.started(layout):  # changed within the file clock's tick
            time.sleep(time.clock_getres(CLOCK_REALTIME_COARSE))
        gathered = gather(layout, REFRESH_MOST)
    except Exception:  # noqa: BLE001 - the next start reads the tasks itself
        return
    if gathered is not None and gathered[2] >= changed:
        found, names, made = gathered
        for client in copies:
            found.leave(layout, client, names, made)


def _many(layout: Layout) -> bool:
    """Whether the tasks' folder holds more than REFRESH_MOST folders, without listing them where
    the file system counts them in its link count (2 + one per subfolder: ext4, xfs, tmpfs), so a
    command's cost does not grow with the tasks; listed where it does not (btrfs: always 1)."""
    try:
        links = os.stat(layout.tasks).st_nlink
    except OSError:
        return False
    if links >= 2:
        return links - 2 > REFRESH_MOST  # fewer: gather counts the tasks themselves
    return len(layout.task_names()) > REFRESH_MOST

"""A running board's cards, each read and built again only when what it shows has changed.

`/api/tasks` answers every task's card, and the board asks again after every change it sees. A
card is built from task.json (checked against its journal), the agents' status files, the task
branch's head, the owner's liveness, the tasks it waits for, the sessions working in it and the
doctor's findings. `Cards` keeps, per task, what it read and the card it built, with the keys
they were made from:

- which tasks may have changed since the last request, the kernel says (notices.py: inotify on
  the folders those files are in, read at the start of each request); only those are looked at
  again: their files' keys (size, mtime, inode of task.json and of each agent's status.json,
  run.json and agent.log, and its journal ref, loose or packed) compared with those the task was
  read with, and the task read again when they differ; an unchanged task.json under an unchanged
  journal ref was already checked. Where notices cannot tell (no inotify, an overflow, a folder
  replaced, `packed-refs` rewritten), every task is looked at, as on the first request;
- the listing, each task branch's head and each owner's heartbeat are kept the same way, taken
  again for the tasks that may have changed; a task still being created is left out, looked at
  again on every request, and counted as changed by the request that finds it done (its folder
  was not watched: no notice says so);
- a card is built again only when its task was read again, or when its branch head, its owner's
  liveness and last heartbeat, what it waits for, its sessions, its findings or the viewer
  differ. The owner's liveness (its process, the lease against the time) is worked out on every
  request, once per owner; the rest from what is kept. So the cache never answers from a state
  the files no longer hold, whoever wrote them and whether or not the watcher saw it.

So the first request reads every task; the next ones read what changed. Nothing here writes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from taskproto.board.notices import Changed, Notices
from taskproto.engine import Engine
from taskproto.engine.listing import being_created
from taskproto.errors import TaskprotoError
from taskproto.names import TaskName
from taskproto.sessions import last_heartbeat, liveness
from taskproto.state import integrity
from taskproto.state.models import AgentStatus, Owner, Task

Key = tuple[Any, ...]


def stat_key(path: str) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino)


def read_statuses(engine: Engine, task: Task) -> dict[str, AgentStatus | str | None]:
    """Each agent's status (None: no file yet; a string: why it cannot be read)."""
    statuses: dict[str, AgentStatus | str | None] = {}
    for agent in task.required_agents:
        try:
            statuses[agent] = engine.agent_status(task.name, agent)
        except TaskprotoError as exc:
            statuses[agent] = str(exc)
    return statuses


@dataclass
class Read:
    """A task as read: the Task, its agents' statuses (None: no file; a string: why unreadable)."""

    key: Key
    task: Task | None
    error: str | None
    statuses: dict[str, AgentStatus | str | None]


class Cards:
    """What one board read and built, kept between requests (see the module's docstring). Used
    by one request at a time (`lock` is the caller's)."""

    def __init__(self, notices: bool = True) -> None:
        self.reads: dict[str, Read] = {}
        self.cards: dict[str, Kept] = {}
        self.notices = Notices() if notices else None
        self.seen = Changed(set(), everything=True, relist=True)  # this request's notices
        self.names: list[TaskName] | None = None  # every task folder, as last listed
        self.creating: set[str] = set()  # folders a live `task create` was still making
        self.heads: dict[str, str | None] = {}
        self.beats: dict[str, tuple[Key, datetime]] = {}
        self.owners: dict[Key, Alive] = {}  # each owner's liveness, worked out this request
        self.last: Board | None = None  # the last full pass's inputs and cards
        self.shown: list[TaskName] | None = None  # the last listing
        self.read_of: Sequence[str] | None = None  # the listing `reads` was read for
        self.encoded: tuple[object, str] = (None, "")  # the last cards list and its JSON

    def maybe_changed(self, name: str) -> bool:
        """Whether task `name` is to be looked at again in this request (see notices.py)."""
        seen, notices = self.seen, self.notices
        return (
            notices is None
            or seen.everything
            or name in seen.tasks
            or name in notices.unwatched
            or name not in self.reads
        )

    def quiet(self) -> bool:
        """Whether no task can have changed since the last request: the notices named none, and
        every task is watched."""
        seen, notices = self.seen, self.notices
        return notices is not None and not (
            seen.everything or seen.relist or seen.tasks or notices.unwatched or self.creating
        )

    def listed(self, engine: Engine) -> list[TaskName]:
        """The tasks to show (state/many.py `listed`), at the start of a request: what changed
        since the last one is taken from the notices first."""
        layout = engine.config.layout
        notices = self.notices
        self.seen = notices.changed(layout) if notices is not None else Changed(set(), True, True)
        self.owners = {}
        if self.quiet() and self.shown is not None:
            return self.shown
        self.shown = self._listed(engine)
        return self.shown

    def _listed(self, engine: Engine) -> list[TaskName]:
        seen = self.seen
        if seen.relist or self.names is None:
            self.names = engine.task_names()
        names: list[TaskName] = []
        for name in self.names:
            if name in self.creating or self.maybe_changed(name):
                if being_created(engine.config, name):
                    self.creating.add(name)
                    continue
                if name in self.creating:
                    # finished since: a change of this task, though no notice may say so (its
                    # folder is watched only once it is read)
                    self.creating.discard(name)
                    self.seen.tasks.add(name)
            names.append(name)
        return names

    def alive(
        self, owner: Owner, last: datetime, now: datetime, lease: float
    ) -> tuple[str | None, datetime | None]:
        """(why `owner` is gone or None, its last sign of life): sessions.liveness from its
        heartbeat `last`, once per owner and request."""
        who: Key = (owner.host, owner.pid, owner.session, last)
        found = self.owners.get(who)
        if found is None:
            gone, beat = liveness(owner, now, lease, last=last)
            found = self.owners[who] = Alive(owner, last, gone, beat or last)
        return found.gone, found.beat

    def same_board(self, inputs: Key, now: datetime, lease: float) -> Board | None:
        """The last full pass, when nothing a card is made from can have changed since: no task's
        files or refs (the notices named none, and every task is watched), the same `inputs`
        (the doctor's report, the viewer, the sessions' activity and which of them are shown),
        and each owner as alive as it was (worked out again: its process, the lease). Else None:
        the caller goes over every task, and `remember`s the pass."""
        last = self.last
        if (
            last is None
            or not self.quiet()
            or last.inputs[0] is not inputs[0]  # doctor's report: a new run, a new object
            or last.inputs[1:] != inputs[1:]
        ):
            return None
        for was in last.owners:
            if self.alive(was.owner, was.last, now, lease) != (was.gone, was.beat):
                return None
        return last

    def remember(self, inputs: Key, tasks: list[dict[str, Any]], columns: dict[str, Any]) -> None:
        self.last = Board(inputs, list(self.owners.values()), tasks, columns)

    def head(self, engine: Engine, name: str) -> str | None:
        """Task `name`'s branch head, kept while its refs do not change."""
        if self.maybe_changed(name) or name not in self.heads:
            self.heads[name] = engine.branch_head(name)
        return self.heads[name]

    def heartbeat(self, engine: Engine, name: str, owner: Owner) -> datetime:
        """The owner's last sign of life (sessions.last_heartbeat), kept while the task's folder
        does not change."""
        key: Key = (owner.session, owner.heartbeat_at)
        kept = self.beats.get(name)
        if kept is None or kept[0] != key or self.maybe_changed(name):
            kept = (key, last_heartbeat(owner, engine.config.layout.task_dir(name)))
            self.beats[name] = kept
        return kept[1]

    def task_key(self, engine: Engine, name: str) -> Key:
        """The keys of task `name`'s task.json and of its journal ref."""
        layout = engine.config.layout
        dirs = layout.dirs
        journal: Any = None
        if dirs is not None:
            # the loose ref's key, else the packed value (packed-refs parsed once while it stays)
            ref = integrity.REF_PREFIX + name
            journal = stat_key(os.path.join(dirs.common_dir, ref))
            journal = journal or dirs.packed_refs().get(ref.encode())
        return (stat_key(layout.task_file(name)), journal)

    def status_key(self, engine: Engine, name: str, agents: list[str]) -> Key:
        """The keys of each agent's status.json, and of the run `taskproto agent start` gave it
        (run.json, agent.log: ops/agent_records.py), which its card shows too."""
        layout = engine.config.layout
        return tuple(
            (
                stat_key(layout.status_file(name, a)),
                stat_key(os.path.join(layout.agent_dir(name, a), "run.json")),
                stat_key(os.path.join(layout.agent_dir(name, a), "agent.log")),
            )
            for a in agents
        )

    def read(self, engine: Engine, names: Sequence[str]) -> dict[str, Read]:
        """Every task of `names` as it is now: read again only where its files changed."""
        if names is self.read_of and self.quiet():
            return self.reads
        self.read_of = None
        found: dict[str, Read] = {}
        again: list[str] = []
        layout = engine.config.layout
        for name in names:
            old = self.reads.get(name)
            if old is not None and not self.maybe_changed(name):
                found[name] = old  # nothing in its folders or refs moved since it was read
                continue
            if self.notices is not None:
                self.notices.watch_task(layout, name)  # before its keys: a change after is seen
            agents = list(old.task.required_agents) if old is not None and old.task else []
            if old is not None and old.key == (
                *self.task_key(engine, name),
                self.status_key(engine, name, agents),
            ):
                found[name] = old
            else:
                again.append(name)
        # each key taken before its read: a write in between makes the next request read again
        keys = {name: self.task_key(engine, name) for name in again}
        tasks, broken = engine.load_many(again)  # Core.load_many: one rule, one git process
        for name, task in tasks.items():
            key = (*keys[name], self.status_key(engine, name, list(task.required_agents)))
            found[name] = Read(key, task, None, read_statuses(engine, task))
        for name, error in broken.items():
            found[name] = Read((*keys[name], ()), None, error, {})
        # in the listing's order; one a `task create` began making since it was listed is not
        found = {name: found[name] for name in names if name in found}
        if self.notices is not None:
            for name in self.reads.keys() - found.keys():
                self.notices.forget_task(name)
        self.reads = found  # a task gone is forgotten
        self.cards = {n: c for n, c in self.cards.items() if n in found}
        self.heads = {n: h for n, h in self.heads.items() if n in found}
        self.beats = {n: b for n, b in self.beats.items() if n in found}
        self.read_of = names
        return found

    def card(self, name: str, key: Key) -> dict[str, Any] | None:
        """The card built for `key`, if it is still the one."""
        kept = self.cards.get(name)
        return kept.card if kept is not None and kept.key == key else None

    def keep(self, name: str, key: Key, card: dict[str, Any]) -> None:
        self.cards[name] = Kept(key, card)

    def encode(self, data: dict[str, Any]) -> bytes:
        """A board's JSON (snapshot.board's `data`, whose cards come from here), each kept card
        encoded once: the same JSON as starlette's JSONResponse makes, "tasks" first."""
        if data["tasks"] is self.encoded[0]:
            return self._with_rest(self.encoded[1], data)
        texts = []
        for card in data["tasks"]:
            kept = self.cards.get(card.get("name", ""))
            if kept is not None and kept.card is card:
                if kept.text is None:
                    kept.text = _dumps(card)
                texts.append(kept.text)
            else:
                texts.append(_dumps(card))
        joined = ",".join(texts)
        self.encoded = (data["tasks"], joined)
        return self._with_rest(joined, data)

    def _with_rest(self, joined: str, data: dict[str, Any]) -> bytes:
        rest = _dumps({k: v for k, v in data.items() if k != "tasks"})
        return ('{"tasks":[' + joined + "]" + ("," + rest[1:] if rest != "{}" else "}")).encode()


@dataclass
class Alive:
    """An owner's liveness as worked out from its heartbeat `last`."""

    owner: Owner
    last: datetime
    gone: str | None
    beat: datetime | None


@dataclass
class Board:
    """A full pass over every task: what it was made from, and its cards and columns."""

    inputs: Key
    owners: list[Alive]
    tasks: list[dict[str, Any]]
    columns: dict[str, Any]


@dataclass
class Kept:
    """A card as built, the key it was built for, and its JSON once encoded."""

    key: Key
    card: dict[str, Any]
    text: str | None = None


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))

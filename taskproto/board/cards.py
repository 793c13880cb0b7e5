"""A running board's cards, each read and built again only when what it shows has changed.

`/api/tasks` answers every task's card, and the board asks again after every change it sees. A
card is built from task.json (checked against its journal), the agents' status files, the task
branch's head, the owner's liveness, the tasks it waits for, the sessions working in it and the
doctor's findings. `Cards` keeps, per task, what it read and the card it built, with the keys
they were made from:

- a task is read again only when its files' keys (size, mtime, inode of task.json and of each
  agent's status.json, and its journal ref, loose or packed) differ from those it was read with;
  an unchanged task.json under an unchanged journal ref was already checked;
- a card is built again only when its task was read again, or when its branch head, its owner's
  liveness and last heartbeat, what it waits for, its sessions, its findings or the viewer
  differ. These are worked out on every request (a few stats and small reads per task), so the
  cache never answers from a state the files no longer hold, whoever wrote them and whether or not
  the watcher saw it.

So the first request reads every task; the next ones stat them. Nothing here writes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from taskproto.engine import Engine
from taskproto.errors import TaskprotoError
from taskproto.state import integrity
from taskproto.state.models import AgentStatus, Task

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

    def __init__(self) -> None:
        self.reads: dict[str, Read] = {}
        self.cards: dict[str, Kept] = {}

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
        found: dict[str, Read] = {}
        again: list[str] = []
        for name in names:
            old = self.reads.get(name)
            agents = list(old.task.required_agents) if old is not None and old.task else []
            if old is not None and old.key == (
                *self.task_key(engine, name),
                self.status_key(engine, name, agents),
            ):
                found[name] = old
            else:
                again.append(name)
        if again and engine.config.layout.dirs is not None:  # checked with one git process
            integrity.prefetch(engine.config.layout.dirs, again)
        for name in again:
            found[name] = self._read(engine, name)
        found = {name: found[name] for name in names}  # in the listing's order
        self.reads = found  # a task gone is forgotten
        self.cards = {n: c for n, c in self.cards.items() if n in found}
        return found

    def _read(self, engine: Engine, name: str) -> Read:
        # each key taken before its read: a write in between makes the next request read again
        key = self.task_key(engine, name)
        try:
            task = engine.load(name)
        except TaskprotoError as exc:
            return Read((*key, ()), None, str(exc), {})
        key = (*key, self.status_key(engine, name, list(task.required_agents)))
        return Read(key, task, None, read_statuses(engine, task))

    def card(self, name: str, key: Key) -> dict[str, Any] | None:
        """The card built for `key`, if it is still the one."""
        kept = self.cards.get(name)
        return kept.card if kept is not None and kept.key == key else None

    def keep(self, name: str, key: Key, card: dict[str, Any]) -> None:
        self.cards[name] = Kept(key, card)

    def encode(self, data: dict[str, Any]) -> bytes:
        """A board's JSON (snapshot.board's `data`, whose cards come from here), each kept card
        encoded once: the same JSON as starlette's JSONResponse makes, "tasks" first."""
        texts = []
        for card in data["tasks"]:
            kept = self.cards.get(card.get("name", ""))
            if kept is not None and kept.card is card:
                if kept.text is None:
                    kept.text = _dumps(card)
                texts.append(kept.text)
            else:
                texts.append(_dumps(card))
        rest = _dumps({k: v for k, v in data.items() if k != "tasks"})
        return (
            '{"tasks":[' + ",".join(texts) + "]" + ("," + rest[1:] if rest != "{}" else "}")
        ).encode()


@dataclass
class Kept:
    """A card as built, the key it was built for, and its JSON once encoded."""

    key: Key
    card: dict[str, Any]
    text: str | None = None


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))

"""What changed, from the file system's own notifications (watchfiles: inotify, FSEvents, ...).

Watched, each folder alone (never recursively: a task's worktrees are not watched): the root,
`tasks/`, each task's folder (task.json), each agent's folder (status.json), `activity/` (the
client hooks), and in the common git folder the journal refs, the branch heads and
`packed-refs`. Every write taskproto makes is a rename into one of these folders, so each shows
up as a change there. When a task or an agent appears or goes, the set is rebuilt.

`Hub` hands the changes to every open event stream: a version number and what changed since.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import anyio

from taskproto.config import Config
from taskproto.hooks.agents.activity import FOLDER as ACTIVITY
from taskproto.layout import DOCTOR_KNOWN

HISTORY = 256  # changes kept for a stream that fell behind; past that it refreshes everything


@dataclass
class Change:
    tasks: set[str] = field(default_factory=set)
    activity: bool = False
    everything: bool = False

    def __bool__(self) -> bool:
        return bool(self.tasks or self.activity or self.everything)

    def activity_only(self) -> bool:
        return self.activity and not self.tasks and not self.everything

    def merge(self, other: Change) -> None:
        self.tasks |= other.tasks
        self.activity |= other.activity
        self.everything |= other.everything

    def as_json(self, version: int) -> dict[str, Any]:
        return {
            "version": version,
            "tasks": sorted(self.tasks),
            "activity": self.activity,
            "all": self.everything,
        }


class Hub:
    """The latest version and the recent changes; streams wait on it."""

    def __init__(self) -> None:
        self.version = 0
        self._history: list[tuple[int, Change]] = []
        self._event = anyio.Event()

    def publish(self, change: Change) -> None:
        if not change:
            return
        self.version += 1
        self._history = (self._history + [(self.version, change)])[-HISTORY:]
        event, self._event = self._event, anyio.Event()
        event.set()

    def since(self, version: int) -> Change:
        change = Change()
        if self._history and self._history[0][0] > version + 1:
            change.everything = True  # fell too far behind to say what changed
        for v, c in self._history:
            if v > version:
                change.merge(c)
        return change

    async def wait(self, version: int, timeout: float) -> int:
        """Wait until the version is past `version` (or `timeout`); returns the version now."""
        if self.version == version:
            with anyio.move_on_after(timeout):
                await self._event.wait()
        return self.version


def watched(config: Config) -> list[str]:
    """The folders to watch now (only those that exist)."""
    layout = config.layout
    folders = [layout.root, layout.tasks, os.path.join(layout.root, ACTIVITY)]
    for name in layout.task_names():
        folders.append(layout.task_dir(name))
        agents = os.path.join(layout.task_dir(name), "agents")
        folders.append(agents)
        try:
            folders += [os.path.join(agents, a) for a in sorted(os.listdir(agents))]
        except OSError:
            pass
    if not os.path.isdir(layout.root):
        folders.append(layout.main)  # taskproto's root does not exist yet: watch for it
    dirs = layout.dirs
    if dirs is not None:
        common = dirs.common_dir
        folders += [
            common,
            os.path.join(common, "refs", "heads"),
            os.path.join(common, "refs", "taskproto", "tasks"),
        ]
    return [f for f in folders if os.path.isdir(f) and not os.path.islink(f)]


def classify(config: Config, paths: Iterable[str]) -> tuple[Change, bool]:
    """What the changed `paths` mean for the board, and whether the watched set must be rebuilt."""
    layout = config.layout
    change = Change()
    rebuild = False
    common = layout.dirs.common_dir if layout.dirs is not None else None
    for path in paths:
        folder, name = os.path.split(path)
        if name.endswith(".lock") or name.endswith(".tmp") or ".tmp." in name:
            continue  # a write in progress; its rename follows
        if folder == layout.root and DOCTOR_KNOWN in name:
            continue  # doctor's own cache (and its write): nothing the board shows
        if path == layout.root or folder == layout.tasks or folder == layout.root:
            change.everything = rebuild = True
        elif folder == os.path.join(layout.root, ACTIVITY):
            change.activity = True
        elif path.startswith(layout.tasks + os.sep):
            parts = os.path.relpath(path, layout.tasks).split(os.sep)
            change.tasks.add(parts[0])
            if len(parts) == 3 and parts[1] == "agents":
                rebuild = True  # an agent folder appeared or went
        elif common is not None and folder == os.path.join(common, "refs", "taskproto", "tasks"):
            change.tasks.add(name)
        elif common is not None and folder == os.path.join(common, "refs", "heads"):
            owner = layout.branch_owner(name)
            if owner is not None:
                change.tasks.add(owner[0])
        elif common is not None and folder == common and name == "packed-refs":
            change.everything = True
    return change, rebuild


def polling(config: Config, force_polling: bool | None = None) -> bool | None:
    """`force_polling` for watchfiles: as given, else True on a file system another machine may
    change (board/notices.py `shared_filesystem`: no notice of those changes reaches this kernel),
    else None (watchfiles decides). The board's watcher and `task list --watch` alike."""
    from taskproto.board.notices import shared_filesystem

    if force_polling is None and shared_filesystem(config.layout.root):
        return True
    return force_polling


async def watch(
    config: Config,
    publish: Callable[[Change], Awaitable[None]],
    stop: anyio.Event,
    force_polling: bool | None = None,
) -> None:
    """Publish what changes until `stop` is set; rebuild the watched set when tasks come and go.
    On a file system another machine may change, whose changes raise no notice here, it polls
    (unless `force_polling` says otherwise)."""
    import watchfiles

    force_polling = polling(config, force_polling)
    while not stop.is_set():
        try:
            await _watch_once(config, publish, stop, force_polling, watchfiles)
        except Exception:  # noqa: BLE001 - a folder went while armed, say: re-arm, never die
            await publish(Change(everything=True))
            with anyio.move_on_after(1.0):
                await stop.wait()


async def _watch_once(
    config: Config,
    publish: Callable[[Change], Awaitable[None]],
    stop: anyio.Event,
    force_polling: bool | None,
    watchfiles: Any,
) -> None:
    """Watch the current set of folders until it must be rebuilt (or `stop`)."""
    folders = watched(config)
    async for batch in watchfiles.awatch(
        *folders,
        recursive=False,
        stop_event=stop,
        debounce=120,
        step=30,
        force_polling=force_polling,
        poll_delay_ms=250,
        ignore_permission_denied=True,
    ):
        change, rebuild = classify(config, (p for _, p in batch))
        if change:
            await publish(change)
        if rebuild or watched(config) != folders:
            await publish(Change(everything=True))  # what changed while re-arming is not lost
            return

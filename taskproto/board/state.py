"""What one running board holds: the repository's settings, the change hub, the user's session,
and the latest doctor report; and while it runs, the heartbeat of the tasks it claimed.

Doctor is not run per page load (it reads every journal and the worktree list): it runs once at
start, on demand (`POST /api/doctor`), and again after changes at most once every
`DOCTOR_EVERY` seconds, in a worker thread; cards show the latest report and its time.

A claim from the board is the user's session with the board's own pid (ops/controls.py): the
board renews its heartbeat every third of the lease (at most every `HEARTBEAT_EVERY` seconds), so
the claim holds while the board runs, and once the board stops its owner is provably gone.
"""

from __future__ import annotations

import getpass
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import anyio
from anyio.abc import TaskGroup
from starlette.concurrency import run_in_threadpool

from taskproto.board.cards import Cards
from taskproto.board.watch import Change, Hub
from taskproto.config import Config
from taskproto.engine import Engine
from taskproto.errors import GitError, RepositoryGone, TaskNotFound, TaskprotoError
from taskproto.ops.controls import Viewer
from taskproto.sessions import hostname

DOCTOR_EVERY = 60.0
HEARTBEAT_EVERY = 60.0


def user_session() -> str:
    """How the board's writes are journaled: the user, acting from the board."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "user"
    return f"board:{user}"


def cannot_read(exc: BaseException) -> str | None:
    """The one line a board shows, with no tasks, for an error that stops it reading any task:
    no git on PATH (the CLI's own line), or a folder that is no git repository (any more). None
    for anything else: that error reaches the user as it is (a 409 with its line, as every route
    answers a refusal), and a task that cannot be read is one broken card among the others
    (snapshot.board)."""
    from taskproto.git.files import GIT_MISSING, git_missing

    if git_missing(exc):
        return GIT_MISSING
    if isinstance(exc, RepositoryGone):
        return str(exc)
    if isinstance(exc, GitError) and "not a git repository" in exc.stderr:
        return str(exc)  # git's own word: a git folder there, but no repository in it
    return None


@dataclass
class DoctorCache:
    report: dict[str, Any] | None = None
    finished: float | None = None  # time.time() of the latest report
    error: str | None = None
    running: bool = False

    def as_json(self) -> dict[str, Any]:
        # `finished` first: a run sets its report before its time, so the report read after it
        # is that run's (or a newer one's), never an older one under a newer time
        finished, error, running = self.finished, self.error, self.running
        return {"report": self.report, "finished": finished, "error": error, "running": running}


@dataclass
class BoardState:
    config: Config
    session: str = field(default_factory=user_session)
    pid: int = field(default_factory=os.getpid)  # a claim's owner pid: the board's own process
    hub: Hub = field(default_factory=Hub)
    doctor: DoctorCache = field(default_factory=DoctorCache)
    doctor_enabled: bool = True
    task_group: TaskGroup | None = None  # set by the app's lifespan
    cards: Cards = field(default_factory=Cards)  # kept between requests (cards.py)
    claimed: set[str] = field(default_factory=set)  # tasks this board's process claimed
    cards_lock: threading.Lock = field(default_factory=threading.Lock)

    def engine(self) -> Engine:
        """A fresh engine per request: engines hold git processes that are not shared across
        threads."""
        return Engine(self.config)

    @property
    def viewer(self) -> Viewer:
        return Viewer(self.session, self.pid)

    def board(self, report: dict[str, Any] | None) -> dict[str, Any]:
        """Every card (snapshot.board), built again only where something it shows changed; one
        request at a time builds (in a worker thread)."""
        with self.cards_lock:
            return self._read(report)

    def _read(self, report: dict[str, Any] | None) -> dict[str, Any]:
        """snapshot.board; when the tasks cannot be read at all (no git on PATH, a folder that is
        no git repository any more), an empty board whose `problem` says why in one line. Any
        other error is raised: each route answers it as it is (api.guarded, pages._page)."""
        from taskproto.board import snapshot

        dirs = self.config.layout.dirs
        try:
            if dirs is not None and not os.path.isdir(dirs.common_dir):  # else: "no journal" each
                raise RepositoryGone(str(self.config.repo), dirs.common_dir)
            return snapshot.board(self.engine(), report, self.viewer, self.cards)
        except Exception as exc:
            problem = cannot_read(exc)
            if problem is None:
                raise
            self.cards = Cards()  # nothing kept from before is known to hold now
            now = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())
            return {"time": now, "tasks": [], "columns": {}, "repository_findings": []} | {
                "workflows": [],
                "problem": problem,
            }

    async def warm(self) -> None:
        """Read every task and build its card once, in a worker thread, so that the first
        request answers from what is kept (it still checks every task's files)."""
        try:
            await run_in_threadpool(self.board, None)
        except Exception:  # noqa: BLE001 - only a head start: the first request reads again
            return

    def board_json(self, report: dict[str, Any] | None, extra: dict[str, Any]) -> bytes:
        """`board` as JSON with `extra`'s keys added, each unchanged card's JSON kept."""
        with self.cards_lock:
            data = self._read(report)
            return self.cards.encode({**data, **extra})

    async def keep_claims(self, stop: anyio.Event) -> None:
        """Until `stop`, renew the heartbeat of the tasks this board claimed."""
        every = min(HEARTBEAT_EVERY, self.config.lease_minutes * 60 / 3)
        while True:
            with anyio.move_on_after(every):
                await stop.wait()
            if stop.is_set():
                return
            await run_in_threadpool(self.renew_claims)

    def renew_claims(self) -> list[str]:
        """The heartbeat of each task whose owner is this board (its session and its process on
        this host), through the engine as `taskproto heartbeat` does; returns the tasks renewed.
        Only a claim made through this board can name its process: those are the tasks looked
        at, not every task (`claimed`; one no longer the board's is dropped)."""
        engine = self.engine()
        renewed: list[str] = []
        for name in sorted(self.claimed):
            try:
                owner = engine.load(name).owner
                if owner is not None and (owner.session, owner.pid, owner.host) == (
                    self.session,
                    self.pid,
                    hostname(),
                ):
                    engine.heartbeat(name, self.session)
                    renewed.append(name)
                else:
                    self.claimed.discard(name)  # released or taken over: no longer the board's
            except TaskNotFound:
                self.claimed.discard(name)  # removed
            except TaskprotoError:
                continue  # unreadable meanwhile: nothing to renew now
        return renewed

    async def publish(self, change: Change) -> None:
        self.hub.publish(change)
        due = self.doctor.finished is None or time.time() - self.doctor.finished >= DOCTOR_EVERY
        if self.doctor_enabled and due and not change.activity_only():
            await self.run_doctor()

    async def run_doctor(self) -> None:
        """Start a doctor run in a worker thread unless one is running; publishes when done."""
        if self.doctor.running:
            return
        self.doctor.running = True

        async def work() -> None:
            from taskproto.doctor import run

            try:
                report = await run_in_threadpool(run, self.config)
                self.doctor.report, self.doctor.error = report.as_json(), None
            except Exception as exc:  # noqa: BLE001 - shown on the board, never fatal
                line = str(exc) if isinstance(exc, TaskprotoError) else None
                self.doctor.error = cannot_read(exc) or line or f"{type(exc).__name__}: {exc}"
            finally:
                self.doctor.running = False
                self.doctor.finished = time.time()
            self.hub.publish(Change(everything=True))

        assert self.task_group is not None
        self.task_group.start_soon(work)

"""task.json read with `json` alone: the fields hooks and quick commands decide on.

Loading the pydantic model costs tens of milliseconds; a hook that only needs the
state, the workflow and the owner reads the file with `json` instead. A file that is
not a regular file, too large, not JSON or missing its state is reported through
`TaskView.error`, never guessed around. Standard library only.
"""

from __future__ import annotations

import os

from taskproto import plainjson as json
from taskproto.layout import LOCK_NAME
from taskproto.state import integrity
from taskproto.state.files import read_regular
from taskproto.state.pause import paused_type

TYPE_CHECKING = False  # not `from typing`: importing typing costs a hot hook a measurable share
if TYPE_CHECKING:
    from typing import Any

    from taskproto.layout import Layout

MAX_TASK_FILE = 16 * 1024 * 1024  # a task.json past this is not one we wrote


class TaskView:
    """The few fields of a task.json that hooks decide on; `error` is set when it is unreadable."""

    def __init__(self, name: str, data: dict[str, Any] | None, error: str | None = None) -> None:
        self.name = name
        self.error = error
        self.data: dict[str, Any] = data or {}
        state, workflow = self.data.get("state"), self.data.get("workflow")
        self.state: str | None = state if isinstance(state, str) else None
        self.workflow: str | None = workflow if isinstance(workflow, str) else None
        owner = self.data.get("owner")
        self.owner: dict[str, Any] | None = owner if isinstance(owner, dict) else None
        if self.error is None and (self.state is None or self.workflow is None):
            self.error = "task.json has no state or workflow"

    @property
    def owner_session(self) -> str | None:
        value = self.owner.get("session") if self.owner else None
        return value if isinstance(value, str) else None

    @property
    def paused(self) -> str | None:
        """The kind of the user's latest interruption while it waits for an answer, or None.

        Paused: the latest interruption is not a resumption and the task is still in the state it
        was recorded in (a question stops the work there until the user says to go on).
        """
        return paused_type(self.data)

    def approval(self, kind: str) -> dict[str, Any] | None:
        """The checkpoint's `plan_approval` or `commit_approval` record, if any."""
        checkpoint = self.data.get("checkpoint")
        found = checkpoint.get(f"{kind}_approval") if isinstance(checkpoint, dict) else None
        return found if isinstance(found, dict) else None


def read_bytes(path: str) -> tuple[bytes | None, str | None]:
    """(contents, None), or (None, why it is not a file taskproto wrote)."""
    try:
        got = read_regular(path, MAX_TASK_FILE)
    except FileNotFoundError:
        return None, f"{path} is missing"
    except OSError as exc:
        return None, f"{path} cannot be read ({exc.strerror or exc})"
    if isinstance(got, str):  # a link, not a regular file, too large
        return None, f"{path} is not a regular file taskproto wrote"
    return got, None


def read_task(layout: Layout, name: str) -> TaskView:
    """The task as hooks see it; one its journal does not vouch for (docs/on-disk-format.md) comes
    back with `error` set to the refusal, so a forged state decides nothing."""
    path = layout.task_file(name)
    failure: list[str] = []

    def read() -> bytes | None:
        data, error = read_bytes(path)
        if error is not None:
            failure[:] = [error]
        return data

    data, found = integrity.settled(
        layout.dirs, name, os.path.join(layout.task_dir(name), LOCK_NAME), read
    )
    if data is None:
        return TaskView(name, None, failure[0] if failure else f"{path} cannot be read")
    try:
        parsed = json.loads(data)
    except ValueError as exc:
        return TaskView(name, None, f"{path} is not valid JSON ({exc})")
    if not isinstance(parsed, dict):
        return TaskView(name, None, f"{path} is not a JSON object")
    if found is not None:
        return TaskView(name, parsed, integrity.refusal(name, found))
    return TaskView(name, parsed)


def owned_task(layout: Layout, session: str) -> TaskView | None:
    """The task this session owns. Only files that mention the session id are parsed."""
    if not session:
        return None
    needle = json.dumps(session).encode()
    for name in layout.task_names():
        data, _ = read_bytes(layout.task_file(name))
        if data is None or needle not in data:
            continue
        view = read_task(layout, name)
        if view.error is not None:
            return view  # it names this session but cannot be read: the caller says to run doctor
        if view.owner_session == session:
            return view
    return None


def renew_heartbeats(layout: Layout, names: list[str], session: str) -> tuple[list[str], list[str]]:
    """Renew `session`'s heartbeat on each task of `names` that it owns: heartbeat.json only (no
    task.json write, no journal, no network). Returns (the tasks renewed, warnings)."""
    from datetime import UTC, datetime

    from taskproto.state import beat

    renewed: list[str] = []
    warnings: list[str] = []
    from taskproto.state.many import load_many

    # the journal heads checked through one git process, not a `git cat-file` per packed one
    views, _ = load_many(layout, names, lambda name: read_task(layout, name))
    for name, view in views.items():
        if view.error is None and view.owner_session == session and view.owner is not None:
            pid = view.owner.get("pid")
            try:
                at = datetime.now(UTC).isoformat()
                kept = beat.write(
                    layout.task_dir(name), session, pid if isinstance(pid, int) else None, at
                )
                if kept is not None:
                    warnings.append(beat.kept_line(name, kept))
            except OSError as exc:
                warnings.append(f"could not write the heartbeat of {name}: {exc.strerror or exc}")
            renewed.append(name)
    return renewed, warnings

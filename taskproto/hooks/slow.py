"""The hook paths that load the full library: refreshing the flag cache, marking an approval stale.

Installed hooks run Python with `-I -S` (no site-packages) so the common paths
start fast; these paths need pydantic and filelock, so they turn site-packages
on first.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

HOOK_LOCK_TIMEOUT = (
    5.0  # a hook never waits long: a session may hold the lock around the git command itself
)


def enable_site_packages() -> None:
    if sys.flags.no_site and "site" not in sys.modules:
        import site

        site.main()


def _config(repo_top: str, root: str) -> Any:
    from taskproto.config import load_config

    config = load_config(Path(repo_top), root=root)
    return replace(config, lock_timeout=min(config.lock_timeout, HOOK_LOCK_TIMEOUT))


def refresh_flags(repo_top: str, root: str, workflow: str) -> dict[str, dict[str, Any]]:
    from taskproto.hooks import flags
    from taskproto.machine.registry import get_workflow
    from taskproto.state.store import atomic_write

    wf = get_workflow(
        workflow, config=_config(repo_top, root)
    )  # user workflows live in the repository
    states = flags.compute(wf)
    path = Path(root) / flags.CACHE
    try:
        data = json.loads(path.read_bytes())
        if not isinstance(data, dict):
            data = {}
    except (OSError, ValueError):
        data = {}
    data[workflow] = {"fingerprint": flags.fingerprint(repo_top, root, workflow), "states": states}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, (json.dumps(data, indent=1, sort_keys=True) + "\n").encode())
    except OSError:
        pass  # a read-only root still gets a right answer, only a slower one
    return states


def mark_stale(repo_top: str, root: str, task: str, reason: str) -> str | None:
    """Mark the task's commit approval stale if its branch no longer points at the approved commit.

    Takes the task's lock and journals the change (the engine's write path).
    Returns a warning line when it could not, since a post-* hook cannot refuse.
    """
    from taskproto.engine import Engine
    from taskproto.errors import TaskprotoError
    from taskproto.state.models import LogEntry, Task, utcnow

    engine = Engine(_config(repo_top, root))

    def change(current: Task) -> tuple[Task, str | None] | None:
        approval = current.checkpoint.commit_approval
        if approval is None or approval.sha is None or approval.stale:
            return None
        if engine.branch_head(task) == approval.sha:
            return None  # moved back, or another hook already handled it
        new = current.model_copy(deep=True)
        assert new.checkpoint.commit_approval is not None
        new.checkpoint.commit_approval.stale = True
        new.checkpoint.commit_approval.stale_reason = reason
        new.transition_log.append(
            LogEntry(
                from_state=current.state,
                to_state=current.state,
                trigger="approval_stale",
                time=utcnow(),
                session=os.environ.get("TASKPROTO_SESSION"),
                kind="approval",
                note=reason,
            )
        )
        return new, f"approval stale: {reason}"

    try:
        engine.mutate(task, change)
    except TaskprotoError as exc:
        return (
            f"the commit approval of task {task!r} could not be marked stale ({exc}); "
            "the COMPLETE guard still compares the approved commit with the branch head"
        )
    return engine.warnings[0] if engine.warnings else None

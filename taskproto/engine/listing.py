"""The tasks the listings show (`task list`, `ready`, an unnamed `claim`, the board and `task list
--watch`): every task folder but one that a `task create` is still making.

A create writes what it was asked for (`creating.json`) into the new folder before its first
branch, and task.json last. While its process lives, the folder is no task yet, and no broken one
either: it is left out until task.json is there (doctor reports it as `task-being-created`). A
create that died half-way is listed, broken, for doctor to finish or `task abort` to undo.
"""

from __future__ import annotations

import os

from taskproto import plainjson as json
from taskproto.config import Config
from taskproto.engine.core import Core
from taskproto.names import TaskName
from taskproto.sessions import hostname, pid_alive

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

CREATING = "creating.json"  # the intent of a `task create` in progress, in the task's folder


def read_intent(core_or_dir: Path) -> dict[str, Any] | None:
    """The intent a `task create` left in the task folder, or None when it finished."""
    try:
        data = json.loads((core_or_dir / CREATING).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def creator_alive(intent: dict[str, Any]) -> bool:
    pid = intent.get("pid")
    return intent.get("host") == hostname() and isinstance(pid, int) and pid_alive(pid)


def being_created(config: Config, name: str) -> bool:
    """Whether a live `task create` is still making task `name` (its task.json not written yet)."""
    if os.path.exists(config.layout.task_file(name)):
        return False
    intent = read_intent(config.task_dir(name))
    return intent is not None and creator_alive(intent)


def listed(core: Core) -> list[TaskName]:
    """The tasks to list: every task's folder but those a live `task create` is still making."""
    return [name for name in core.task_names() if not being_created(core.config, name)]

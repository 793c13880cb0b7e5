"""The tasks the listings show (`task list`, `ready`, an unnamed `claim`, the board and `task list
--watch`): every task folder but one that a `task create` is still making.

A create writes what it was asked for (`creating.json`) into the new folder before its first
branch, and task.json last. While its process lives, the folder is no task yet, and no broken one
either: it is left out until task.json is there (doctor reports it as `task-being-created`). A
create that died half-way is listed, broken, for doctor to finish or `task abort` to undo. The
rule is state/many.py's, which every reader of many tasks follows (`Core.load_many`); these are
its names for the engine and doctor.
"""

from __future__ import annotations

import os

from taskproto.config import Config
from taskproto.state import many
from taskproto.state.many import CREATING as CREATING
from taskproto.state.many import creator_alive as creator_alive

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any


def read_intent(task_dir: Path) -> dict[str, Any] | None:
    """The intent a `task create` left in the task folder, or None when it finished."""
    return many.read_intent(os.fspath(task_dir))


def being_created(config: Config, name: str) -> bool:
    """Whether a live `task create` is still making task `name` (its task.json not written yet)."""
    return many.being_created(config.layout, name)

"""What the last reading of the tasks for SessionStart's offer found in each task, and the file keys
it was found by: a command renews the offer after each change (offer.refresh), and reads again only
the tasks whose files changed since, not every task (about 0.2 ms each with its journal check).

`<root>/cache/quiet/offer/tasks.json`: for each task, the keys of its folder, its task.json and its
loose journal ref (as `git`'s index keys a file: device, inode, mode, size, mtime and ctime; a
rename, which every save makes, changes the inode, and nothing can set a ctime back), or the value
packed-refs holds for its journal, and the fields the offer reads. A task is kept only when none
of its files changed in the tick its reading began (their ctime before `quiet.started`'s moment):
a later change of the same tick could not be told apart. It is a hint like the offer itself: a
file that cannot be read or is of another shape counts as empty, and a task of changed keys is
read and checked in full, as before.
"""

from __future__ import annotations

import os
import stat

import taskproto.hooks.agents.quiet as quiet
from taskproto import plainjson as json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskproto.layout import Layout

NAME = "tasks.json"
VERSION = 2  # 2: a packed journal ref keyed by its value, not by packed-refs' key
FIELDS = (  # what offer.offer and the waits of the tasks that depend on one read
    "name",
    "workflow",
    "state",
    "owner",
    "priority",
    "created_at",
    "description",
    "depends_on",
    "escalations",
)


def _key(path: str, kind: int) -> list[int] | None:
    """The file's key; None when it is missing or not of `kind` (a link, say)."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if stat.S_IFMT(st.st_mode) != kind:
        return None
    return [st.st_dev, st.st_ino, st.st_mode, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


class Known:
    """The tasks' fields as last read, by key; `keep` what is read now, then `save`."""

    def __init__(self, layout: Layout, made_ns: int) -> None:
        self.layout = layout
        self.made = made_ns
        self.path = os.path.join(layout.root, *quiet.FOLDER, "offer", NAME)
        self.kept: dict[str, list[Any]] = {}
        self.old: dict[str, Any] = {}
        self.refs: str | None = None
        if layout.dirs is not None and os.path.realpath(layout.tasks) == layout.tasks:
            common = layout.dirs.common_dir
            self.refs = os.path.join(common, "refs", "taskproto", "tasks")
        try:
            with open(self.path, "rb") as fh:
                data = json.loads(fh.read())
            if isinstance(data, dict) and data.get("version") == VERSION:
                tasks = data.get("tasks")
                self.old = tasks if isinstance(tasks, dict) else {}
        except (OSError, ValueError):
            self.old = {}

    def key(self, name: str) -> list[Any] | None:
        """The keys of the task's files now; None when they cannot vouch for it (no journal
        folder known, a link on the way, a file missing)."""
        if self.refs is None:
            return None
        folder = _key(self.layout.task_dir(name), stat.S_IFDIR)
        task = _key(self.layout.task_file(name), stat.S_IFREG)
        if folder is None or task is None:
            return None
        loose = _key(os.path.join(self.refs, name), stat.S_IFREG)
        # without a loose ref, the value packed-refs holds for it (another task's ref packed or
        # removed rewrites packed-refs, and changes nothing of this one)
        packed = None
        if loose is None and self.layout.dirs is not None:
            found = self.layout.dirs.packed_refs().get(f"refs/taskproto/tasks/{name}".encode())
            packed = found.decode() if found is not None else None
        return [folder, task, loose, packed]

    def get(self, name: str, key: list[Any] | None) -> dict[str, Any] | None:
        """The task's fields as last read, when its files are as they were then."""
        entry = self.old.get(name)
        if key is None or not isinstance(entry, list) or len(entry) != 2 or entry[0] != key:
            return None
        fields = entry[1]
        if not isinstance(fields, dict) or set(fields) != set(FIELDS):
            return None
        return fields

    def keep(self, name: str, key: list[Any] | None, data: dict[str, Any]) -> None:
        """Keep what the task was read as (only when no file of it changed in the reading's
        tick)."""
        if key is None or any(isinstance(k, list) and k[5] >= self.made for k in key):
            return
        self.kept[name] = [key, {field: data[field] for field in FIELDS}]

    def save(self) -> None:
        if self.kept == self.old or not self.made:
            return
        data = json.dumps({"version": VERSION, "tasks": self.kept}, separators=(",", ":"))
        try:
            quiet.put(self.path, data.encode(), self.made)
        except OSError:
            return

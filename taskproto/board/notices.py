"""Which tasks may have changed since the board's last request, from the kernel's own record of
every change (Linux inotify, read without waiting), so that a request reads again only those.

A card is made from files in a few folders: the task's folder (task.json, heartbeat.json), its
`agents/` folder and each agent's folder (status.json, run.json, agent.log), and in the common
git folder the journal refs (`refs/taskproto/tasks/`), the branch heads (`refs/heads/`) and
`packed-refs`. Each of those folders is watched. The kernel queues a change's notice while the
change is made, before the writing process goes on, so a change finished before a request was
sent is in the queue when the request reads it: the board still shows every change at once,
whoever made it (a command, a hand edit, git), without stat-ing every task's files.

What cannot be told this way makes every task be looked at again, as without notices: the queue
overflowed, a watched folder went or was replaced, a folder that should be watched is missing
(its nearest existing parent is watched instead, and any notice there counts as a change of
everything), `packed-refs` changed. A task whose folders could not be watched (the user's limit
of watches reached) is looked at on every request. Where inotify is missing (macOS, another
kernel), and on a file system another machine may change (NFS, SMB, sshfs...: the kernel sees
only this machine's changes; `shared_filesystem`), `Notices.changed` always answers "everything".

The file-system watcher (watch.py) is separate: it tells open pages that something changed; this
tells a request what it must read again. Standard library (ctypes) only; nothing here writes.
"""

from __future__ import annotations

import ctypes
import os
import struct
import sys
from collections.abc import Iterable
from dataclasses import dataclass

from taskproto.layout import Layout

IN_MODIFY = 0x2
IN_ATTRIB = 0x4
IN_CLOSE_WRITE = 0x8
IN_MOVED_FROM = 0x40
IN_MOVED_TO = 0x80
IN_CREATE = 0x100
IN_DELETE = 0x200
IN_DELETE_SELF = 0x400
IN_MOVE_SELF = 0x800
IN_Q_OVERFLOW = 0x4000
IN_IGNORED = 0x8000
IN_ONLYDIR = 0x01000000
IN_DONT_FOLLOW = 0x02000000
IN_NONBLOCK = 0o4000
IN_CLOEXEC = 0o2000000
MASK = (
    IN_MODIFY
    | IN_ATTRIB
    | IN_CLOSE_WRITE
    | IN_MOVED_FROM
    | IN_MOVED_TO
    | IN_CREATE
    | IN_DELETE
    | IN_DELETE_SELF
    | IN_MOVE_SELF
    | IN_ONLYDIR
    | IN_DONT_FOLLOW
)
GONE = IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED
EVENT = struct.Struct("iIII")  # wd, mask, cookie, len; then the name, NUL-padded

TASKS, TASK, REFS, HEADS, COMMON, PARENT = "tasks", "task", "refs", "heads", "common", "parent"


@dataclass
class Changed:
    """What `Notices.changed` saw: the tasks changed; whether anything else did (then every task
    is looked at again); whether a task's folder came or went (the tasks are listed again)."""

    tasks: set[str]
    everything: bool
    relist: bool


class Notices:
    """An inotify instance over the folders a board's cards are made from. `changed` answers
    which tasks to look at again; the caller reads them after it returns (each task's folders
    are watched before it is read, so a change during the read is noticed next time)."""

    def __init__(self) -> None:
        self.fd: int | None = None
        self.libc: ctypes.CDLL | None = None
        self.watches: dict[int, tuple[str, str]] = {}  # wd -> (kind, task or folder)
        self.by_task: dict[str, list[int]] = {}  # the watches of each task's folders
        self.unwatched: set[str] = set()  # tasks whose folders could not all be watched
        self.armed = False  # the shared folders are watched as they should be
        if sys.platform.startswith("linux"):
            try:
                libc = ctypes.CDLL(None, use_errno=True)
                fd = libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
            except (OSError, AttributeError):
                return
            if fd >= 0:
                self.fd, self.libc = fd, libc

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __del__(self) -> None:
        self.close()

    def changed(self, layout: Layout) -> Changed:
        """What changed since the last call. Until the shared folders are watched (the first
        call, and after one of them went), everything."""
        if self.fd is not None and not self.armed and shared_filesystem(layout.root):
            self.close()  # another machine's changes raise no notice here: look at everything
        if self.fd is None:
            return Changed(set(), everything=True, relist=True)
        seen = Changed(set(), everything=not self.armed, relist=not self.armed)
        for wd, mask, name in self._drain():
            if mask & IN_Q_OVERFLOW:
                seen.everything = seen.relist = True
                continue
            if wd not in self.watches:
                continue  # a watch forgotten since (its task removed): nothing to tell
            kind, what = self.watches[wd]
            if mask & GONE:
                self._forget(wd)
                if kind == TASK:
                    seen.tasks.add(what)
                else:
                    seen.everything = seen.relist = True
            elif kind == TASK:
                seen.tasks.add(what)
            elif kind == TASKS:
                seen.relist = True  # a task's folder came or went
                seen.tasks.add(name)
                seen.everything = seen.everything or not name
            elif kind == REFS:
                seen.tasks.add(name)
            elif kind == HEADS:
                seen.tasks.update(_owners(name))
            elif kind == COMMON:
                if name in ("packed-refs", "reftable", "refs", ""):
                    seen.everything = True
            else:  # a parent of a missing folder: it may have come, to be watched itself
                seen.everything = seen.relist = True
                self.armed = False
        if not self.armed:  # before the caller reads: a change from now on is noticed
            self._arm_shared(layout)
        return seen

    def watch_task(self, layout: Layout, name: str) -> None:
        """Watch task `name`'s folder, its agents' folder and each agent's folder (again: a new
        agent's folder is added). Call before reading the task."""
        if self.fd is None:
            return
        folder = layout.task_dir(name)
        agents = os.path.join(folder, "agents")
        folders = [folder, agents]
        try:
            folders += [os.path.join(agents, a) for a in sorted(os.listdir(agents))]
        except OSError:
            pass
        wds = []
        ok = True
        for path in folders:
            wd = self._add(path, TASK, name)
            if wd is None:
                ok = ok and not os.path.lexists(path)  # a folder that is not there: nothing to see
            else:
                wds.append(wd)
        self.by_task[name] = wds
        if ok:
            self.unwatched.discard(name)
        else:
            self.unwatched.add(name)

    def forget_task(self, name: str) -> None:
        for wd in self.by_task.pop(name, []):
            self._forget(wd, remove=True)
        self.unwatched.discard(name)

    # --- inside ---------------------------------------------------------------------------------

    def _arm_shared(self, layout: Layout) -> None:
        """Watch the tasks' folder and the common git folder's refs; a missing one through its
        nearest existing parent."""
        dirs = layout.dirs
        if dirs is None or os.path.isdir(os.path.join(dirs.common_dir, "reftable")):
            self.armed = False  # refs not in files: nothing here to watch
            return
        common = dirs.common_dir
        wanted = [
            (layout.tasks, TASKS, os.path.dirname(layout.main)),
            (common, COMMON, os.path.dirname(common)),
            (os.path.join(common, "refs", "heads"), HEADS, common),
            (os.path.join(common, "refs", "taskproto", "tasks"), REFS, common),
        ]
        armed = True
        for folder, kind, top in wanted:
            if self._add(folder, kind, folder) is not None:
                continue
            # not there (yet): its nearest existing parent tells when it comes
            parent, found = os.path.dirname(folder), False
            while not found and len(parent) >= len(top) and parent != os.path.dirname(parent):
                found = self._add(parent, PARENT, parent) is not None
                parent = os.path.dirname(parent)
            armed = armed and found
        self.armed = armed  # else every request looks at everything, and arms again

    def _add(self, path: str, kind: str, what: str) -> int | None:
        assert self.fd is not None and self.libc is not None
        wd = int(self.libc.inotify_add_watch(self.fd, os.fsencode(path), MASK))
        if wd < 0:
            return None  # gone, not a folder, the watches' limit (ENOSPC): looked at every time
        self.watches[wd] = (kind, what)  # the same folder watched again keeps its wd
        return wd

    def _forget(self, wd: int, remove: bool = False) -> None:
        kind, what = self.watches.pop(wd, (PARENT, ""))
        if remove and self.fd is not None and self.libc is not None:
            self.libc.inotify_rm_watch(self.fd, wd)  # fails harmlessly for a folder gone
        if kind != TASK:
            self.armed = False

    def _drain(self) -> Iterable[tuple[int, int, str]]:
        assert self.fd is not None
        while True:
            try:
                data = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                return
            if not data:
                return
            at = 0
            while at + EVENT.size <= len(data):
                wd, mask, _, size = EVENT.unpack_from(data, at)
                at += EVENT.size
                name = data[at : at + size].rstrip(b"\0").decode("utf-8", "surrogateescape")
                at += size
                yield wd, mask, name


def _owners(branch: str) -> set[str]:
    """The tasks a change of branch `branch` may concern: itself (a task branch) and each prefix
    before a '-' (an agent branch `<task>-<agent>`, whatever the names hold)."""
    found = {branch}
    i = branch.find("-")
    while i > 0:
        found.add(branch[:i])
        i = branch.find("-", i + 1)
    return found


# File systems whose files another machine may change: the kernel here raises no inotify notice
# for those changes (NFS, SMB/CIFS, 9p and virtiofs shares, cluster and FUSE network mounts).
SHARED = frozenset(
    (
        "nfs",
        "nfs4",
        "cifs",
        "smb3",
        "smbfs",
        "9p",
        "virtiofs",
        "afs",
        "ceph",
        "glusterfs",
        "lustre",
        "gpfs",
        "beegfs",
        "fuse.sshfs",
        "fuse.glusterfs",
        "fuse.cephfs",
        "fuse.s3fs",
        "fuse.rclone",
        "fuse.juicefs",
        "fuse.gcsfuse",
    )
)


def shared_filesystem(path: str, mountinfo: str | None = None) -> str | None:
    """The type of the file system `path` is on when another machine may change its files
    (`SHARED`), else None (a local one, or no way to tell: not Linux). Read from the mount that
    holds the path's real location in `/proc/self/mountinfo` (or the text `mountinfo`)."""
    if mountinfo is None:
        try:
            with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as fh:
                mountinfo = fh.read()
        except OSError:
            return None
    real = os.path.realpath(path)
    best, kind = "", None
    for line in mountinfo.splitlines():
        fields, _, after = line.partition(" - ")
        parts = fields.split(" ")
        if len(parts) < 5 or not after:
            continue
        # the mount point, with space, tab, newline and backslash written in octal
        point = parts[4]
        for code, char in (("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")):
            point = point.replace(code, char)
        inside = real == point or real.startswith(point.rstrip("/") + "/")
        if inside and len(point) >= len(best):  # the deepest mount, the last one mounted there
            best, kind = point, after.split(" ")[0]
    return kind if kind in SHARED else None

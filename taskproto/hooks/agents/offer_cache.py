"""SessionStart's offer kept for the installed hook script (hook.sh): a session that owns no task
gets its list of free tasks from `sh`, without Python, while nothing it was made from has changed.

When Python answers SessionStart (start.quick_session_start, or the engine), or a `taskproto`
command has changed a task (offer.refresh), it leaves `<root>/cache/quiet/offer/<client>`. Its mtime
is that of the stamps (quiet.started): 1 ns before that of a file made just before the task files
were read, so every file written after that moment is newer than the copy. It holds

    taskproto-offer-2 FORM FREE UNTIL ALIVE DEAD BEATS LAPSED OWNERS SIZE
    the client's output up to the text (FORM json: the JSON around it; plain: nothing)
    the output after the lines that name the session, to the end

FREE (1/0) says whether the claim hint follows the first line; UNTIL is the moment, in whole
seconds of /proc/uptime (CLOCK_BOOTTIME), before which no taken task's lease runs out (`-`: none
is taken); ALIVE and DEAD list the local owners' processes that were alive and gone; BEATS the taken
tasks whose lease counted their heartbeat file, which must stay; LAPSED the tasks that are free
because their owner's lease ran out, whose heartbeat file must not come back (`-`: none). OWNERS
lists the sessions that own a task (`-`: none; `?`: a task could not be read, so none is ruled
out): while the copy holds, a session not listed owns no task, and `sh` answers a turn of it
without the grep over the tasks that changed since its last one (hook.sh `mentions`). SIZE is
the last part's length in bytes: `sh` writes a short one itself (its `read` takes a system call
a byte: a few KB cost less than starting `cat`) and hands a longer one to `cat`.

`sh` uses the file only when none of the files it was made from is newer (every task.json, the
tasks folder and each task's folder unless a heartbeat was the last change there, the journals,
the settings, the workflows, the cached state tables, the code that made it), and the facts above
still hold; it writes the lines that name the session itself. A task saved while the file was made
moves its journal first, so its change is either read or newer than the file. It is a hint, never
the authority: anything else goes to Python, which answers and writes a new one.
"""

from __future__ import annotations

import math
import os
import stat
import time

import taskproto.hooks.agents.quiet as quiet
from taskproto.clients import protocols

TYPE_CHECKING = False
if TYPE_CHECKING:
    from datetime import datetime

    from taskproto.layout import Layout

FORMAT = "taskproto-offer-2"
MARK = "@@taskproto-offer-head@@"  # where the lines that name the session go
UNTIL_MARGIN_S = 1.0


def path(layout: Layout, client: str) -> str:
    return os.path.join(layout.root, *quiet.FOLDER, "offer", client)


def _listed(items: list[str]) -> str:
    return ",".join(items) or "-"


def write(
    layout: Layout,
    client: str,
    event: str,
    body: list[str],
    facts: tuple[bool, datetime | None, list[int], list[int], list[str], list[str]],
    names: list[str],
    made_ns: int,
    owners: set[str] | None = None,
) -> None:
    """Leave the offer (`body`, the lines every session is shown, and the facts it rests on: FREE,
    UNTIL, ALIVE, DEAD, BEATS, LAPSED above), made from the tasks `names` as read after `made_ns`
    (quiet.started), with the sessions that own them (`owners`; None: not known), for `sh`. Never
    fails the hook: a copy that cannot be written is not there."""
    free, ends, alive, dead, beats, lapsed = facts
    if not quiet.plain(client) or not all(quiet.plain(n) for n in names + beats + lapsed):
        return
    if not os.path.isdir(layout.root):
        return
    out = protocols.context(client, event, MARK + "\n" + "\n".join(body))
    pre, mark, post = out.partition(MARK)
    if not mark or "\n" in pre or MARK in post or "\0" in post:  # (`sh` cannot write a NUL)
        return
    until = "-"
    if ends is not None:
        left = ends.timestamp() - time.time() - UNTIL_MARGIN_S
        until = str(math.floor(time.clock_gettime(time.CLOCK_BOOTTIME) + left))
    header = [
        FORMAT,
        "json" if pre else "plain",
        "1" if free else "0",
        until,
        _listed([str(pid) for pid in alive]),
        _listed([str(pid) for pid in dead]),
        _listed(beats),
        _listed(lapsed),
        # a session `sh` takes is plain (quiet.plain): one that is not owns no task it could match
        "?" if owners is None else _listed(sorted(s for s in owners if quiet.plain(s))),
        str(len(post.encode())),
    ]
    data = " ".join(header) + "\n" + pre + "\n" + post
    try:
        quiet.put(path(layout, client), data.encode(), made_ns)
    except OSError:
        return


def copies(layout: Layout) -> dict[str, int]:
    """The offers kept here: client -> the mtime (ns) of its copy."""
    folder = os.path.dirname(path(layout, "x"))
    found = {}
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name in protocols.CLIENTS and entry.is_file(follow_symlinks=False):
                    found[entry.name] = entry.stat(follow_symlinks=False).st_mtime_ns
    except OSError:
        return {}
    return found


def latest(layout: Layout) -> int:
    """The mtime (ns) of the newest of what makes a copy stale as `sh` finds it: the tasks folder
    (a new or removed task), the journals (a re-journaled one), and the tasks' index, which every
    change of a task moves (state/index.py); each task.json where there is no index."""
    folders = [layout.tasks]
    if layout.dirs is not None:
        common = layout.dirs.common_dir
        folders += [os.path.join(common, "refs", "taskproto", "tasks")]
        folders += [os.path.join(common, "packed-refs")]
    from taskproto.state import index

    try:
        st = os.stat(index.path(layout), follow_symlinks=False)
        files = [index.path(layout)] if stat.S_ISREG(st.st_mode) else None
    except OSError:
        files = None
    if files is None:  # no index to vouch for the tasks: each task.json
        files = [layout.task_file(n) for n in layout.task_names()]
    found = 0
    for name in folders + files:
        try:
            found = max(found, os.stat(name).st_mtime_ns)
        except OSError:
            continue
    return found

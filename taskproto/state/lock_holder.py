"""Who holds a task's lock, for the refusal of a command that could not take it in time: the
process the kernel lists for the lock file's inode in /proc/locks (Linux), and its command line.
taskproto records no holder in the lock file (each save would write it: the hooks' quick path
takes this lock), so a process that is not taskproto (a `flock(1)`, an editor, a backup tool) is
found the same way as taskproto's own. Only on the refusal's path; standard library only."""

from __future__ import annotations

import os

PROC_LOCKS = "/proc/locks"
MOST = 120  # characters of a command line shown


def holder(fd: int) -> str:
    """Who holds the lock on the open lock file `fd`: `pid N on this host (`command`)`, or why it
    could not be named."""
    try:
        st = os.fstat(fd)
        with open(PROC_LOCKS, encoding="ascii", errors="replace") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return f"a process that could not be named ({PROC_LOCKS} cannot be read on this system)"
    key = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    for line in lines:
        fields = line.split()
        # "1: FLOCK  ADVISORY  WRITE 4242 fe:00:3884129 0 EOF"; a waiter's line has "->"
        if len(fields) >= 6 and "->" not in fields[1] and fields[5] == key:
            pid = fields[4]
            if not os.path.exists(f"/proc/{pid}"):
                return ended(pid, key)
            return f"pid {pid} on this host ({command(pid)})"
    return f"a process that could not be named (no entry for its inode in {PROC_LOCKS})"


def ended(pid: str, key: str) -> str:
    """The lock's taker `pid` has ended and a process that inherited its open lock file holds the
    lock: that process, found by the `lock:` line the kernel shows in the fdinfo of every file
    descriptor that shares the lock (Linux 4.x and later), or said that it could not be found."""
    mine = str(os.getpid())
    for other in sorted(n for n in os.listdir("/proc") if n.isdigit() and n != mine):
        try:
            fds = os.listdir(f"/proc/{other}/fdinfo")
        except OSError:
            continue  # ended, or another user's
        for fd in fds:
            try:
                with open(f"/proc/{other}/fdinfo/{fd}", encoding="ascii", errors="replace") as fh:
                    info = fh.read()
            except OSError:
                continue
            for line in info.splitlines():
                fields = line.split()
                # "lock:  1: FLOCK  ADVISORY  WRITE 4242 fe:00:3884129 0 EOF"
                if fields[:1] == ["lock:"] and len(fields) >= 7 and "->" not in fields[2]:
                    if fields[6] == key:
                        return (
                            f"pid {other} on this host ({command(other)}), started by pid {pid}, "
                            "which has ended"
                        )
    return (
        f"pid {pid} on this host, which has ended (a process it started holds the lock still; "
        "it could not be named)"
    )


def command(pid: str) -> str:
    """The command line of process `pid`, shortened, or why it is not known."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            words = fh.read(4096).split(b"\0")
    except OSError:
        return "its command could not be read"
    text = " ".join(w.decode("utf-8", "replace") for w in words if w)
    if not text:
        return "its command could not be read"
    return f"`{text[:MOST]}{'...' if len(text) > MOST else ''}`"

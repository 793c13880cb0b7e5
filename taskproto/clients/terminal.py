"""The session of a person's terminal, and which session this process acts as.

A person at a terminal exports nothing: when neither `--session` nor TASKPROTO_SESSION names a
session and no agent client runs this process (clients/detect.py), the session is the terminal's.
Its shell leads the terminal's session (setsid(2): the login shell of a terminal window, a tmux
pane, an ssh login), so the claim's owner pid is that shell's and the claim lives exactly as long
as it: a later command, or a script run from the same terminal, is the same session; another
terminal is another one. The id names the terminal, the shell and when it started
(sessions.terminal_session_id): `tty-pts3-48213-9127765`. No controlling terminal (cron, CI,
`setsid`, a service): no session from here. An agent's session comes from its client, never
from the terminal it was started in.

Linux: read from /proc (this process's stat, then its session leader's), no process started.
Elsewhere (macOS): the session leader from getsid(2), its terminal and start from one
`ps -o tty= -o lstart=`. TASKPROTO_TERMINAL_SESSION=0 turns it off (taskproto's tests do).
Standard library only: the quick paths resolve the session before anything else is loaded.
"""

from __future__ import annotations

import os

from taskproto.clients.detect import agent_client
from taskproto.clients.identity import check_session
from taskproto.sessions import PID_ENV, SESSION_ENV, terminal_session_id

OFF_ENV = "TASKPROTO_TERMINAL_SESSION"
PTS_MAJORS = range(136, 144)  # Unix98 pseudo-terminals: /dev/pts/N (devices.txt)


class Terminal:
    """A controlling terminal and the shell that leads its session."""

    __slots__ = ("tty", "pid", "started", "session")

    def __init__(self, tty: str, pid: int, started: int) -> None:
        self.tty, self.pid, self.started = tty, pid, started
        self.session = terminal_session_id(tty, pid, started)


class Resolved:
    """The session this process acts as (None when it has none), where it came from, the terminal
    it came from (if so), and why there is none."""

    __slots__ = ("session", "origin", "terminal", "why_none")

    def __init__(
        self,
        session: str | None,
        origin: str | None,
        terminal: Terminal | None = None,
        why_none: str | None = None,
    ) -> None:
        self.session, self.origin, self.terminal, self.why_none = (
            session,
            origin,
            terminal,
            why_none,
        )

    def owner_pid(
        self, explicit: int | None = None, environ: dict[str, str] | None = None
    ) -> tuple[int | None, str | None]:
        """(the pid of a process that lives as long as the session, where it came from): `--pid`,
        else TASKPROTO_SESSION_PID, else the terminal's shell when the session is the terminal's."""
        env = os.environ if environ is None else environ
        if explicit is not None:
            return explicit, "--pid"
        raw = env.get(PID_ENV, "").strip()
        if raw.isdigit():
            return int(raw), PID_ENV
        if self.terminal is not None:
            return self.terminal.pid, f"the shell of {self.terminal.tty}"
        return None, None


def resolve(explicit: str | None = None, environ: dict[str, str] | None = None) -> Resolved:
    """The session: `--session` (`explicit`), else TASKPROTO_SESSION (which an agent client's
    SessionStart hook sets for its agent), else the person's terminal's. A session an agent's
    client did not give it is refused (UserOnly: clients/identity.py)."""
    env = os.environ if environ is None else environ
    if explicit and explicit.strip():
        check_session(explicit.strip(), "--session", environ)
        return Resolved(explicit.strip(), "--session")
    given = env.get(SESSION_ENV, "").strip()
    if given:
        check_session(given, SESSION_ENV, environ)
        if not env.get("TASKPROTO_AGENT"):  # which the SessionStart hook writes beside it
            return Resolved(given, SESSION_ENV)
        channel = env.get("TASKPROTO_CHANNEL_OF")  # sandbox/serve.py sets it, with the session
        if channel:
            return Resolved(given, f"{SESSION_ENV}, set by the sandbox channel of agent {channel}")
        client = agent_client(environ)
        of = client[0] if client else "an agent client"
        return Resolved(given, f"{SESSION_ENV}, set by the SessionStart hook of {of}")
    if env.get(OFF_ENV) == "0":
        return Resolved(None, None, why_none=f"terminal sessions are off ({OFF_ENV}=0)")
    found = terminal()
    if found is None:
        return Resolved(
            None, None, why_none="no controlling terminal (cron, CI, setsid, a service)"
        )
    agent = agent_client(environ)
    if agent is not None:
        return Resolved(
            None,
            None,
            why_none=f"an agent's session comes from its client, not its terminal ({agent[1]})",
        )
    return Resolved(found.session, f"terminal {found.tty}", found)


def terminal() -> Terminal | None:
    """This process's controlling terminal and the shell leading its session, or None."""
    if os.path.exists("/proc/self/stat"):
        return from_proc()
    return from_ps()


def _stat(pid: int | str) -> list[bytes] | None:
    """The fields of /proc/<pid>/stat after the command's name (index 0 is field 3, the state)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None


def from_proc() -> Terminal | None:
    own = _stat("self")
    if own is None or len(own) < 20:
        return None
    sid, tty_nr = int(own[3]), int(own[4])
    if tty_nr == 0 or sid <= 0:
        return None  # no controlling terminal
    leader = _stat(sid)
    if (
        leader is None
        or len(leader) < 20
        or leader[0] == b"Z"
        or int(leader[3]) != sid  # the pid is now another process's
        or int(leader[4]) != tty_nr
    ):
        return None  # the shell that held the terminal is gone
    return Terminal(tty_path(tty_nr), sid, int(leader[19]))


def tty_path(tty_nr: int) -> str:
    """The device of a stat's tty_nr: /dev/pts/N, /dev/ttyN, /dev/ttySN, else /dev/char/MAJ:MIN."""
    major = (tty_nr >> 8) & 0xFFF
    minor = (tty_nr & 0xFF) | ((tty_nr >> 12) & 0xFFF00)
    if major in PTS_MAJORS:
        return f"/dev/pts/{(major - PTS_MAJORS.start) * 256 + minor}"
    if major == 4:
        return f"/dev/tty{minor}" if minor < 64 else f"/dev/ttyS{minor - 64}"
    return f"/dev/char/{major}:{minor}"


def from_ps() -> Terminal | None:
    """Without /proc: getsid(2), and the session leader's terminal and start from `ps`."""
    import subprocess
    import time

    try:
        os.close(os.open("/dev/tty", os.O_RDONLY | os.O_NOCTTY))
        sid = os.getsid(0)
    except OSError:
        return None  # no controlling terminal
    try:
        out = subprocess.run(
            ["ps", "-o", "tty=", "-o", "lstart=", "-p", str(sid)],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
            env={"PATH": os.environ.get("PATH", "/bin:/usr/bin"), "LC_ALL": "C"},
        ).stdout.split()
        started = time.mktime(time.strptime(" ".join(out[1:]), "%a %b %d %H:%M:%S %Y"))
    except (OSError, ValueError, subprocess.SubprocessError):
        return None
    if not out or out[0].strip("?-") == "":
        return None  # the leader has no terminal
    return Terminal(f"/dev/{out[0]}", sid, int(started))

"""Who is on the other end of a request to the board: the loopback peer's process, found where the
operating system tells (Linux: the connection in /proc/net/tcp or tcp6, its socket inode, the
process holding that socket in /proc/<pid>/fd).

The token keeps out other users and web pages; a process of the same user can read it (from the
board's memory through /proc, or the terminal). So the board also refuses a request whose peer
process descends from an agent client (clients/detect.py reads each ancestor: Claude Code, Codex
CLI, Gemini CLI), up to the processes the board itself descends from, and hands the requester's
context (pid, terminal, ancestry, client variables) to what it records (an approval's `seen`).
Where the peer cannot be found (another OS, a process of another user, a connection gone), the
request is not refused on this ground: docs/board.md says what remains.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import struct
from collections.abc import Sequence

from taskproto.clients.approver import SEEN_VARIABLES
from taskproto.clients.detect import (
    AGENT_VARIABLES,
    IGNORE_ANCESTRY,
    MAX_DEPTH,
    _client_of,
    _parent,
)

CACHE_SIZE = 256
NETLINK_SOCK_DIAG = 4
SOCK_DIAG_BY_FAMILY = 20
NLM_F_REQUEST = 1
RECENT = 8  # the peer processes of the latest connections, looked into first


def _hex_address(host: str, port: int) -> tuple[str, str] | None:
    """The address as /proc/net/tcp (IPv4) or tcp6 writes it: 32-bit words in host order."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return None
    raw = ip.packed
    words = "".join(raw[i : i + 4][::-1].hex().upper() for i in range(0, len(raw), 4))
    return ("tcp" if ip.version == 4 else "tcp6"), f"{words}:{port:04X}"


def socket_inode(client: tuple[str, int], server: tuple[str, int]) -> int | None:
    """The inode of the peer's socket: the connection from `client` to `server`. Asked of the
    kernel for that one connection (sock_diag), else found in /proc/net/tcp, which the kernel
    writes by walking every connection of the machine."""
    found = diag_inode(client, server)
    return found if found is not None else table_inode(client, server)


def diag_inode(client: tuple[str, int], server: tuple[str, int]) -> int | None:
    """The socket inode of the TCP connection from `client` to `server`, by a NETLINK_SOCK_DIAG
    request for exactly it; None where that cannot be asked (another OS, no such connection)."""
    try:
        local, remote = ipaddress.ip_address(client[0]), ipaddress.ip_address(server[0])
    except ValueError:
        return None
    if local.version != remote.version or not hasattr(socket, "AF_NETLINK"):
        return None
    family = socket.AF_INET if local.version == 4 else socket.AF_INET6
    sockid = (
        struct.pack("!HH", client[1], server[1])
        + local.packed.ljust(16, b"\0")
        + remote.packed.ljust(16, b"\0")
        + struct.pack("=III", 0, 0xFFFFFFFF, 0xFFFFFFFF)  # any interface, no cookie
    )
    req = struct.pack("=BBBBI", family, socket.IPPROTO_TCP, 0, 0, 0xFFFFFFFF) + sockid
    msg = struct.pack("=IHHII", 16 + len(req), SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, 1, 0) + req
    try:
        with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_SOCK_DIAG) as nl:
            nl.settimeout(1.0)
            nl.send(msg)
            data = nl.recv(8192)
    except OSError:
        return None
    if len(data) < 16 + 72:  # a header and inet_diag_msg, else an error message
        return None  # no such connection, or not allowed
    kind = struct.unpack_from("=H", data, 4)[0]
    if kind != SOCK_DIAG_BY_FAMILY:
        return None
    inode = int(struct.unpack_from("=I", data, 16 + 68)[0])  # inet_diag_msg.idiag_inode
    return inode or None


def table_inode(client: tuple[str, int], server: tuple[str, int]) -> int | None:
    """`socket_inode` from /proc/net/tcp or tcp6."""
    local, remote = _hex_address(*client), _hex_address(*server)
    if local is None or remote is None:
        return None
    try:
        with open(f"/proc/net/{local[0]}", encoding="ascii", errors="replace") as fh:
            rows = fh.read().splitlines()[1:]
    except OSError:
        return None
    for row in rows:
        parts = row.split()
        if len(parts) > 9 and parts[1] == local[1] and parts[2] == remote[1]:
            return int(parts[9]) if parts[9].isdigit() and parts[9] != "0" else None
    return None


def holder(inode: int, first: Sequence[int] = ()) -> int | None:
    """The process that holds socket `inode` (one this user may look into). The processes of
    `first` are looked into before the others: a client that connected before most likely holds
    the new connection too, and then the other processes' descriptors are not read at all (as
    root, that is every process of the machine)."""
    target = f"socket:[{inode}]"
    me = os.getpid()
    for pid in first:
        if pid != me and _holds(pid, target):
            return pid
    try:
        pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return None
    tried = set(first)
    for pid in pids:
        if pid != me and pid not in tried and _holds(pid, target):
            return pid
    return None


def _holds(pid: int, target: str) -> bool:
    folder = f"/proc/{pid}/fd"
    try:
        fds = os.listdir(folder)
    except OSError:
        return False
    for fd in fds:
        try:
            if os.readlink(f"{folder}/{fd}") == target:
                return True
        except OSError:
            continue
    return False


def _ancestors(pid: int) -> list[int]:
    found: list[int] = []
    for _ in range(MAX_DEPTH):
        if pid <= 1:
            break
        found.append(pid)
        pid = _parent(pid)
    return found


def _comm(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm", "rb") as fh:
            return fh.read(64).decode("utf-8", "replace").strip()
    except OSError:
        return "?"


def _terminal(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
        return int(fields[4]) != 0  # tty_nr: the controlling terminal
    except (OSError, IndexError, ValueError):
        return False


def _variables(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            names = {e.split(b"=", 1)[0].decode("utf-8", "replace") for e in fh.read().split(b"\0")}
    except OSError:
        return []
    return [v for v in SEEN_VARIABLES if v in names]


class Requester:
    """The peer of one connection, as far as it could be found."""

    def __init__(self, pid: int | None, client: str | None, seen: dict[str, object] | None) -> None:
        self.pid, self.client, self.seen = pid, client, seen


class Peers:
    """Finds each connection's peer once (keyed by its address: a kept-alive connection asks
    once), looking first into the processes that held the latest connections."""

    def __init__(self) -> None:
        self.mine = set(_ancestors(os.getpid()))
        self.known: dict[tuple[str, int], Requester] = {}
        self.recent: list[int] = []  # the latest connections' peer processes, newest first

    def find(self, client: tuple[str, int] | None, server: tuple[str, int] | None) -> Requester:
        if client is None or server is None:
            return Requester(None, None, None)
        key = (str(client[0]), int(client[1]))
        found = self.known.get(key)
        if found is None:
            found = self._look(key, (str(server[0]), int(server[1])))
            if len(self.known) >= CACHE_SIZE:
                self.known.clear()
            self.known[key] = found
        return found

    def _look(self, client: tuple[str, int], server: tuple[str, int]) -> Requester:
        inode = socket_inode(client, server)
        pid = holder(inode, self.recent) if inode is not None else None
        if pid is None:
            return Requester(None, None, None)
        self.recent = [pid, *(p for p in self.recent if p != pid)][:RECENT]
        line = [p for p in _ancestors(pid) if p not in self.mine]  # up to the board's own
        agent = None
        for p in line:
            agent = _client_of(p)
            if agent is not None:
                agent = f"{agent} (pid {p})"
                break
        variables = _variables(pid)
        # taskproto's own suite run inside an agent client: processes it started before it
        # dropped the client's variables (a browser) still carry them; their ancestry is checked
        by_variables = os.environ.get(IGNORE_ANCESTRY) != "1"
        if agent is None and by_variables and any(v in AGENT_VARIABLES for v in variables):
            agent = f"a process with {', '.join(v for v in variables if v in AGENT_VARIABLES)}"
        seen = {
            "terminal": _terminal(pid),
            "processes": [_comm(p) for p in _ancestors(pid)],
            "variables": variables,
            "pid": pid,
        }
        return Requester(pid, agent, seen)

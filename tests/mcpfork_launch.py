"""Started by an MCP client in a `taskproto mcp` server's place (tests/mcpfork.py): hands this
process's stdin, stdout and stderr, folder, environment and arguments to the zygote, which forks
the server; passes on a signal the client sends; exits as the server did.

    python -I tests/mcpfork_launch.py ZYGOTE_SOCKET ARG...   (as `python -m taskproto ARG...`)

The standard library only: its start is the interpreter's alone.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys


def main(argv: list[str]) -> int:
    path, args = argv[0], argv[1:]
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    sock.connect(path)
    request = json.dumps({"argv": args, "cwd": os.getcwd(), "env": dict(os.environ)}).encode()
    socket.send_fds(sock, [request], [0, 1, 2])
    pid = json.loads(sock.recv(256))["pid"]

    def forward(signum: int, _frame: object) -> None:
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            pass

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, forward)
    # Its own copies closed: the server alone holds the client's pipes.
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)
    answer = sock.recv(256)
    if not answer:
        return 1  # the zygote went
    code = int(json.loads(answer)["code"])
    if code < 0:  # ended by a signal: so does this process, as the client would see the server
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

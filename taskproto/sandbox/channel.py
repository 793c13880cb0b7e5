"""The inside end of an agent's channel (docs/sandbox.md, "The channel"): what taskproto's CLI and
the clients' hooks do in the sandbox, where taskproto's root is hidden. They send the question to
the Unix socket bound at `INSIDE` and print the answer; the server outside (`serve.py`) answers as
the agent it was made for, whatever the request says.

Standard library only, imported only when TASKPROTO_CHANNEL is set: a hook's call is a connect, a
write and a read.
"""

from __future__ import annotations

import os
import socket
import sys

INSIDE = "/tmp/taskproto-channel"  # where the socket is bound in every agent's sandbox
ENV = "TASKPROTO_CHANNEL"
LIMIT = 1 << 20  # a request's and an answer's largest size
TIMEOUT = 120.0  # seconds an answer may take (a transition's checks may run a while)
TOOL_DENY = 2


def ask(request: dict[str, object], path: str | None = None) -> tuple[int, str, str]:
    """Send one request; (exit code, stdout, stderr) of its answer. Raises OSError or ValueError
    when the channel cannot be reached or answers nonsense."""
    from taskproto.plainjson import dumps, loads

    data = dumps(request).encode()
    if len(data) > LIMIT:
        raise ValueError("the request is larger than the channel takes (1 MiB)")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(TIMEOUT)
        sock.connect(path or os.environ.get(ENV) or INSIDE)
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        chunks: list[bytes] = []
        size = 0
        while chunk := sock.recv(65536):
            chunks.append(chunk)
            size += len(chunk)
            if size > LIMIT:
                raise ValueError("the answer is larger than the channel takes")
    answer = loads(b"".join(chunks).decode("utf-8"))
    if not isinstance(answer, dict) or not isinstance(answer.get("code"), int):
        raise ValueError("the channel's answer is not one")
    return answer["code"], str(answer.get("out") or ""), str(answer.get("err") or "")


def hook(client: str, event: str, payload: bytes) -> tuple[int, str, str]:
    """One hook call answered outside. A channel that cannot answer denies a tool call (exit 2)
    and lets a lifecycle event pass with a warning, as the hook itself does when it fails."""
    try:
        return ask(
            {
                "kind": "hook",
                "client": client,
                "event": event,
                "payload": payload.decode("utf-8", "replace"),
            }
        )
    except (OSError, ValueError) as exc:
        why = f"taskproto's channel did not answer ({type(exc).__name__}: {exc})"
        if event in ("PreToolUse", "BeforeTool"):
            return TOOL_DENY, "", f"taskproto: {why}, so this tool call is denied\n"
        return 0, "", f"taskproto: warning: {why}; nothing done\n"


def cli(argv: list[str]) -> int:
    """`taskproto ARGS` inside the sandbox: run outside by the channel, as the agent.
    `taskproto hook CLIENT EVENT` (a client's hook command) is a hook call."""
    if len(argv) == 3 and argv[0] == "hook" and not argv[1].startswith("-"):
        try:
            data = sys.stdin.buffer.read(LIMIT)
        except (OSError, ValueError):
            data = b""
        code, out, err = hook(argv[1], argv[2], data)
        sys.stdout.write(out)
        sys.stderr.write(err)
        return code
    try:
        code, out, err = ask({"kind": "cli", "argv": argv, "cwd": os.getcwd()})
    except (OSError, ValueError) as exc:
        sys.stderr.write(
            f"taskproto: taskproto's channel did not answer ({type(exc).__name__}: {exc}); "
            "the agent's sandbox reaches the protocol only through it: ask the user to restart "
            "the agent\n"
        )
        return 1
    sys.stdout.write(out)
    sys.stderr.write(err)
    return code

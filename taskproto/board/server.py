"""`taskproto board`: bind, print the URL with the one-time token, serve until interrupted."""

from __future__ import annotations

import ipaddress
import socket
import webbrowser
from collections.abc import Callable

from taskproto.board.app import build_app
from taskproto.board.security import allowed_hosts, new_token
from taskproto.config import Config
from taskproto.errors import TaskprotoError


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (port 0: any free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise TaskprotoError(
            f"cannot listen on {host}:{port} ({exc.strerror or exc}); pick another --port"
        ) from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def serve(
    config: Config,
    host: str = "127.0.0.1",
    port: int = 0,
    open_browser: bool = True,
    say: Callable[[str], None] = print,
    doctor: bool = True,
) -> None:
    import uvicorn

    sock = bind(host, port)
    port = sock.getsockname()[1]
    token = new_token()
    base = f"http://{url_host(host)}:{port}"  # the notifications link here: no token
    app = build_app(
        config, token, allowed_hosts(url_host(host), port), port, doctor=doctor, address=base
    )
    url = f"{base}/?token={token}"
    if not is_loopback(host):
        say(
            f"taskproto board: warning: listening on {host}, not loopback: anyone who can reach it "
            "and has the URL can approve for you"
        )
    say(f"taskproto board for {config.repo}")
    say(f"    {url}")
    say("Open the URL above (it carries a one-time token); Ctrl-C stops the board.")
    if open_browser:
        webbrowser.open(url)
    server = uvicorn.Server(
        uvicorn.Config(
            app, log_level="warning", access_log=False, lifespan="on", timeout_graceful_shutdown=2
        )
    )
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()

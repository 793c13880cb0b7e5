"""Who may talk to the board: the one-time token, the Host and the Origin (an ASGI middleware).

- Every request needs the token: `Authorization: Bearer T` or `X-Taskproto-Token: T` (scripts),
  or the cookie set when the printed URL (`/?token=T`) is opened; that first request is
  redirected to the same page without the token, so it does not stay in the address bar.
- The Host header must name the board's own address (a DNS-rebinding page has a foreign Host).
- An Origin header, when present, must be the board's own (cross-site requests from other
  pages, other ports included, are refused); a write authorized by the cookie must carry it.
- The loopback peer's process, where the OS says which it is (board/peer.py), must not descend
  from an agent client; its context goes with what the request records (an approval's `seen`).
- The token lives only in this process's memory and the printed URL. The cookie is HttpOnly,
  SameSite=Strict and named for the port, so two boards on one host do not clobber each other.
- A browser opening a page (`/`, `/tasks/T`: a notification's link, which carries no token)
  without the token or the cookie, or from another site (a chat's link, where the Strict cookie
  is not sent), gets a page that holds no data: a field for the token and a link to the same
  page, which, followed from the board's own origin, sends the cookie this browser has.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, urlencode

from taskproto.board.peer import Peers

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SAFE_METHODS = {"GET", "HEAD"}
REQUESTER = "taskproto.requester"  # the scope's key for the requester's context (board/peer.py)
HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


def new_token() -> str:
    return secrets.token_urlsafe(32)


def allowed_hosts(host: str, port: int) -> set[str]:
    """The Host values that name this board: the bound address and the loopback names."""
    names = {host, "127.0.0.1", "localhost", "[::1]"}
    if ":" in host and not host.startswith("["):
        names.add(f"[{host}]")
    return {f"{n}:{port}" for n in names}


class Guard:
    """Refuses requests without the token, with a foreign Host, or from a foreign Origin."""

    def __init__(self, app: ASGIApp, token: str, hosts: set[str], port: int) -> None:
        self.app = app
        self.token = token
        self.hosts = {h.lower() for h in hosts}
        self.origins = {f"http://{h}" for h in self.hosts}
        self.cookie = f"taskproto_board_{port}"
        self.peers = Peers()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            return  # no websockets: closing without accepting refuses them
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        method = scope["method"]
        host = headers.get("host", "").lower()
        if host not in self.hosts:
            await _refuse(send, 403, "foreign Host: open the board by the address it printed")
            return
        origin = headers.get("origin")
        if origin is not None and origin.lower() not in self.origins:
            await _refuse(send, 403, "foreign Origin: the board accepts requests only from itself")
            return
        page = (
            method in SAFE_METHODS
            and _is_page(str(scope.get("path", "")))
            and "text/html" in headers.get("accept", "")
        )
        if headers.get("sec-fetch-site") == "cross-site":
            if page and "token" not in scope.get("query_string", b"").decode("latin-1"):
                await _ask(send)  # a link followed from elsewhere: no data, ask
                return
            await _refuse(send, 403, "cross-site request refused")
            return
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        given = query.get("token")
        if given is not None and method in SAFE_METHODS and self._valid(given):
            await self._set_cookie_and_redirect(scope, query, send)
            return
        by_header = self._valid(_header_token(headers))
        by_cookie = self._valid(_cookie(headers.get("cookie", ""), self.cookie))
        if not by_header and not by_cookie:
            if page:
                await _ask(send)
                return
            await _refuse(
                send, 401, "the board needs its token: open the URL `taskproto board` printed"
            )
            return
        if method not in SAFE_METHODS and not by_header and origin is None:
            await _refuse(send, 403, "a write from a browser must carry its Origin")
            return
        requester = self.peers.find(scope.get("client"), scope.get("server"))
        if requester.client is not None:
            await _refuse(
                send,
                403,
                f"the request comes from a process under {requester.client}: the board is the "
                "user's; agents act through their hooks and `taskproto` commands",
            )
            return
        scope[REQUESTER] = requester.seen
        await self.app(scope, receive, _with_headers(send))

    def _valid(self, given: str | None) -> bool:
        return bool(given) and secrets.compare_digest(str(given).encode(), self.token.encode())

    async def _set_cookie_and_redirect(
        self, scope: Scope, query: dict[str, str], send: Send
    ) -> None:
        rest = {k: v for k, v in query.items() if k != "token"}
        location = scope.get("path", "/") + (f"?{urlencode(rest)}" if rest else "")
        cookie = f"{self.cookie}={self.token}; Path=/; HttpOnly; SameSite=Strict"
        await send(
            {
                "type": "http.response.start",
                "status": 303,
                "headers": [
                    (b"location", location.encode("latin-1", "replace")),
                    (b"set-cookie", cookie.encode()),
                    *HEADERS,
                ],
            }
        )
        await send({"type": "http.response.body", "body": b""})


def _header_token(headers: dict[str, str]) -> str | None:
    auth = headers.get("authorization", "")
    if auth[:7].lower() == "bearer ":
        return auth[7:].strip()
    return headers.get("x-taskproto-token")


def _cookie(raw: str, name: str) -> str | None:
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(raw)
    except Exception:  # noqa: BLE001 - a malformed cookie header is no token
        return None
    morsel = jar.get(name)
    return morsel.value if morsel is not None else None


def _with_headers(send: Send) -> Send:
    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            names = {k.lower() for k, _ in message.get("headers", [])}
            message["headers"] = list(message.get("headers", [])) + [
                (k, v) for k, v in HEADERS if k not in names
            ]
        await send(message)

    return wrapped


def _is_page(path: str) -> bool:
    return path == "/" or (path.startswith("/tasks/") and "/" not in path[len("/tasks/") :])


ASK = b"""<!doctype html>
<html><head><meta charset="utf-8"><title>taskproto board</title></head><body>
<h1>taskproto board</h1>
<p>The board needs its token.</p>
<p>Opened the board in this browser before? <a href="">Continue to this page</a>.</p>
<form method="get" action="">
<label>Else paste the token from the URL <code>taskproto board</code> printed (after
<code>?token=</code>): <input name="token" type="password" autocomplete="off" required></label>
<button type="submit">Open</button>
</form>
</body></html>
"""


async def _ask(send: Send) -> None:
    """The page a browser gets without the token: nothing of the repository's, only the ways in
    (the cookie, through a same-origin link; or the token, which the guard turns into it)."""
    await send(
        {
            "type": "http.response.start",
            "status": 401,
            "headers": [
                (b"content-type", b"text/html; charset=utf-8"),
                (b"content-length", str(len(ASK)).encode()),
                *HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": ASK})


async def _refuse(send: Send, status: int, reason: str) -> None:
    body = (f"taskproto board: {reason}\n").encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                *HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})

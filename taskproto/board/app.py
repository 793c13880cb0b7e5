"""The board as an ASGI app: the pages, the API and the event stream behind the token guard, and
the file watcher running for the app's life."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from starlette.applications import Starlette

from taskproto.board import agents, api, controls, pages
from taskproto.board.security import ASGIApp, Guard
from taskproto.board.state import BoardState
from taskproto.board.watch import watch
from taskproto.config import Config


def build_app(
    config: Config,
    token: str,
    hosts: set[str],
    port: int,
    doctor: bool = True,
    force_polling: bool | None = None,
    address: str | None = None,
) -> ASGIApp:
    """The board's app behind its guard. `address` (`http://host:port`, no token): recorded
    while it serves, for the links of the notifications (ops/notify.py)."""
    state = BoardState(config, doctor_enabled=doctor)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        stop = anyio.Event()
        async with anyio.create_task_group() as group:
            state.task_group = group
            group.start_soon(watch, config, state.publish, stop, force_polling)
            group.start_soon(state.keep_claims, stop)
            group.start_soon(state.warm)  # every task read once, before the first page asks
            if doctor:
                await state.run_doctor()
            from taskproto.ops import notify

            published = notify.publish_board(config.layout, address) if address else None
            try:
                yield
            finally:
                if published:  # here, not after the server: uvicorn re-raises SIGTERM
                    notify.withdraw_board(published)
                stop.set()
                group.cancel_scope.cancel()

    app = Starlette(
        routes=[*pages.ROUTES, *api.ROUTES, *controls.ROUTES, *agents.ROUTES], lifespan=lifespan
    )
    app.state.board = state
    return Guard(app, token, hosts, port)

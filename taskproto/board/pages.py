"""The board's HTML pages and its event stream.

Pages are rendered here with jinja2 (autoescaped); the script on the page only swaps in fresh
server-rendered sections (`/partial/...`) when the event stream (`GET /events`) says something
changed, so there is one renderer and no HTML is built from strings in the browser.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import jinja2
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from taskproto import plainjson as json
from taskproto.board import snapshot
from taskproto.board.api import gone_line
from taskproto.board.state import BoardState
from taskproto.errors import InvalidName, TaskNotFound, TaskprotoError
from taskproto.git.files import GIT_MISSING, git_missing

HERE = Path(__file__).resolve().parent
KEEPALIVE = 15.0  # seconds between comments on an idle stream (finds dead connections)

_env = jinja2.Environment(
    loader=jinja2.FileSystemLoader(str(HERE / "templates")),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
    undefined=jinja2.StrictUndefined,
)
_env.filters["short"] = lambda sha: (sha or "")[:12]


def _state(request: Request) -> BoardState:
    state: BoardState = request.app.state.board
    return state


def _render(name: str, **context: Any) -> str:
    return _env.get_template(name).render(**context)


def _common(state: BoardState, doctor: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "repo": str(state.config.repo),
        "session": state.session,
        "doctor": doctor or state.doctor.as_json(),
    }


def board_context(state: BoardState) -> dict[str, Any]:
    doctor = state.doctor.as_json()  # once: the cards and the summary come from the same run
    data = state.board(doctor["report"])
    by: dict[str, dict[str, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    broken = []
    for t in data["tasks"]:
        if "error" in t:
            broken.append(t)
        else:
            by[t["workflow"]][t["state"]].append(t)
    # `taskproto inbox`'s items (engine/attention.py): a doctor finding alone needs no one
    attention = [t for t in data["tasks"] if t.get("needs_you")]
    return {
        **_common(state, doctor),
        "data": data,
        "columns": data["columns"],
        "by": by,
        "broken": broken,
        "attention": attention,
        "queue": [] if data.get("problem") else snapshot.queue(state.engine()),
    }


def task_context(state: BoardState, name: str) -> dict[str, Any]:
    data, diff = snapshot.detail(state.engine(), name, state.doctor.report, viewer=state.viewer)
    at: dict[tuple[str, str, int | None], list[dict[str, Any]]] = defaultdict(list)
    for c in data["review_drafts"]:
        at[(str(c.get("target")), str(c.get("file")), c.get("line"))].append(c)
    return {**_common(state), "t": data, "diff": diff, "comments_at": at}


async def _page(request: Request, template: str, build: Any, *args: Any) -> Response:
    state = _state(request)
    try:
        context = await run_in_threadpool(build, state, *args)
    except TaskNotFound as exc:
        line = await run_in_threadpool(gone_line, state, exc)
        return PlainTextResponse(f"taskproto board: {line}\n", status_code=404)
    except InvalidName as exc:
        return PlainTextResponse(f"taskproto board: {exc}\n", status_code=404)
    except TaskprotoError as exc:
        return PlainTextResponse(f"taskproto board: {exc}\n", status_code=409)
    except Exception as exc:
        if not git_missing(exc):
            raise
        return PlainTextResponse(f"taskproto board: {GIT_MISSING}\n", status_code=409)
    return HTMLResponse(_render(template, **context))


async def index(request: Request) -> Response:
    return await _page(request, "board.html", board_context)


async def board_partial(request: Request) -> Response:
    return await _page(request, "_board.html", board_context)


async def task_page(request: Request) -> Response:
    return await _page(request, "task.html", task_context, request.path_params["name"])


async def task_partial(request: Request) -> Response:
    return await _page(request, "_task.html", task_context, request.path_params["name"])


async def events(request: Request) -> Response:
    """Server-sent events: `hello` on connect, then `change` with what changed
    ({"version", "tasks", "activity", "all"}); comments keep an idle stream alive."""
    hub = _state(request).hub

    async def stream() -> AsyncIterator[str]:
        version = hub.version
        yield f"retry: 1000\nevent: hello\ndata: {json.dumps({'version': version})}\n\n"
        while True:
            now = await hub.wait(version, KEEPALIVE)
            if await request.is_disconnected():
                return
            if now == version:
                yield ": keep-alive\n\n"
                continue
            change = hub.since(version)
            version = now
            yield f"id: {now}\nevent: change\ndata: {json.dumps(change.as_json(now))}\n\n"

    return StreamingResponse(
        stream(),
        media_type="text/event-stream",
        headers={"cache-control": "no-store", "x-accel-buffering": "no"},
    )


ROUTES = [
    Route("/", index),
    Route("/partial/board", board_partial),
    Route("/tasks/{name}", task_page),
    Route("/partial/tasks/{name}", task_partial),
    Route("/events", events),
    Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
]

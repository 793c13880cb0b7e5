"""The board's JSON API, used by its page and by scripts (token in a header).

    GET    /api/tasks                       every task's card
    GET    /api/tasks/NAME                  one task: card, log, review, plan, diff summary
    GET    /api/tasks/NAME/diff             the diff, files with hunks and numbered lines
    POST   /api/tasks/NAME/approve          {"kind": "plan"|"commit", "sha": ...}
    POST   /api/tasks/NAME/revise           {"message": ..., "trigger": ...}
    POST   /api/tasks/NAME/resume           {}
    POST   /api/tasks/NAME/comments         {"target": "diff"|"plan", "file", "line", "text"}
    DELETE /api/tasks/NAME/comments/ID
    GET    /api/doctor, POST /api/doctor    the latest report; run doctor now
    GET    /api/queue                       the merge queue, oldest first (read-only)

The task controls (create, claim, release, complete, land, remove) are in controls.py.
Every write goes through the engine (ops/review.py, ops/controls.py) as the user's session
`board:<user>`.
Errors are one line: 400 bad input, 404 no such task, 409 refused (nothing was written).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import asdict
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from taskproto import plainjson as json
from taskproto.board import snapshot
from taskproto.board.security import REQUESTER
from taskproto.board.state import BoardState
from taskproto.errors import InvalidName, TaskNotFound, TaskprotoError
from taskproto.git.files import GIT_MISSING, git_missing
from taskproto.ops import review as actions

MAX_BODY = 64 * 1024

Handler = Callable[[Request], Awaitable[Response]]


def board_state(request: Request) -> BoardState:
    state: BoardState = request.app.state.board
    return state


class BadInput(TaskprotoError):
    """400: the request itself is malformed."""


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def guarded(fn: Handler) -> Handler:
    """Map taskproto's errors to one-line JSON answers."""

    async def wrapped(request: Request) -> Response:
        try:
            return await fn(request)
        except TaskNotFound as exc:
            return error(404, await run_in_threadpool(gone_line, board_state(request), exc))
        except (InvalidName, BadInput) as exc:
            return error(400, str(exc))
        except TaskprotoError as exc:
            return error(409, str(exc))
        except Exception as exc:
            if not git_missing(exc):
                raise
            return error(409, GIT_MISSING)

    return wrapped


def gone_line(state: BoardState, exc: TaskNotFound) -> str:
    """A task that landed or was removed here said so, as the CLI says it (engine/gone.py)."""
    from taskproto.engine.gone import no_longer_here

    try:
        engine = state.engine()
    except TaskprotoError:
        return str(exc)
    return str(no_longer_here(engine, exc))


async def body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise BadInput(f"the request body is larger than {MAX_BODY} bytes")
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except ValueError:
        raise BadInput("the request body is not JSON") from None
    if not isinstance(data, dict):
        raise BadInput("the request body must be a JSON object")
    return data


def text_field(data: dict[str, Any], key: str, required: bool = False) -> str | None:
    value = data.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise BadInput(f"`{key}` must be a string")
    return value


@guarded
async def list_tasks(request: Request) -> Response:
    state = board_state(request)
    doctor = state.doctor.as_json()  # once: the cards and the summary come from the same run
    summary = {k: v for k, v in doctor.items() if k != "report"}
    body = await run_in_threadpool(state.board_json, doctor["report"], {"doctor": summary})
    return Response(body, media_type="application/json")


@guarded
async def show_task(request: Request) -> Response:
    state = board_state(request)
    data, _ = await run_in_threadpool(
        snapshot.detail,
        state.engine(),
        request.path_params["name"],
        state.doctor.report,
        True,
        state.viewer,
    )
    data.pop("svg", None)
    return JSONResponse(data)


@guarded
async def show_diff(request: Request) -> Response:
    state = board_state(request)
    data, diff = await run_in_threadpool(
        snapshot.detail, state.engine(), request.path_params["name"], None
    )
    if diff is None:
        return JSONResponse({"diff": None})
    return JSONResponse({"diff": {**diff.summary(), "files": [asdict(f) for f in diff.files]}})


@guarded
async def approve(request: Request) -> Response:
    state, data = board_state(request), await body(request)
    kind = text_field(data, "kind", required=True)
    assert kind is not None
    task = await run_in_threadpool(
        actions.approve,
        state.engine(),
        request.path_params["name"],
        state.session,
        kind,
        text_field(data, "sha"),
        request.scope.get(REQUESTER),
    )
    cp = task.checkpoint
    return JSONResponse(
        {
            "task": task.name,
            "state": task.state,
            "plan_approved": cp.plan_approval is not None,
            "commit": cp.commit_approval.sha if cp.commit_approval else None,
            "by": state.session,
        }
    )


@guarded
async def revise(request: Request) -> Response:
    state, data = board_state(request), await body(request)
    before = request.path_params["name"]
    task = await run_in_threadpool(
        actions.request_revision,
        state.engine(),
        before,
        state.session,
        text_field(data, "message") or "",
        text_field(data, "trigger"),
    )
    return JSONResponse({"task": task.name, "state": task.state, "by": state.session})


@guarded
async def resume(request: Request) -> Response:
    state = board_state(request)
    await body(request)
    task = await run_in_threadpool(
        actions.resume, state.engine(), request.path_params["name"], state.session
    )
    return JSONResponse({"task": task.name, "state": task.state, "by": state.session})


@guarded
async def add_comment(request: Request) -> Response:
    state, data = board_state(request), await body(request)
    line = data.get("line")
    if line is not None and (not isinstance(line, int) or isinstance(line, bool)):
        raise BadInput("`line` must be a whole number")
    comment = await run_in_threadpool(
        actions.add_comment,
        state.engine(),
        request.path_params["name"],
        state.session,
        text_field(data, "target", required=True) or "",
        text_field(data, "file", required=True) or "",
        line,
        text_field(data, "text", required=True) or "",
        text_field(data, "head"),
    )
    return JSONResponse({"comment": comment}, status_code=201)


@guarded
async def delete_comment(request: Request) -> Response:
    state = board_state(request)
    try:
        number = int(request.path_params["id"])
    except ValueError:
        raise BadInput("a comment id is a number") from None
    await run_in_threadpool(
        actions.delete_comment, state.engine(), request.path_params["name"], state.session, number
    )
    return JSONResponse({"deleted": number})


async def doctor_report(request: Request) -> Response:
    return JSONResponse(board_state(request).doctor.as_json())


async def doctor_run(request: Request) -> Response:
    state = board_state(request)
    await state.run_doctor()
    return JSONResponse({"running": True}, status_code=202)


@guarded
async def inbox(request: Request) -> Response:
    """What waits for the user (ops/inbox.py): the page's browser notifications read it."""
    from taskproto.ops import inbox as box

    layout = board_state(request).engine().config.layout
    return JSONResponse({"items": await run_in_threadpool(box.items, layout)})


@guarded
async def merge_queue(request: Request) -> Response:
    """The merge queue as this machine last saw it (board/snapshot.py `queue`)."""
    engine = board_state(request).engine()
    return JSONResponse({"entries": await run_in_threadpool(snapshot.queue, engine)})


ROUTES = [
    Route("/api/tasks", list_tasks),
    Route("/api/inbox", inbox),
    Route("/api/queue", merge_queue),
    Route("/api/tasks/{name}", show_task),
    Route("/api/tasks/{name}/diff", show_diff),
    Route("/api/tasks/{name}/approve", approve, methods=["POST"]),
    Route("/api/tasks/{name}/revise", revise, methods=["POST"]),
    Route("/api/tasks/{name}/resume", resume, methods=["POST"]),
    Route("/api/tasks/{name}/comments", add_comment, methods=["POST"]),
    Route("/api/tasks/{name}/comments/{id}", delete_comment, methods=["DELETE"]),
    Route("/api/doctor", doctor_report),
    Route("/api/doctor", doctor_run, methods=["POST"]),
]

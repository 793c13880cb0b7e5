"""The board's task controls, as JSON routes (docs/board.md, "Controls"):

    POST /api/tasks                  {"name", "description", "workflow", "agents", "after",
                                      "priority"}                        -> 201, the new task
    POST /api/tasks/NAME/claim       {"force": false}
    POST /api/tasks/NAME/release     {"force": false}
    POST /api/tasks/NAME/next        {"to": STATE or null, "force": false}
    POST /api/tasks/NAME/complete    {"force": false}
    POST /api/tasks/NAME/land        {"strategy": "merge"|"ff"|"squash", "push": false}
    POST /api/tasks/NAME/remove      {"force": false}

Each is the library call of its CLI command, made by the board's engine as the user's session
`board:<user>` (a claim with the board's pid: ops/controls.py), so it is refused with the CLI's
own one-line message and journaled as the user's. A refusal that `--force` would override (a live
owner, a task that waits for others, work a removal would lose) answers 409 with
`"forcible": true`: the page then asks the user to confirm, and only then sends `"force": true`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from taskproto.board.api import BadInput, board_state, body, guarded, text_field
from taskproto.engine import Engine
from taskproto.ops import controls

if TYPE_CHECKING:
    from taskproto.engine.land import Strategy

STRATEGIES = ("merge", "ff", "squash")


def _flag(data: dict[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise BadInput(f"`{key}` must be true or false")
    return value


def _names(data: dict[str, Any], key: str) -> list[str]:
    """A list of names: a JSON list of strings, or one string of names separated by commas (as
    the CLI's `--agents A,B`)."""
    value = data.get(key)
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [v.strip() for v in value if v.strip()]
    raise BadInput(f"`{key}` must be a list of names, or names separated by commas")


async def _act(
    request: Request, work: Callable[[Engine, str, bool], dict[str, Any]], force: bool
) -> Response:
    """Run `work(engine, task name, force)` in a worker thread; its answer, with who acted and the
    engine's warnings. A refusal that force would override is marked `forcible`."""
    state = board_state(request)
    engine = state.engine()
    name = request.path_params["name"]
    try:
        data = await run_in_threadpool(work, engine, name, force)
    except controls.FORCIBLE as exc:
        return JSONResponse({"error": str(exc), "forcible": not force}, status_code=409)
    return JSONResponse({**data, "by": state.session, "warnings": engine.warnings})


@guarded
async def create(request: Request) -> Response:
    from taskproto.engine.summary import task_summary
    from taskproto.ops.creation import create as create_task

    state, data = board_state(request), await body(request)
    priority = data.get("priority", 2)
    if not isinstance(priority, int) or isinstance(priority, bool):
        raise BadInput("`priority` must be a whole number, 0 (most urgent) to 4")
    engine = state.engine()

    def work() -> dict[str, Any]:
        task = create_task(
            engine,
            text_field(data, "name", required=True) or "",
            _names(data, "agents"),
            workflow=text_field(data, "workflow") or "task-protocol",
            description=text_field(data, "description") or "",
            session=state.session,
            after=_names(data, "after"),
            priority=priority,
        )
        return task_summary(task, engine)

    task = await run_in_threadpool(work)
    return JSONResponse(
        {"task": task, "by": state.session, "warnings": engine.warnings}, status_code=201
    )


@guarded
async def claim(request: Request) -> Response:
    state = board_state(request)
    viewer = state.viewer

    def work(engine: Engine, name: str, force: bool) -> dict[str, Any]:
        result = engine.claim(name, viewer.session, viewer.pid, force)
        state.claimed.add(name)  # its heartbeat renewed while the board runs (state.py)
        previous = result.previous
        return {
            "task": result.task.name,
            "state": result.task.state,
            "session": viewer.session,
            "pid": viewer.pid,
            "outcome": result.outcome,
            "previous_owner": previous.session if previous else None,
            "reason": result.reason,
        }

    return await _act(request, work, _flag(await body(request), "force"))


@guarded
async def release(request: Request) -> Response:
    session = board_state(request).session

    def work(engine: Engine, name: str, force: bool) -> dict[str, Any]:
        task = engine.release(name, session, force)
        return {"task": task.name, "state": task.state, "owner": None}

    return await _act(request, work, _flag(await body(request), "force"))


@guarded
async def complete(request: Request) -> Response:
    session = board_state(request).session

    def work(engine: Engine, name: str, force: bool) -> dict[str, Any]:
        from taskproto.hooks.flags import warm

        task = controls.complete(engine, name, session, force)
        warm(engine.config.layout, {task.workflow})  # as `taskproto transition` does
        before = task.transition_log[-1].from_state
        return {"task": task.name, "from": before, "to": task.state, "revision": task.revision}

    return await _act(request, work, _flag(await body(request), "force"))


@guarded
async def next_step(request: Request) -> Response:
    """`taskproto next NAME [--to STATE]`: refused (409, nothing written) when no step goes ahead;
    a walk that stopped after some steps answers them, with `reached: false` and why."""
    session, data = board_state(request).session, await body(request)
    target = text_field(data, "to")

    def work(engine: Engine, name: str, force: bool) -> dict[str, Any]:
        from taskproto.hooks.flags import warm

        walked = engine.next(name, target.upper() if target else None, session, force)
        warm(engine.config.layout, {engine.load(name).workflow})  # as `taskproto next` does
        return walked.as_json()

    return await _act(request, work, _flag(data, "force"))


@guarded
async def land(request: Request) -> Response:
    session, data = board_state(request).session, await body(request)
    strategy = text_field(data, "strategy") or "merge"
    if strategy not in STRATEGIES:
        raise BadInput(f"`strategy` is one of {', '.join(STRATEGIES)}, not {strategy!r}")
    push = _flag(data, "push")

    def work(engine: Engine, name: str, force: bool) -> dict[str, Any]:
        report = engine.land(name, cast("Strategy", strategy), push, None, session)
        return report.as_json()

    return await _act(request, work, False)


@guarded
async def remove(request: Request) -> Response:
    session = board_state(request).session

    def work(engine: Engine, name: str, force: bool) -> dict[str, Any]:
        return engine.remove_task(name, force, session).report(name, force)

    return await _act(request, work, _flag(await body(request), "force"))


ROUTES = [
    Route("/api/tasks", create, methods=["POST"]),
    Route("/api/tasks/{name}/claim", claim, methods=["POST"]),
    Route("/api/tasks/{name}/release", release, methods=["POST"]),
    Route("/api/tasks/{name}/next", next_step, methods=["POST"]),
    Route("/api/tasks/{name}/complete", complete, methods=["POST"]),
    Route("/api/tasks/{name}/land", land, methods=["POST"]),
    Route("/api/tasks/{name}/remove", remove, methods=["POST"]),
]

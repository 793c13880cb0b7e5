"""The board's agent controls, as JSON routes (docs/board.md, "Agents"):

    GET  /api/agents                                  every agent taskproto runs (`agent ps`)
    POST /api/tasks/NAME/agents/AGENT/start           {"client": "claude", "headless": false,
                                                       "prompt": null, "sandbox": "auto"}
    POST /api/tasks/NAME/agents/AGENT/stop|pause|resume|restart

Each is the library call of its CLI command (ops/agent_control.py), made by the board as the user,
so it is refused with the CLI's own one-line message (409).
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from taskproto.board.agents_view import with_activity
from taskproto.board.api import BadInput, board_state, body, guarded, text_field
from taskproto.names import agent_name, task_name
from taskproto.ops import agent_control

ACTIONS = ("stop", "pause", "resume", "restart")


@guarded
async def list_agents(request: Request) -> Response:
    engine = board_state(request).engine()

    def work() -> list[dict[str, Any]]:
        return with_activity(agent_control.rows(engine), engine.config)

    return JSONResponse({"agents": await run_in_threadpool(work)})


@guarded
async def act(request: Request) -> Response:
    engine = board_state(request).engine()
    name = task_name(request.path_params["name"])
    agent = agent_name(request.path_params["agent"])
    action = request.path_params["action"]
    data = await body(request)
    if action == "start":
        headless = data.get("headless", False)
        if not isinstance(headless, bool):
            raise BadInput("`headless` must be true or false")
        client = text_field(data, "client")  # claude, codex, gemini or a command line
        client = "claude" if client is None else client  # an empty one is refused as the CLI's
        prompt = text_field(data, "prompt")
        sandbox = text_field(data, "sandbox") or "auto"  # auto, bwrap or none, as --sandbox

        def start() -> dict[str, Any]:
            return agent_control.start(engine, name, agent, client, headless, prompt, sandbox)

        return JSONResponse(await run_in_threadpool(start))
    if action not in ACTIONS:
        raise BadInput(f"an agent's action is start or {', '.join(ACTIONS)}, not {action!r}")
    done = await run_in_threadpool(getattr(agent_control, action), engine, name, agent)
    return JSONResponse(done)


ROUTES = [
    Route("/api/agents", list_agents),
    Route("/api/tasks/{name}/agents/{agent}/{action}", act, methods=["POST"]),
]

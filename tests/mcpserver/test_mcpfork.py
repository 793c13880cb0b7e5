"""tests/mcpfork.py, which forks the tests' `taskproto mcp` servers from one interpreter that has
imported the SDK: a forked server answers over the client's pipes as a started one does, in a
process of its own with the client's folder and environment, and its CPU is counted."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

from taskproto.config import load_config
from taskproto.engine import Engine
from tests import mcpfork
from tests.conftest import make_repo

from .conftest import TIMEOUT, ok, refused, server_env


async def answers(command: str, args: list[str], repo: Path, env: dict[str, str]) -> list[Any]:
    """What one server says: its tools, `status`, a claim, a refusal, and its own pid."""
    params = StdioServerParameters(command=command, args=args, env=env, cwd=str(repo))
    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write, read_timeout_seconds=TIMEOUT) as client,
    ):
        await client.initialize()
        tools = sorted(t.name for t in (await client.list_tools()).tools)
        status = [(t["name"], t["state"], t["mine"]) for t in (await ok(client, "status"))["tasks"]]
        claimed = await ok(client, "claim", task="t1")
        again = await refused(client, "claim", task="nope")
        released = await ok(client, "release", task="t1")
        return [tools, status, claimed, again, released]


def a_repository(folder: Path) -> Path:
    repo = make_repo(folder)
    Engine(load_config(repo)).create_task("t1", agents=["dev"], description="the first task")
    return repo


def test_a_forked_server_answers_as_a_started_one(tmp_path: Path) -> None:
    env = server_env({"TASKPROTO_SESSION": "s1"})
    argv = ["mcp"]
    command, args = mcpfork.server_command(argv, env)
    assert args[:2] == ["-I", str(mcpfork.LAUNCHER)]  # forked, not started
    before = mcpfork.children_cpu()
    forked = anyio.run(answers, command, args, a_repository(tmp_path / "forked"), env)
    # the server ended with the client's end, and its CPU seconds were counted
    assert mcpfork.children_cpu() > before
    started = anyio.run(
        answers, sys.executable, ["-m", "taskproto", *argv], a_repository(tmp_path / "started"), env
    )
    assert forked == started
    assert forked[2]["session"] == "s1"  # the environment reached the server


def test_pythons_own_variables_start_a_server(tmp_path: Path) -> None:
    """A PYTHON variable is read at Python's start: a server given one is started, not forked."""
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    assert mcpfork.server_command(["mcp"], env) == (
        sys.executable,
        ["-m", "taskproto", "mcp"],
    )

"""Every MCP tool that takes a task's name refuses a task that landed (or was removed) here with
the CLI's own line, made by one function (engine/gone.py), instead of a third wording that offers to
create it again; a task that never was is told as before. The real `taskproto mcp` process driven
by the SDK's client, the CLI as a subprocess, real repositories."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio

from taskproto.config import load_config
from taskproto.engine import Engine
from tests.conftest import git, make_repo
from tests.landing.conftest import SESSION, approved_task
from tests.remote.remote_servers import ok, tp

from .conftest import connect, refused

# Every tool that takes a task's name, with arguments it would otherwise accept.
TOOLS: list[tuple[str, dict[str, Any]]] = [
    ("status", {}),
    ("claim", {}),
    ("release", {}),
    ("heartbeat", {}),
    ("transition", {"state": "CLASSIFIED"}),
    ("agent_set_status", {"agent": "dev", "status": "WORKING"}),
    ("record_interruption", {"text": "stop for a moment"}),
    ("merge", {}),
    ("diff", {}),
    ("prompt", {}),
    ("submit_artifact", {"artifact": {}}),
    ("handoff", {"to": "EXECUTE", "decision": "NO"}),
    (
        "round_decide",
        {"acceptance": "pass", "risks": "pass", "validation": "documented", "note": "n"},
    ),
]


def _said(name: str, what: str) -> str:
    return (
        f"taskproto: task {name!r} {what}: it is no task here any more, its journal is kept "
        f"(`taskproto log {name}` shows its history)"
    )


def test_every_task_tool_says_a_landed_or_removed_task_is_gone_as_the_cli_does(
    tmp_path: Path,
) -> None:
    repo = make_repo(tmp_path / "a")
    engine = Engine(load_config(repo))
    approved_task(engine, "t", {"t.py": "t = 1\n"})
    ok(repo, "land", "t", session=SESSION)
    ok(repo, "task", "create", "gone")
    ok(repo, "task", "remove", "gone")
    refs = git(repo, "for-each-ref", "--format=%(refname) %(objectname)", "refs/taskproto/")
    cli = tp(repo, "heartbeat", "t", session=SESSION)
    assert cli.stderr.strip() == _said("t", "landed"), cli
    lines: dict[tuple[str, str], str] = {}

    async def main() -> None:
        async with connect(repo, SESSION) as client:
            for tool, args in TOOLS:
                for name in ("t", "gone", "never"):
                    lines[tool, name] = await refused(client, tool, task=name, **args)

    anyio.run(main)
    for tool, _ in TOOLS:
        assert lines[tool, "t"] == _said("t", "landed") == cli.stderr.strip(), tool
        assert lines[tool, "gone"] == _said("gone", "was removed"), tool
        never = lines[tool, "never"]
        assert "no task named 'never'" in never and "task create never" in never, (tool, never)
    assert git(repo, "for-each-ref", "--format=%(refname) %(objectname)", "refs/taskproto/") == refs

"""The MCP doors of two lines the CLI's tests cover: a heartbeat that finds a half-written
heartbeat.json sets it aside as heartbeat.json.corrupt-<time> and says so (the CLI's warning and
`--json`'s `set_aside`: tests/test_heartbeat_corrupt.py), and the refusal of a command only a
task's owner may run when the owner recorded here holds no claim on the shared remote (the CLI's
line names `taskproto sync`: tests/remote/test_stale_owner_claims.py). The real `taskproto mcp`
process, the CLI as a subprocess, a bare remote on disk and two clones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio

from tests.remote.remote_servers import ok, tp
from tests.remote.test_stale_owner_claims import _two_clones
from tests.test_heartbeat_corrupt import HALF, SET_ASIDE

from .conftest import connect, refused
from .conftest import ok as tool_ok

pytest_plugins = ["tests.test_heartbeat_corrupt"]  # its half_written fixture


def test_the_heartbeat_tool_names_the_half_written_file_it_set_aside(
    half_written: Path, repo: Path
) -> None:
    folder = half_written
    results: list[dict[str, Any]] = []

    async def main() -> None:
        async with connect(repo, "s1") as client:
            for _ in range(2):
                results.append(await tool_ok(client, "heartbeat", task="t1"))

    anyio.run(main)
    [kept] = sorted(folder.glob("heartbeat.json.corrupt-*"))
    assert kept.read_bytes() == HALF
    first, second = results
    assert first["set_aside"] == kept.name, first
    assert first["warnings"] == [f"{SET_ASIDE}{kept.name}, a new one written"], first
    assert b'"session": "s1"' in (folder / "heartbeat.json").read_bytes()
    assert (second["set_aside"], second["warnings"]) == (None, []), second  # said once


def test_the_stale_owner_refusal_names_taskproto_sync_through_mcp(tmp_path: Path) -> None:
    a, b = _two_clones(tmp_path)
    ok(a, "release", "t", session="alice")  # on the remote; b has not synced
    task_json = b / ".taskproto" / "tasks" / "t" / "task.json"
    before = task_json.read_bytes()
    lines: dict[str, str] = {}

    async def main() -> None:
        async with connect(b, "bob") as client:
            for tool in ("release", "claim"):
                lines[tool] = await refused(client, tool, task="t")

    anyio.run(main)
    for tool in ("release", "claim"):
        cli = tp(b, tool, "t", session="bob").stderr.strip()
        assert "that claim may be stale: remote 'shared' holds no claim on it" in cli
        assert lines[tool] == cli, (tool, lines[tool], cli)
        assert lines[tool].count("\n") == 0
        assert lines[tool].endswith("run `taskproto sync`, then try again"), lines[tool]
    assert task_json.read_bytes() == before  # nothing written

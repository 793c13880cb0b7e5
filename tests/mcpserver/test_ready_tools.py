"""The ready queue through the MCP server: the `ready` tool, an unnamed `claim`, and a blocked
claim refused with the CLI's own line (no way to force it through this door: the line names the
user's command instead)."""

from __future__ import annotations

from pathlib import Path

import anyio

from taskproto.engine import Engine
from taskproto.state import journal
from tests.conftest import run_taskproto

from .conftest import connect, ok, refused


def test_ready_and_unnamed_claim_follow_the_queue(engine: Engine, repo: Path) -> None:
    engine.create_task("base", priority=3)
    engine.create_task("next", after=["base"], priority=0)
    engine.create_task("urgent", priority=1)
    before = engine.config.task_file("next").read_bytes(), journal.head(engine.git, "next")
    cli_refusal = run_taskproto("--session", "s1", "claim", "next", cwd=repo)
    assert cli_refusal.code == 1

    async def main() -> None:
        async with connect(repo, "s1") as client:
            queue = await ok(client, "ready")
            assert [r["name"] for r in queue["ready"]] == ["urgent", "base"]
            assert queue["not_ready"] == []
            full = await ok(client, "ready", all=True)
            (blocked,) = full["not_ready"]
            assert blocked["name"] == "next" and blocked["waits_for"][0]["task"] == "base"
            line = await refused(client, "claim", task="next")
            # the CLI's line, its --force the user's command (test_force_by_hand.py)
            assert line == cli_refusal.err.strip().replace(
                "claim it anyway with --force (the user's, logged)",
                "ask the user to claim it anyway with `taskproto claim next --force` in their "
                "own terminal (logged)",
            )
            assert (await ok(client, "claim"))["task"] == "urgent"
            status = await ok(client, "status", task="next")
            assert status["tasks"][0]["depends_on"] == ["base"]
        async with connect(repo, "s2") as client:
            assert (await ok(client, "claim"))["task"] == "base"
            assert (await ok(client, "ready"))["ready"] == []

    anyio.run(main)
    assert (
        engine.config.task_file("next").read_bytes(),
        journal.head(engine.git, "next"),
    ) == before

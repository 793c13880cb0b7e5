"""Four MCP clients, each with its own `taskproto mcp` process, 50 calls each on one task: no lost
update."""

from __future__ import annotations

import itertools
import subprocess
from pathlib import Path

import anyio

from taskproto.engine import Engine
from taskproto.state import journal
from tests.conftest import git

from .conftest import connect, text

CLIENTS = 4
CALLS = 50  # per client: 20 interruptions, 15 heartbeats, 15 transitions (every call counted)


def test_200_calls_from_four_servers_lose_no_update(engine: Engine, repo: Path) -> None:
    engine.create_task("t1")
    for target in ("CLASSIFIED", "REQUIREMENTS", "SYNTHESIS"):
        engine.fire("t1", target=target)
    engine.approve("t1", "plan", "user")
    engine.fire("t1", target="IMPLEMENTATION")
    # One session served by four processes (as when a client runs subagents, each with its server).
    engine.claim("t1", "s1", pid=subprocess.os.getpid())
    start = engine.load("t1")
    commits_before = int(git(repo, "rev-list", "--count", journal.ref_for("t1")))
    outcomes: list[tuple[str, bool]] = []

    async def client(index: int) -> None:
        async with connect(repo, "s1") as session:
            for call in range(CALLS):
                kind = call % 10
                if kind < 4:
                    # Resumptions: a question would pause the agent's transitions (tested
                    # elsewhere).
                    result = await session.call_tool(
                        "record_interruption",
                        {"task": "t1", "text": f"client {index} call {call}: continue"},
                    )
                    outcomes.append(("record", not result.is_error))
                    assert not result.is_error, text(result)
                elif kind < 7:
                    result = await session.call_tool("heartbeat", {"task": "t1"})
                    outcomes.append(("heartbeat", not result.is_error))
                    assert not result.is_error, text(result)
                else:
                    # Toggle between the two states; a racer may have moved it first: then refused.
                    target = "VALIDATION" if (index + call) % 2 else "IMPLEMENTATION"
                    result = await session.call_tool("transition", {"task": "t1", "state": target})
                    outcomes.append(("transition", not result.is_error))
                    if result.is_error:
                        assert "refused in" in text(result), text(result)

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            for i in range(CLIENTS):
                tg.start_soon(client, i)

    anyio.run(main)

    assert len(outcomes) == CLIENTS * CALLS == 200
    records = sum(1 for kind, good in outcomes if kind == "record" and good)
    beats = sum(1 for kind, good in outcomes if kind == "heartbeat" and good)
    moves = sum(1 for kind, good in outcomes if kind == "transition" and good)
    assert records == 80 and beats == 60 and moves >= 1

    final = engine.load("t1")
    # Every successful write is one revision; none was lost to a concurrent writer.
    assert final.revision == start.revision + records + moves  # heartbeats are not revisions
    assert final.interruption_count == records
    log, interruptions = engine.whole_log("t1")  # task.json holds their tails: the journal all
    assert sorted(i.text for i in interruptions) == sorted(
        f"client {c} call {n}: continue" for c in range(CLIENTS) for n in range(CALLS) if n % 10 < 4
    )
    new_moves = [e for e in log[start.log_count :] if e.kind == "transition"]
    assert len(new_moves) == moves
    for before, after in itertools.pairwise(new_moves):
        assert (
            after.from_state == before.to_state
        )  # a chain: no transition fired from a stale state
    assert final.state == ("VALIDATION" if moves % 2 else "IMPLEMENTATION")
    assert final.state == new_moves[-1].to_state
    # The journal has one commit per recorded change (heartbeats are liveness, not history).
    commits = int(git(repo, "rev-list", "--count", journal.ref_for("t1")))
    assert commits - commits_before == records + moves
    assert final.owner is not None and final.owner.session == "s1"

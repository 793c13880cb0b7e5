"""An MCP caller cannot pass `--force`, and forcing is the user's: a refusal the CLI would let
`--force` override comes back through the MCP server naming the command the user runs by hand, in
their own terminal, never the bare option (docs/mcp.md)."""

from __future__ import annotations

import re
from pathlib import Path

import anyio

from taskproto.engine import Engine
from tests.conftest import run_taskproto
from tests.hooks.agents.conftest import move_to

from .conftest import connect, refused


def test_refusals_name_the_users_command_not_the_option(engine: Engine, repo: Path) -> None:
    engine.create_task("t1")
    engine.claim("t1", "s2")  # a live owner: its heartbeat is fresh
    engine.create_task("base")
    engine.create_task("next", after=["base"])
    engine.create_task("plan", workflow="plan-task")
    engine.create_task("loop", workflow="tight-loop")
    engine.create_task("team", workflow="phone-a-team", description="a team")
    for name in ("plan", "loop", "team"):
        engine.claim(name, "s2")
    engine.create_task("m1", ["dev"])
    engine.claim("m1", "s2")
    move_to(engine, "m1", "IMPLEMENTATION")  # as its owner, s2
    lines: dict[str, str] = {}

    async def main() -> None:
        async with connect(repo, "s1") as client:
            lines["claim"] = await refused(client, "claim", task="t1")
            lines["release"] = await refused(client, "release", task="t1")
            lines["transition"] = await refused(client, "transition", task="t1", state="classified")
            lines["blocked"] = await refused(client, "claim", task="next")
            lines["merge"] = await refused(client, "merge", task="m1")
            lines["submit"] = await refused(client, "submit_artifact", task="plan", artifact={})
            lines["handoff"] = await refused(
                client, "handoff", task="loop", to="EXECUTE", decision="NO"
            )
            lines["round"] = await refused(
                client,
                "round_decide",
                task="team",
                acceptance="pass",
                risks="pass",
                validation="documented",
                note="no tests here",
            )

    anyio.run(main)
    assert lines["claim"].endswith(
        "; wait for it to be released, or ask the user to take over with "
        "`taskproto claim t1 --force` in their own terminal (logged)"
    ), lines["claim"]
    assert lines["release"].endswith(
        "(or ask the user to run `taskproto release t1 --force` in their own terminal (logged))"
    ), lines["release"]
    assert "`taskproto transition t1 CLASSIFIED --force`" in lines["transition"]
    assert lines["blocked"].endswith(
        "or ask the user to claim it anyway with `taskproto claim next --force` in their own "
        "terminal (logged)"
    ), lines["blocked"]
    assert "`taskproto merge m1 --force`" in lines["merge"], lines["merge"]
    assert "`taskproto submit plan --artifact FILE --force`" in lines["submit"], lines["submit"]
    assert "`taskproto handoff loop --to EXECUTE --decision no --force`" in lines["handoff"]
    assert (
        "`taskproto round decide team --rubric acceptance=pass,risks=pass,validation=documented "
        "--note 'no tests here' --force`"
    ) in lines["round"]
    for line in lines.values():  # --force only inside the command the user runs
        assert "--force" not in re.sub(r"`[^`]*`", "", line), line
    # the command named does what it says, run by the user
    taken = run_taskproto("--session", "you", "claim", "t1", "--force", cwd=repo)
    assert taken.code == 0, taken.err

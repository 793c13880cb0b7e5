"""The workflow tools (prompt, submit_artifact, handoff, round_decide), when the workflows' library
is here."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import anyio
import pytest

from taskproto.engine import Engine
from tests.conftest import run_taskproto

from .conftest import connect, ok, refused

pytestmark = pytest.mark.skipif(
    any(
        importlib.util.find_spec(m) is None
        for m in (
            "taskproto.ops.plan_task",
            "taskproto.ops.tight_loop",
            "taskproto.ops.phone_a_team",
        )
    ),
    reason="this taskproto has no workflows library (taskproto.ops.plan_task/tightloop/team); the "
    "tools are not listed",
)


# phone-a-team's preflight wants a backend client on PATH: the one tests/clients installs will do.
CLIENT_BIN = (
    Path(os.environ.get("TASKPROTO_CLIENTS_DIR") or Path.home() / ".cache" / "taskproto-clients")
    / "node_modules"
    / ".bin"
)


def cli(repo: Path, *args: str, code: int = 0) -> str:
    path = f"{CLIENT_BIN}{os.pathsep}{os.environ['PATH']}"
    result = run_taskproto("--session", "s1", *args, cwd=repo, env={"PATH": path})
    assert result.code == code, result
    return result.err.strip() if code else result.out


def test_workflow_tools_call_the_workflows_library(
    engine: Engine, repo: Path, tmp_path: Path
) -> None:
    cli(repo, "task", "create", "p1", "--workflow", "plan-task")
    cli(repo, "task", "create", "l1", "--workflow", "tight-loop")
    if (
        run_taskproto(
            "task",
            "create",
            "r1",
            "--workflow",
            "phone-a-team",
            "--max-rounds",
            "2",
            "-d",
            "Speed up the parser",
            cwd=repo,
            env={"PATH": f"{CLIENT_BIN}{os.pathsep}{os.environ['PATH']}"},
        ).code
        != 0
    ):
        pytest.skip("phone-a-team needs a backend (codex) on PATH: run .ci/install-clients.sh")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"affected_files": "not a list"}))

    async def main() -> None:
        async with connect(repo, "s1") as client:
            listed = {t.name: t for t in (await client.list_tools()).tools}
            schema = listed["submit_artifact"].input_schema["properties"]["artifact"]
            assert (
                len(schema["anyOf"]) == 4
                and "CONTEXTUALIZE: ContextAnalysisArtifact" in schema["description"]
            )
            assert "$ref" not in json.dumps(schema)
            assert listed["handoff"].input_schema["properties"]["decision"]["enum"] == ["YES", "NO"]

            # plan-task: the prompt, a refused artifact (the CLI's words), an accepted one.
            shown = await ok(client, "prompt", task="p1")
            assert shown["state"] == "CONTEXTUALIZE" and shown["prompt"] == cli(
                repo, "prompt", "p1"
            )
            line = await refused(
                client, "submit_artifact", task="p1", artifact={"affected_files": "not a list"}
            )
            assert line == cli(repo, "submit", "p1", "--artifact", str(bad), code=1)
            assert engine.load("p1").state == "CONTEXTUALIZE"
            step = await ok(
                client,
                "submit_artifact",
                task="p1",
                artifact={"context_summary": "a small change", "affected_files": ["a.py"]},
            )
            assert (step["from"], step["to"]) == ("CONTEXTUALIZE", "REVIEW_CONTEXT") and step[
                "prompt"
            ]
            assert engine.load("p1").artifacts["context_artifact"]["affected_files"] == ["a.py"]

            # tight-loop: --decision YES is the user's answer to the gate, refused to the agent;
            # the user hands the turn from PLAN to EXECUTE; a wrong hand-off is refused.
            line = await refused(
                client, "handoff", task="l1", to="EXECUTE", decision="YES", results={"plan": "x"}
            )
            assert "answering YES to 'Ready to execute?'" in line and "the user's to do" in line
            cli(repo, "handoff", "l1", "--to", "EXECUTE", "--decision", "YES")
            assert engine.load("l1").state == "EXECUTE"
            assert "refused" in await refused(
                client, "handoff", task="l1", to="FULL_AUTO", decision="NO"
            )
            line = await refused(
                client, "handoff", task="l1", to="REVIEW", decision="NO", from_phase="PLAN"
            )
            assert line == cli(
                repo,
                "handoff",
                "l1",
                "--to",
                "REVIEW",
                "--decision",
                "NO",
                "--from",
                "PLAN",
                code=1,
            )

            # phone-a-team: REVIEW -> DECIDE; all pass converges.
            cli(repo, "round", "review", "r1")
            decided = await ok(
                client,
                "round_decide",
                task="r1",
                acceptance="pass",
                risks="pass",
                validation="documented",
                note="all good",
            )
            assert decided["from"] == "REVIEW" and decided["trigger"] == "converge"
            line = await refused(
                client,
                "round_decide",
                task="l1",
                acceptance="pass",
                risks="pass",
                validation="pass",
            )
            assert line == cli(
                repo,
                "round",
                "decide",
                "l1",
                "--rubric",
                "acceptance=pass,risks=pass,validation=pass",
                code=1,
            )

    anyio.run(main)

"""`taskproto mcp` driven by the MCP SDK's own client over stdio: every tool, and its refusals."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from taskproto.config import load_config
from taskproto.engine import Engine
from taskproto.state import journal
from taskproto.state.lock import task_lock
from tests.conftest import run_taskproto
from tests.integrity.test_integrity import forge

from .conftest import connect, ok, refused, server_env, text

CORE = {
    "status",
    "claim",
    "ready",
    "release",
    "heartbeat",
    "transition",
    "agent_set_status",
    "record_interruption",
    "doctor",
    "log",
    "merge",
    "diff",
}
WORKFLOW = {"prompt", "submit_artifact", "handoff", "round_decide"}


def cli_line(repo: Path, *args: str, session: str) -> str:
    """What the CLI prints on stderr for the same refusal."""
    result = run_taskproto("--session", session, *args, cwd=repo)
    assert result.code == 1, result
    return result.err.strip()


def test_tools_listed_with_precise_schemas_and_user_only_operations_absent(
    engine: Engine, repo: Path
) -> None:
    async def main() -> None:
        async with connect(repo, "s1") as client:
            listed = {t.name: t for t in (await client.list_tools()).tools}
            names = set(listed)
            has_workflows = importlib.util.find_spec("taskproto.ops.plan_task") is not None
            assert names == (CORE | WORKFLOW if has_workflows else CORE)
            # Approvals, forced takeovers, doctor --fix and task removal are the user's.
            for name, tool in listed.items():
                assert not any(
                    word in name
                    for word in (
                        "approve",
                        "force",
                        "takeover",
                        "fix",
                        "remove",
                        "delete",
                        "land",
                        "rollback",
                        "ack",
                    )
                )
                props = tool.input_schema.get("properties", {})
                assert not {"force", "fix", "approve"} & set(props), (name, props)
                assert tool.output_schema is not None, name
            t = listed["transition"].input_schema
            assert set(t["required"]) == {"task", "state"}
            assert t["properties"]["task"]["minLength"] == 1
            status = listed["agent_set_status"].input_schema["properties"]["status"]
            assert status["enum"] == ["PENDING", "WORKING", "COMPLETE", "ERROR"]
            assert listed["status"].annotations.read_only_hint is True
            assert listed["transition"].annotations.read_only_hint is False
            out = listed["transition"].output_schema["properties"]
            assert {"task", "from", "to", "revision"} <= set(out)

    anyio.run(main)


def test_each_core_tool_does_what_the_cli_does(engine: Engine, repo: Path) -> None:
    engine.create_task("t1", agents=["dev"], description="the first task")
    engine.create_task("t2")

    async def main() -> None:
        async with connect(repo, "s1") as client:
            everything = await ok(client, "status")
            assert everything["scope"] == "all" and everything["session"] == "s1"
            assert [t["name"] for t in everything["tasks"]] == ["t1", "t2"]

            claimed = await ok(client, "claim", task="t1")
            assert claimed == {
                "task": "t1",
                "state": "INIT",
                "session": "s1",
                "outcome": "claimed",
                "previous_owner": None,
                "reason": None,
                "warnings": [],
            }
            assert (await ok(client, "claim", task="t1"))["outcome"] == "renewed"

            mine = await ok(client, "status")
            assert mine["scope"] == "session" and [t["name"] for t in mine["tasks"]] == ["t1"]
            t1 = mine["tasks"][0]
            assert (
                t1["mine"] and t1["owner"]["session"] == "s1" and t1["agents"] == {"dev": "PENDING"}
            )
            assert t1["next"] == [{"trigger": "classify", "to": "CLASSIFIED", "guards": []}]
            assert "RESUMING TASK: t1" in t1["instructions"]

            beat = await ok(client, "heartbeat", task="t1")
            assert beat["task"] == "t1" and beat["heartbeat_at"]

            for target in ("CLASSIFIED", "REQUIREMENTS", "SYNTHESIS"):
                moved = await ok(
                    client, "transition", task="t1", state=target.lower(), note="via mcp"
                )
                assert moved["to"] == target

            # A guard refuses: same line as the CLI, nothing written.
            before = engine.config.task_file("t1").read_bytes()
            line = await refused(client, "transition", task="t1", state="IMPLEMENTATION")
            assert line == cli_line(repo, "transition", "t1", "IMPLEMENTATION", session="s1")
            assert "guard plan_approved" in line
            assert engine.config.task_file("t1").read_bytes() == before

            agent = await ok(
                client, "agent_set_status", task="t1", agent="dev", status="ERROR", message="boom"
            )
            assert (
                agent["status"] == "ERROR"
                and agent["error_message"] == "boom"
                and agent["task"] == "t1"
            )
            line = await refused(
                client, "agent_set_status", task="t1", agent="qa", status="WORKING"
            )
            assert line == cli_line(
                repo, "agent", "set", "t1", "qa", "--status", "WORKING", session="s1"
            )

            rec = await ok(
                client, "record_interruption", task="t1", text="wait, why did you pick that design?"
            )
            assert (
                rec["type"] == "QUESTION" and rec["state"] == "SYNTHESIS" and rec["state_unchanged"]
            )
            assert "stays SYNTHESIS" in rec["message"]
            assert (
                engine.load("t1").state == "SYNTHESIS" and len(engine.load("t1").interruptions) == 1
            )

            log = await ok(client, "log", task="t1")
            moves = [
                (e["from"], e["to"], e["note"]) for e in log["entries"] if e["kind"] == "transition"
            ]
            assert moves == [
                ("INIT", "CLASSIFIED", "via mcp"),
                ("CLASSIFIED", "REQUIREMENTS", "via mcp"),
                ("REQUIREMENTS", "SYNTHESIS", "via mcp"),
            ]
            cli_log = json.loads(run_taskproto("log", "t1", "--json", cwd=repo).out)
            assert log["entries"] == cli_log["entries"] and log["total"] == len(cli_log["entries"])
            assert len((await ok(client, "log", task="t1", last=2))["entries"]) == 2

            released = await ok(client, "release", task="t1")
            assert released["task"] == "t1" and released["owner"] is None
            assert engine.load("t1").owner is None
            line = await refused(client, "release", task="t1")
            assert line == cli_line(repo, "release", "t1", session="s1")

            one = await ok(client, "status", task="t2")
            assert one["scope"] == "task" and one["tasks"][0]["state"] == "INIT"
            line = await refused(client, "status", task="nope")
            assert line == cli_line(repo, "task", "show", "nope", session="s1")

    anyio.run(main)


def test_another_sessions_task_is_refused_with_the_cli_line(engine: Engine, repo: Path) -> None:
    engine.create_task("t1", agents=["dev"])
    assert (
        run_taskproto(
            "--session", "other", "claim", "t1", "--pid", str(subprocess.os.getpid()), cwd=repo
        ).code
        == 0
    )
    before = engine.config.task_file("t1").read_bytes()

    async def main() -> None:
        async with connect(repo, "s1") as client:
            for tool, args, cli in [
                ("claim", {"task": "t1"}, ("claim", "t1")),
                (
                    "transition",
                    {"task": "t1", "state": "CLASSIFIED"},
                    ("transition", "t1", "CLASSIFIED"),
                ),
                ("release", {"task": "t1"}, ("release", "t1")),
                ("heartbeat", {"task": "t1"}, ("heartbeat", "t1")),
                (
                    "agent_set_status",
                    {"task": "t1", "agent": "dev", "status": "WORKING"},
                    ("agent", "set", "t1", "dev", "--status", "WORKING"),
                ),
            ]:
                line = await refused(client, tool, **args)
                said = cli_line(repo, *cli, session="s1")
                # the CLI's line; its --force advice, the user's command (test_force_by_hand.py)
                assert line.split("; ")[0] == said.split("; ")[0], tool
                assert "--force" not in re.sub(r"`[^`]*`", "", line), line
                assert "other" in line
            # Still serving after every refusal.
            assert (await ok(client, "status", task="t1"))["tasks"][0]["owner"][
                "session"
            ] == "other"

    anyio.run(main)
    assert engine.config.task_file("t1").read_bytes() == before


def test_without_a_session_only_read_only_tools_work(engine: Engine, repo: Path) -> None:
    engine.create_task("t1", agents=["dev"])
    before = engine.config.task_file("t1").read_bytes()

    async def main() -> None:
        async with connect(repo) as client:
            assert (await ok(client, "status"))["session"] is None
            await ok(client, "log", task="t1")
            for tool, args in [
                ("claim", {"task": "t1"}),
                ("claim", {}),
                ("release", {"task": "t1"}),
                ("heartbeat", {"task": "t1"}),
                ("transition", {"task": "t1", "state": "CLASSIFIED"}),
                ("agent_set_status", {"task": "t1", "agent": "dev", "status": "WORKING"}),
                ("record_interruption", {"task": "t1", "text": "stop"}),
            ]:
                line = await refused(client, tool, **args)
                assert line.startswith(
                    f"taskproto: {tool} changes the task, so it needs this session's id"
                )
                assert "--session ID" in line and "TASKPROTO_SESSION" in line
        # The environment variable is the other way to give it.
        async with connect(repo, env={"TASKPROTO_SESSION": "from-env"}) as client:
            assert (await ok(client, "claim", task="t1"))["session"] == "from-env"

    anyio.run(main)
    assert engine.load("t1").owner.session == "from-env"  # type: ignore[union-attr]
    assert before != engine.config.task_file("t1").read_bytes()


def test_a_held_lock_is_a_tool_error_and_the_server_goes_on(repo: Path) -> None:
    (repo / ".taskproto.toml").write_text("lock_timeout = 0.3\n")
    engine = Engine(load_config(repo))
    engine.create_task("t1")

    async def main() -> None:
        async with connect(repo, "s1") as client:
            with task_lock(engine.config.task_dir("t1"), "t1", 1.0):
                line = await refused(client, "claim", task="t1")
            # named: this test's process holds it (tests/test_lock_holder.py: another program)
            assert line.startswith(
                f"taskproto: task 't1' is locked by pid {os.getpid()} on this host (`"
            ), line
            assert (await ok(client, "claim", task="t1"))["outcome"] == "claimed"

    anyio.run(main)


def test_a_lock_kept_by_a_child_of_an_ended_taker_is_named_through_mcp(repo: Path) -> None:
    """MCP's door of tests/test_lock_holder.py: flock(1) takes the lock and ends, its `sleep`
    keeps it; the tool's error names the `sleep`, started by flock's pid."""
    import signal

    from taskproto.state.lock import lock_path
    from tests.test_lock_holder import _child, _hold

    (repo / ".taskproto.toml").write_text("lock_timeout = 0.3\n")
    engine = Engine(load_config(repo))
    engine.create_task("t1")
    taker = _hold(lock_path(engine.config.task_dir("t1")))
    child = _child(taker.pid)
    taker.kill()
    taker.wait()

    async def main() -> None:
        async with connect(repo, "s1") as client:
            line = await refused(client, "claim", task="t1")
            assert line.startswith(
                f"taskproto: task 't1' is locked by pid {child} on this host (`sleep 60`), "
                f"started by pid {taker.pid}, which has ended"
            ), line

    try:
        anyio.run(main)
    finally:
        os.killpg(taker.pid, signal.SIGKILL)
    assert engine.load("t1").owner is None


def test_bad_arguments_are_tool_errors_and_the_server_goes_on(engine: Engine, repo: Path) -> None:
    engine.create_task("t1")

    async def main() -> None:
        async with connect(repo, "s1") as client:
            assert "task" in await refused(client, "transition", state="CLASSIFIED")
            assert "status" in await refused(
                client, "agent_set_status", task="t1", agent="dev", status="DONE"
            )
            assert "last" in await refused(client, "log", task="t1", last=0)
            assert "invalid task name" in await refused(client, "claim", task="../etc")
            assert "Unknown tool" in await refused(client, "approve", task="t1")
            assert (await ok(client, "claim", task="t1"))["outcome"] == "claimed"

    anyio.run(main)


def test_doctor_reports_and_never_fixes(engine: Engine, repo: Path) -> None:
    engine.create_task("t1")
    (engine.config.task_dir("t1") / "code").rename(engine.config.task_dir("t1") / "moved")
    before = sorted(p.name for p in engine.config.task_dir("t1").iterdir())

    async def main() -> None:
        async with connect(repo, "s1") as client:
            result = await client.call_tool("doctor", {})
            assert not result.is_error, text(result)
            report = result.structured_content
            assert report is not None and report["healthy"] is False and report["fixes"] == []
            assert any(
                f.get("task") == "t1" and f.get("check") == "task-worktree-missing"
                for f in report["findings"]
            ), report["findings"]

    anyio.run(main)
    assert sorted(p.name for p in engine.config.task_dir("t1").iterdir()) == before


def test_malformed_json_rpc_gets_a_protocol_error_and_the_server_keeps_serving(
    engine: Engine, repo: Path
) -> None:
    engine.create_task("t1")
    lines = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        "this is not json",
        '{"jsonrpc": "2.0", "id": 2, "method": ',
        {"id": 3},
        {
            "jsonrpc": "2.0",
            "id": 4,
            "method": "tools/call",
            "params": {"name": "status", "arguments": "not-an-object"},
        },
        {"jsonrpc": "2.0", "id": 5, "method": "no/such/method"},
        {
            "jsonrpc": "2.0",
            "id": 6,
            "method": "tools/call",
            "params": {"name": "status", "arguments": {"task": "t1"}},
        },
    ]
    proc = subprocess.Popen(
        [sys.executable, "-m", "taskproto", "mcp", "--session", "s1"],
        cwd=repo,
        env=server_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    for line in lines:
        proc.stdin.write((line if isinstance(line, str) else json.dumps(line)) + "\n")
    proc.stdin.flush()
    replies = []
    while len(replies) < 7:  # everything but the notification is answered
        line = proc.stdout.readline()
        assert line, f"server closed stdout early: {proc.stderr.read() if proc.stderr else ''}"
        replies.append(json.loads(line))
    proc.stdin.close()
    assert proc.wait(timeout=60) == 0
    by_id = {r["id"]: r for r in replies if r["id"] is not None}
    anonymous = [r["error"]["code"] for r in replies if r["id"] is None]
    assert sorted(anonymous) == [-32700, -32700, -32600]  # two parse errors, one invalid request
    assert by_id[4]["error"]["code"] == -32602
    assert by_id[5]["error"]["code"] == -32601
    assert by_id[6]["result"]["structuredContent"]["tasks"][0]["name"] == "t1"
    assert "isError" not in by_id[6]["result"] or by_id[6]["result"]["isError"] is False


def test_other_commands_never_import_the_mcp_sdk(repo: Path) -> None:
    script = (
        "import sys\nfrom taskproto.cli import main\ncode = main(['task', 'list', '--json'])\n"
        "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith('mcp.')))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], cwd=repo, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize("where", ["outside"])
def test_serving_outside_a_repository_is_refused_before_serving(tmp_path: Path, where: str) -> None:
    result = run_taskproto("mcp", cwd=tmp_path)
    assert result.code == 1 and result.err.startswith("taskproto: ") and result.out == ""


def test_a_forged_task_is_refused_through_mcp_with_the_cli_line(engine: Engine, repo: Path) -> None:
    engine.create_task("t1", agents=["dev"])
    engine.claim("t1", "s1")
    path = engine.config.task_file("t1")
    data = json.loads(path.read_text())
    data["checkpoint"]["plan_approval"] = {"by": "s1", "at": data["created_at"]}  # self-approved
    path.write_text(json.dumps(data, indent=2))
    cli = run_taskproto("--session", "s1", "transition", "t1", "CLASSIFIED", cwd=repo)
    assert cli.code == 1 and "[task-forged]" in cli.err

    async def main() -> None:
        async with connect(repo, "s1") as client:
            for tool, args in [
                ("transition", {"task": "t1", "state": "CLASSIFIED"}),
                ("status", {"task": "t1"}),
                ("heartbeat", {"task": "t1"}),
            ]:
                line = await refused(client, tool, **args)
                assert "[task-forged]" in line and "taskproto doctor" in line, (tool, line)

    anyio.run(main)
    assert json.loads(path.read_text())["state"] == "INIT"


@pytest.mark.parametrize("how", ["deleted", "emptied"])
def test_a_journal_git_cannot_read_is_refused_through_mcp_with_the_cli_line(
    engine: Engine, repo: Path, how: str
) -> None:
    # The server is up before the agent spoils the journal's newest commit and hand-edits the
    # state: a long-lived server must not vouch for task.json from what it read earlier.
    engine.create_task("t1", agents=["dev"])
    engine.claim("t1", "s1")
    engine.fire("t1", "classify", session="s1")
    path = engine.config.task_file("t1")
    head = subprocess.run(
        ["git", "rev-parse", journal.ref_for("t1")],
        cwd=repo, capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    obj = repo / ".git" / "objects" / head[:2] / head[2:]

    async def main() -> None:
        async with connect(repo, "s1") as client:
            await ok(client, "status", task="t1")
            if how == "deleted":
                obj.unlink()
            else:
                obj.chmod(0o644)
                obj.write_bytes(b"")
            forge(engine, {"state": "IMPLEMENTATION"})  # would open commits and edits
            forged = path.read_bytes()
            cli = cli_line(repo, "transition", "t1", "VALIDATION", session="s1")
            assert "[journal-corrupt]" in cli
            for tool, args in [
                ("transition", {"task": "t1", "state": "VALIDATION"}),
                ("status", {"task": "t1"}),
                ("heartbeat", {"task": "t1"}),
                ("agent_set_status", {"task": "t1", "agent": "dev", "status": "WORKING"}),
            ]:
                line = await refused(client, tool, **args)
                assert "[journal-corrupt]" in line and "taskproto doctor" in line, (tool, line)
            assert path.read_bytes() == forged  # the refusals wrote nothing

    anyio.run(main)


def test_status_says_which_task_the_users_interruption_paused(engine: Engine, repo: Path) -> None:
    """`paused` in each task's status: the type of the user's interruption its work waits on."""
    engine.create_task("t1")
    engine.create_task("t2")
    r = run_taskproto("interrupt", "record", "t1", "why two passes in the parser?", cwd=repo)
    assert r.code == 0, r.err

    async def main() -> None:
        async with connect(repo, "s1") as client:
            tasks = (await ok(client, "status"))["tasks"]
            assert {t["name"]: t["paused"] for t in tasks} == {"t1": "QUESTION", "t2": None}

    anyio.run(main)


def test_a_fix_that_would_refuse_is_said_so_through_mcp_and_recover_leaves_it(
    engine: Engine, repo: Path
) -> None:
    """A missing worktree whose registration is locked: doctor's fix would refuse it, so no door
    offers or runs it: MCP's doctor reports `fix_refused`, and `taskproto recover` tries nothing."""
    import shutil

    engine.create_task("t1")
    code = engine.config.task_worktree("t1")
    subprocess.run(["git", "worktree", "lock", str(code)], cwd=repo, check=True)
    shutil.rmtree(code)

    async def main() -> None:
        async with connect(repo, "s1") as client:
            result = await client.call_tool("doctor", {})
            assert not result.is_error, text(result)
            report = result.structured_content
            assert report is not None
            [found] = [f for f in report["findings"] if f.get("check") == "task-worktree-missing"]
            assert found["fix_refused"] == "its registration is locked (`git worktree lock`)"

    anyio.run(main)
    r = run_taskproto("recover", "t1", cwd=repo)
    assert r.code == 1 and "none: no safe automatic fix exists" in r.out, (r.out, r.err)
    assert not code.exists()

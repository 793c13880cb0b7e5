"""`agent start --sandbox bwrap|auto|none`: a stand-in client (a shell command, headless) that
commits in its worktree inside the sandbox; its commit reaches the agent's branch when it ends,
while it runs, and before a restart; a write outside its worktree fails; `agent ps` says which
sandbox each agent got."""

from __future__ import annotations

import json
import os
import shlex
import shutil
from pathlib import Path
from typing import Any

import anyio
import pytest

from taskproto.engine import Engine
from tests.agents.conftest import kill_supervisor, pid_alive, wait_until
from tests.clients.runners import (
    CLAUDE_QUIET,
    find_client,
    gemini_user_settings,
    missing_reason,
    write_codex_config,
)
from tests.clients.standin import (
    AnthropicServer,
    GeminiServer,
    OpenAIResponsesServer,
    Text,
    ToolCall,
)
from tests.conftest import git, run_taskproto
from tests.mcpserver.conftest import connect, ok, refused
from tests.sandbox.conftest import needs_bwrap, sandboxed  # noqa: F401  (its fixture)

pytestmark = needs_bwrap
COMMIT = "echo hello > hello.txt && git add hello.txt && git commit -q -m 'dev: hello'"


@pytest.fixture
def box(
    agents_repo: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Engine:
    """Task t (agents dev, qa) in IMPLEMENTATION, taskproto's hooks installed; the supervisor
    and every agent killed at the end."""
    monkeypatch.setenv("TASKPROTO_SUPERVISOR_IDLE", "3")
    engine: Engine = request.getfixturevalue("sandboxed")
    return engine


def _start(cli, agent: str, client: str, sandbox: str):  # type: ignore[no-untyped-def]
    r = cli(
        "agent",
        "start",
        "t",
        agent,
        "--client",
        client,
        "--headless",
        "--prompt",
        "go",
        "--sandbox",
        sandbox,
        "--json",
    )
    assert r.code == 0, r.err
    return json.loads(r.out)


def _row(cli, agent: str) -> dict:  # type: ignore[no-untyped-def]
    r = cli("agent", "ps", "--json")
    assert r.code == 0, r.err
    return next(row for row in json.loads(r.out) if row["agent"] == agent)


def _subject(repo: Path, ref: str) -> str:
    return git(repo, "log", "-1", "--format=%s", ref)


def test_the_agents_commit_inside_reaches_its_branch_when_it_ends(
    box: Engine, repo: Path, cli
) -> None:
    before = git(repo, "rev-parse", "t-dev")
    record = _start(cli, "dev", f"sh -c {COMMIT!r}", "bwrap")
    assert record["sandbox"] == "bwrap"
    wait_until(lambda: _row(cli, "dev")["state"] == "exited", what="the agent's end")
    head = git(repo, "rev-parse", "t-dev")
    assert head != before and _subject(repo, head) == "dev: hello"
    assert git(repo, "rev-parse", f"{head}~1") == before
    assert _row(cli, "dev")["sandbox"] == "bwrap"
    dev = box.config.agent_worktree("t", "dev")
    assert git(dev, "status", "--porcelain") == ""  # the index follows the new head


def test_a_running_agents_commits_come_out_while_it_runs_and_stop_ends_it(
    box: Engine, repo: Path, cli
) -> None:
    _start(cli, "dev", f"sh -c {COMMIT + ' && exec sleep 600'!r}", "auto")  # auto: bwrap here
    assert _row(cli, "dev")["sandbox"] == "bwrap"
    wait_until(lambda: _subject(repo, "t-dev") == "dev: hello", what="the periodic bring-out")
    assert _row(cli, "dev")["state"] == "running"
    r = cli("agent", "stop", "t", "dev")
    assert r.code == 0, r.err
    assert _row(cli, "dev")["state"] == "stopped"


def test_a_crashed_agents_commit_comes_out_and_the_restart_keeps_it(
    box: Engine, repo: Path, cli
) -> None:
    # the first run commits and crashes; the restarted one finds its file committed and waits
    client = f"sh -c {'test -e hello.txt && exec sleep 600; ' + COMMIT + ' && exit 5'!r}"
    _start(cli, "dev", client, "bwrap")
    row = wait_until(
        lambda: (r := _row(cli, "dev"))["restarts"] == 1 and r["state"] == "running" and r,
        what="the restart",
    )
    assert row["sandbox"] == "bwrap"
    assert _subject(repo, "t-dev") == "dev: hello"
    dev = box.config.agent_worktree("t", "dev")
    assert (dev / "hello.txt").read_text() == "hello\n"
    assert git(dev, "status", "--porcelain") == ""


def test_a_write_outside_its_worktree_fails(box: Engine, repo: Path, cli) -> None:
    task_json = box.config.root / "tasks" / "t" / "task.json"
    before, main = task_json.read_bytes(), git(repo, "rev-parse", "main")
    script = (
        f"echo x > {repo}/evil.txt; echo main=$?; "
        f"echo x > {task_json}; echo task=$?; "
        f"git --git-dir={repo}/.git update-ref refs/heads/main HEAD; echo ref=$?"
    )
    _start(cli, "dev", f"sh -c {script!r}", "bwrap")
    wait_until(lambda: _row(cli, "dev")["state"] == "exited", what="the agent's end")
    log = (box.config.agent_dir("t", "dev") / "agent.log").read_text()
    assert log.count("Read-only file system") == 3, log
    assert "main=0" not in log and "task=0" not in log and "ref=0" not in log, log
    assert not (repo / "evil.txt").exists()
    assert task_json.read_bytes() == before
    assert git(repo, "rev-parse", "main") == main


def test_sandbox_none_runs_unconfined_and_ps_says_so(box: Engine, repo: Path, cli) -> None:
    record = _start(cli, "qa", "sleep 600", "none")
    assert record["sandbox"] == "none"
    assert _row(cli, "qa")["sandbox"] == "none"
    r = cli("agent", "ps")
    assert "sandbox none" in r.out
    assert cli("agent", "stop", "t", "qa").code == 0


def test_agent_start_says_which_sandbox_the_agent_got(box: Engine, cli) -> None:
    # `auto` may fall back to none (a script under /tmp or your home): the start's own line says so
    r = cli("agent", "start", "t", "qa", "--client", "sleep 600", "--headless", "--prompt", "go")
    assert r.code == 0, r.err
    assert r.out.rstrip().endswith(", sandbox bwrap"), r.out
    assert cli("agent", "stop", "t", "qa").code == 0


def test_a_commit_the_tasks_state_refuses_stays_out_and_ps_says_why(
    engine: Engine, agents_repo: Path, cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    from taskproto.git.command import Git
    from taskproto.hooks.git import install

    monkeypatch.setenv("TASKPROTO_SUPERVISOR_IDLE", "3")
    install.install(Git(agents_repo))
    engine.create_task("t", ["dev"], description="no commits yet")  # INIT: no commits
    before = git(agents_repo, "rev-parse", "t-dev")
    _start(cli, "dev", f"sh -c {COMMIT!r}", "bwrap")
    row = wait_until(
        lambda: (r := _row(cli, "dev"))["state"] == "exited" and r, what="the agent's end"
    )
    assert "task t is in INIT, which does not allow commits" in row["sandbox_error"]
    assert git(agents_repo, "rev-parse", "t-dev") == before
    worktree = engine.config.agent_worktree("t", "dev")
    assert git(worktree, "status", "--porcelain") == "?? hello.txt"
    assert "its commits did not come out: the agent's commit" in cli("agent", "ps").out
    # the commit is still in the agent's git dir: once the state allows commits, a restart
    # brings it out before it makes that git dir again
    from tests.hooks.agents.conftest import move_to
    from tests.sandbox.conftest import SESSION

    engine.claim("t", SESSION)
    move_to(engine, "t", "IMPLEMENTATION")
    r = cli("agent", "restart", "t", "dev")
    assert r.code == 0, r.err
    assert _subject(agents_repo, "t-dev") == "dev: hello"
    assert git(worktree, "status", "--porcelain") == ""


def test_the_board_starts_an_agent_in_its_sandbox_and_its_card_says_so(
    box: Engine, repo: Path, board_for: Any
) -> None:
    board = board_for(repo, "--no-doctor")
    body = {"client": "sleep 600", "headless": True, "prompt": "go", "sandbox": "bwrap"}
    started = board.post("/api/tasks/t/agents/dev/start", body)
    assert started.status == 200, started.body
    assert started.json()["sandbox"] == "bwrap"
    card = board.get("/api/tasks/t").json()["agents"][0]["run"]
    assert card["sandbox"] == "bwrap" and card["state"] == "running"
    assert "sandbox: bwrap" in board.get("/tasks/t").body.decode()
    assert board.post("/api/tasks/t/agents/dev/stop").json()["state"] == "stopped"


@pytest.mark.slow  # Claude Code's own start takes a few seconds
def test_claude_code_in_the_sandbox_commits_and_its_guard_answers_through_the_channel(
    box: Engine, repo: Path, cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    exe = find_client("claude")
    if exe is None:
        pytest.skip(missing_reason("claude"))
    monkeypatch.setenv("PATH", f"{exe.parent}:{os.environ['PATH']}")
    for key, value in CLAUDE_QUIET.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("SSH_AUTH_SOCK", "/tmp/ssh-agent.sock")  # not let in
    assert cli("init", "--claude").code == 0
    dev = box.config.agent_worktree("t", "dev")
    settings = dev / ".claude" / "settings.json"
    settings.write_text(json.dumps({"permissions": {"allow": ["Bash"]}}))  # headless: no prompt
    # ... which Claude Code takes from a trusted workspace: the user's ~/.claude.json says so, and
    # the agent's own home gets a copy of it
    trust = {"projects": {str(dev): {"hasTrustDialogAccepted": True}}}
    (Path(os.environ["HOME"]) / ".claude.json").write_text(json.dumps(trust))
    before = git(repo, "rev-parse", "t-dev")
    outside = repo / "outside.txt"
    script = [
        ToolCall("Write", {"file_path": str(outside), "content": "out\n"}),
        ToolCall(
            "Bash",
            {
                "command": "env > env.txt; echo hello > hello.txt && git add hello.txt "
                "&& git commit -q -m 'claude: hello' && taskproto whoami --json"
            },
        ),
        Text("Committed."),
    ]
    with AnthropicServer(script) as server:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "standin-key")
        started = _start(cli, "dev", "claude", "auto")  # auto: bwrap for Claude Code now
        row = wait_until(
            lambda: [r for r in [_row(cli, "dev")] if r["state"] != "running"],
            timeout=90,
            what="Claude Code's end in its sandbox",
        )[0]
    log = cli("agent", "logs", "t", "dev").out
    assert row["sandbox"] == "bwrap" and row["state"] == "exited", log
    assert "Committed." in log
    bodies = [json.dumps(turn.body) for turn in server.turns]
    # the guard, outside, answered the Write through the channel: denied, with its reason
    assert any("taskproto: " in b and "outside.txt" in b for b in bodies[1:2]), bodies[1][-2000:]
    assert not outside.exists()
    # the commit came out to its branch; taskproto inside answered as the agent's session
    assert _subject(repo, "t-dev") == "claude: hello", json.dumps(
        server.turns[2].body["messages"][-1]
    )
    assert git(repo, "rev-parse", "t-dev~1") == before
    assert started["session"] in bodies[2]
    env = (dev / "env.txt").read_text()
    assert "ANTHROPIC_API_KEY=standin-key" in env and "SSH_AUTH_SOCK" not in env
    assert row["hook_activity"] is not None, "no hook reported through the channel"


@pytest.mark.slow  # Claude Code's own start takes a few seconds
def test_headless_claude_code_commits_and_says_it_is_done_with_no_permissions_set_up(
    box: Engine, repo: Path, cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    # as a user starts it: no allow rule in any settings, no trusted workspace; the prompt
    # taskproto gives it asks it to commit and to run `taskproto agent set`, which headless
    # Claude Code (nobody there to answer a permission prompt) must be allowed to run
    exe = find_client("claude")
    if exe is None:
        pytest.skip(missing_reason("claude"))
    monkeypatch.setenv("PATH", f"{exe.parent}:{os.environ['PATH']}")
    for key, value in CLAUDE_QUIET.items():
        monkeypatch.setenv(key, value)
    assert cli("init", "--claude").code == 0
    dev = box.config.agent_worktree("t", "dev")
    command = (
        "git add hello.py && git commit -q -m 'claude: hello' "
        "&& taskproto agent set t dev --status complete"
    )
    script = [
        ToolCall("Write", {"file_path": str(dev / "hello.py"), "content": "print('hi')\n"}),
        ToolCall("Bash", {"command": command}),
        Text("Done."),
    ]
    with AnthropicServer(script) as server:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "standin-key")
        _start(cli, "dev", "claude", "auto")
        row = wait_until(
            lambda: [r for r in [_row(cli, "dev")] if r["state"] != "running"],
            timeout=90,
            what="Claude Code's end in its sandbox",
        )[0]
    result = json.dumps(server.turns[2].body["messages"][-1]) if len(server.turns) > 2 else ""
    assert row["state"] == "exited", cli("agent", "logs", "t", "dev").out
    assert "require approval" not in result, result
    assert _subject(repo, "t-dev") == "claude: hello", result
    shown = json.loads(cli("task", "show", "t", "--json").out)
    assert shown["agents"]["dev"] == "COMPLETE", result


def test_doctor_sees_no_process_outside_the_sandbox_in_a_sandboxed_agents_worktree(
    box: Engine, cli
) -> None:
    _start(cli, "dev", "sleep 600", "bwrap")
    r = cli("doctor", "--json")
    assert "agent-outside-sandbox" not in r.out, r.out
    assert cli("agent", "stop", "t", "dev").code == 0


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_an_interactive_agent_in_tmux_runs_in_its_sandbox(box: Engine, repo: Path, cli) -> None:
    script = COMMIT + " && read line && echo got $line"  # typed in by `agent say`
    r = cli("agent", "start", "t", "dev", "--client", f"sh -c {script!r}", "--sandbox", "bwrap")
    assert r.code == 0, r.err
    wait_until(lambda: _subject(repo, "t-dev") == "dev: hello", what="the commit, brought out")
    assert cli("agent", "say", "t", "dev", "bye").code == 0
    wait_until(lambda: _row(cli, "dev")["state"] == "exited", what="the agent's end")
    assert _row(cli, "dev")["sandbox"] == "bwrap"


@pytest.mark.slow  # two real clients start
def test_codex_and_gemini_in_the_sandbox_commit_and_their_guards_answer_through_the_channel(
    box: Engine, repo: Path, cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    exes = {name: find_client(name) for name in ("codex", "gemini")}
    for name, exe in exes.items():
        if exe is None:
            pytest.skip(missing_reason(name))
    path = os.pathsep.join(str(exe.parent) for exe in exes.values() if exe is not None)
    monkeypatch.setenv("PATH", f"{path}{os.pathsep}{os.environ['PATH']}")
    assert cli("init", "--codex", "--gemini").code == 0
    dev, qa = (box.config.agent_worktree("t", a) for a in ("dev", "qa"))
    before = {a: git(repo, "rev-parse", f"t-{a}") for a in ("dev", "qa")}

    def commit(who: str) -> str:
        return f"echo {who} > {who}.txt && git add {who}.txt && git commit -q -m '{who}: hi'"

    codex = OpenAIResponsesServer(
        [
            ToolCall("exec_command", {"cmd": f"echo x > {repo}/outside-codex.txt"}),
            ToolCall("exec_command", {"cmd": commit("codex")}),
            Text("codex done."),
        ]
    )
    gemini = GeminiServer(
        [
            ToolCall("write_file", {"file_path": f"{repo}/outside-gemini.txt", "content": "x"}),
            ToolCall("run_shell_command", {"command": commit("gemini")}),
            Text("gemini done."),
        ]
    )
    codex_home, gemini_home = tmp_path / "codex-home", tmp_path / "gemini-home"
    with codex, gemini:
        write_codex_config(codex_home, codex, trusted=[dev])
        settings = gemini_home / ".gemini" / "settings.json"
        settings.parent.mkdir(parents=True)
        settings.write_text(json.dumps(gemini_user_settings()))
        env = {
            "CODEX_HOME": str(codex_home),  # the agent gets a copy of its files, in its own home
            "MOCK_API_KEY": "standin-key",  # named by config.toml's provider: let in
            "GEMINI_CLI_HOME": str(gemini_home),
            "GOOGLE_GEMINI_BASE_URL": gemini.url,
            "GEMINI_API_KEY": "standin-key",
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
        }
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        clients = {  # Codex runs no hook the user has not trusted: the flag skips that check
            "dev": "codex --dangerously-bypass-hook-trust",  # taskproto adds exec and the prompt
            # headless Gemini has a shell only in yolo: the user's mode stands over auto_edit
            "qa": "gemini -m gemini-2.5-flash --approval-mode yolo",
        }
        for agent, client in clients.items():
            _start(cli, agent, client, "bwrap")
        rows = wait_until(
            lambda: (
                (r := json.loads(cli("agent", "ps", "--json").out))
                and all(x["state"] != "running" for x in r)
                and r
            ),
            timeout=120,
            what="Codex's and Gemini's end in their sandboxes",
        )
    logs = {a: cli("agent", "logs", "t", a).out for a in clients}
    by_agent = {r["agent"]: r for r in rows}
    for agent in clients:
        assert by_agent[agent]["sandbox"] == "bwrap", logs
        assert by_agent[agent]["state"] == "exited", logs
        assert by_agent[agent]["hook_activity"] is not None, logs[agent]
    assert "codex done." in logs["dev"] and "gemini done." in logs["qa"], logs
    # each guard answered outside, through its channel: the writes outside were denied
    said = {
        "dev": json.dumps([t.body for t in codex.turns]),
        "qa": json.dumps([t.body for t in gemini.turns]),
    }
    for agent in clients:
        assert "taskproto: " in said[agent], said[agent][-3000:]
    assert not (repo / "outside-codex.txt").exists() and not (repo / "outside-gemini.txt").exists()
    assert _subject(repo, "t-dev") == "codex: hi" and _subject(repo, "t-qa") == "gemini: hi"
    for agent in clients:
        assert git(repo, "rev-parse", f"t-{agent}~1") == before[agent]


def test_a_sandboxed_agents_launch_prompt_through_its_channel_is_no_interruption(
    box: Engine, repo: Path, cli
) -> None:
    """The channel answers the agent's hooks with the launch's task, agent and prompt: the prompt
    `agent start` gave is the agent's assignment (no pause), and its first prompt makes it
    WORKING, as outside the sandbox."""
    payload = json.dumps(
        {"session_id": "x", "cwd": "/", "hook_event_name": "UserPromptSubmit", "prompt": "go on"}
    ).replace("go on", "read the README")
    hook = f"printf '%s' {shlex.quote(payload)} | taskproto hook claude UserPromptSubmit > out.txt"
    r = cli(
        "agent",
        "start",
        "t",
        "dev",
        "--client",
        f"sh -c {shlex.quote(hook + ' && exec sleep 600')}",
        "--headless",
        "--prompt",
        "read the README",
        "--sandbox",
        "bwrap",
        "--json",
    )
    assert r.code == 0, r.err
    status = box.config.agent_dir("t", "dev") / "status.json"
    wait_until(
        lambda: json.loads(status.read_text())["status"] == "WORKING", what="its hooks' WORKING"
    )
    assert box.load("t").interruptions == []
    assert "interruption" not in (box.config.agent_worktree("t", "dev") / "out.txt").read_text()


def test_agent_start_sandboxes_by_default_but_a_script_it_would_hide(
    box: Engine, repo: Path, cli, tmp_path: Path
) -> None:
    r = cli("agent", "start", "t", "dev", "--client", "sh -c 'exec sleep 600'", "--headless")
    assert r.code == 0, r.err
    assert _row(cli, "dev")["sandbox"] == "bwrap"  # no --sandbox given: auto, and bwrap runs
    script = tmp_path / "agent.sh"  # under /tmp: the sandbox hides it
    script.write_text("exec sleep 600\n")
    r = cli("agent", "start", "t", "qa", "--client", f"sh {script}", "--headless", "--json")
    assert r.code == 0, r.err
    assert json.loads(r.out)["sandbox"] == "none" and _row(cli, "qa")["sandbox"] == "none"
    r = cli("agent", "stop", "t", "dev")
    assert r.code == 0, r.err


def test_a_sandboxed_agent_reports_its_own_status_and_no_other_agents(
    box: Engine, repo: Path, cli
) -> None:
    """A task owned by the user's session; its agent, started sandboxed, says it is done (`agent
    set TASK AGENT --status complete`, as the seeds' agents do) through its channel. Another
    agent's status, or an order of words the channel cannot read as its own, stays refused."""
    script = (
        "taskproto agent set t qa --status complete 2>>err.txt; echo other=$? >> out.txt;"
        " taskproto agent set --status complete t dev 2>>err.txt; echo reordered=$? >> out.txt;"
        " taskproto agent set t dev --status complete 2>>err.txt; echo own=$? >> out.txt;"
        " exec sleep 600"
    )
    client = f"sh -c {shlex.quote(script)}"
    r = cli("agent", "start", "t", "dev", "--client", client, "--headless", "--prompt", "go")
    assert r.code == 0, r.err
    tree = box.config.agent_worktree("t", "dev")
    done = tree / "out.txt"
    wait_until(lambda: done.exists() and "own=" in done.read_text(), what="the agent's calls")
    out, err = (tree / "out.txt").read_text(), (tree / "err.txt").read_text()
    assert out.split() == ["other=1", "reordered=1", "own=0"], out + err
    assert err.count("sets this agent's own status only") == 2, err
    assert box.agent_status("t", "dev").status == "COMPLETE"  # type: ignore[union-attr]
    assert box.agent_status("t", "qa").status != "COMPLETE"  # type: ignore[union-attr]
    assert box.load("t").owner.session != _row(cli, "dev")["session"]  # type: ignore[union-attr]


def test_a_sandboxed_agent_adopted_from_a_dead_supervisor_starts_again_with_a_channel(
    box: Engine, repo: Path, cli
) -> None:
    """A supervisor that dies takes the agents' channels with it: the next one starts each
    sandboxed agent again (no retry spent), and its taskproto inside answers again."""
    # (its pid inside is the same at each start: its own pid namespace)
    script = "{ taskproto whoami --json | tr -d '\\n'; echo; } >> who.txt 2>&1; exec sleep 600"
    client = f"sh -c {shlex.quote(script)}"
    r = cli("agent", "start", "t", "dev", "--client", client, "--headless", "--prompt", "go")
    assert r.code == 0, r.err
    tree = box.config.agent_worktree("t", "dev")
    who = tree / "who.txt"
    wait_until(lambda: who.exists() and len(who.read_text().splitlines()) == 1, what="whoami")
    first = _row(cli, "dev")
    kill_supervisor(box.config.root)
    row = wait_until(  # agent ps starts a supervisor again, which adopts and restarts it
        lambda: (
            (r := _row(cli, "dev"))["pid"] not in (None, first["pid"])
            and r["state"] == "running"
            and r
        ),
        what="the agent started again",
    )
    assert row["restarts"] == first["restarts"] == 0
    wait_until(lambda: len(who.read_text().splitlines()) == 2, what="its second whoami")
    for line in who.read_text().splitlines():
        assert json.loads(line)["session"] == first["session"], line
    assert "restart 1/" not in cli("log", "t").out
    assert cli("agent", "stop", "t", "dev").code == 0


def test_an_agents_own_status_holds_through_every_door_and_cwd(
    box: Engine, repo: Path, cli, tmp_path: Path
) -> None:
    """The session `agent start` ran an agent as sets that agent's status only, unsandboxed too:
    through the MCP server and the CLI, from the repository's root and from another folder
    (`-C`), never another agent's; the task's owner is someone else."""
    started = _start(cli, "dev", "sh -c 'exec sleep 600'", "none")
    assert started["sandbox"] == "none"
    session = _row(cli, "dev")["session"]
    assert session and box.load("t").owner.session != session  # type: ignore[union-attr]

    async def mcp() -> None:
        async with connect(repo, session) as client:
            line = await refused(
                client, "agent_set_status", task="t", agent="qa", status="COMPLETE"
            )
            print(line)
            assert "owned by" in line or "own" in line, line
            done = await ok(client, "agent_set_status", task="t", agent="dev", status="WORKING")
            assert done["status"] == "WORKING"

    anyio.run(mcp)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for agent, code in (("qa", 1), ("dev", 0)):  # another agent's status, then its own
        args = ("-C", str(repo), "--session", session, "agent", "set", "t", agent)
        done = run_taskproto(*args, "--status", "complete", cwd=elsewhere)
        assert done.code == code, done
    assert box.agent_status("t", "dev").status == "COMPLETE"  # type: ignore[union-attr]
    assert box.agent_status("t", "qa").status != "COMPLETE"  # type: ignore[union-attr]
    assert cli("agent", "stop", "t", "dev").code == 0


def _tree(pid: int) -> dict[int, bytes]:
    """Process `pid` and every process under it, each with its state letter (from /proc)."""
    parents: dict[int, int] = {}
    states: dict[int, bytes] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            fields = Path(f"/proc/{name}/stat").read_bytes().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        parents[int(name)], states[int(name)] = int(fields[1]), fields[0]
    found, todo = {}, [pid]
    while todo:
        current = todo.pop()
        if current in states:
            found[current] = states[current]
            todo.extend(child for child, parent in parents.items() if parent == current)
    return found


def test_pause_stops_the_sandboxed_client_itself_and_resume_continues_it(
    box: Engine, repo: Path, cli
) -> None:
    """bubblewrap's --new-session puts the client in a session (and process group) of its own:
    a pause must stop it too, not only the wrapper around it."""
    pid = _start(cli, "dev", "sh -c 'exec sleep 600'", "bwrap")["pid"]
    wait_until(
        lambda: any(b"sleep" in Path(f"/proc/{p}/comm").read_bytes() for p in _tree(pid)),
        what="the client inside",
    )
    assert cli("agent", "pause", "t", "dev").code == 0
    tree = _tree(pid)
    assert len(tree) >= 4 and set(tree.values()) == {b"T"}, tree
    assert cli("agent", "resume", "t", "dev").code == 0
    assert b"T" not in set(_tree(pid).values())
    assert cli("agent", "stop", "t", "dev").code == 0
    assert not pid_alive(pid)


def test_doctor_fix_says_a_sandboxed_agent_is_started_again_not_adopted(
    box: Engine, repo: Path, cli
) -> None:
    """Found walking a new user's day: after the supervisor was killed, `doctor --fix` said "it
    adopted agent b" of a sandboxed agent that the new supervisor in fact started again (its
    channel died with the old one; docs/agents.md, Limits)."""
    first = _start(cli, "dev", "sh -c 'touch started; exec sleep 600'", "bwrap")
    started = box.config.agent_worktree("t", "dev") / "started"
    wait_until(started.exists, what="the client inside its sandbox")
    kill_supervisor(box.config.root)
    fixed = cli("doctor", "--fix")
    assert "it adopted agent dev" not in fixed.out, fixed.out
    assert (
        "it starts agent dev of task t again in its sandbox, with a channel of its own (the old "
        "one ended with the old supervisor), its commits brought out first, costing no retry"
    ) in fixed.out, fixed.out
    row = wait_until(
        lambda: (r := _row(cli, "dev"))["pid"] not in (None, first["pid"]) and r,
        what="the agent started again",
    )
    assert row["restarts"] == 0
    assert cli("agent", "stop", "t", "dev").code == 0

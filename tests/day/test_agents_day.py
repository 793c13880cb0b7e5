"""A new user's day with the agents taskproto runs, end to end, using only what README.md and
docs/ say: a repository set up as a user's (`init --claude`, then `--codex --gemini`), worktrees
prepared by `[worktree]` (`.env` copied, a setup command, ports), agents started under the
supervisor with stand-in clients (one that commits, one that crashes past its budget, one that
hangs and echoes, headless and in tmux), `agent ps/logs/say/pause/resume/stop`, `agent exec` in
the sandbox, notifications to a webhook on 127.0.0.1 and to a command, the inbox, the TUI, the
board's inbox and agent controls through its API, `export` and `import` into a clone whose
`inbox --all` acts on the first repository, the landing; and time passing past a lead's lease
while its agent works.

Stand-in clients and short timeouts keep it fast; no real agent client is needed. Where nothing
should be left behind, `taskproto doctor` must find nothing (an agent running unsandboxed is
rightly reported, so doctor looks once the agents stopped)."""

from __future__ import annotations

import http.server
import json
import shlex
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.agents.conftest import _teardown, wait_until
from tests.board.conftest import start_board, stop_board
from tests.conftest import git, run_taskproto
from tests.sandbox.conftest import bwrap_problem

from .helpers import Day

pytestmark = [pytest.mark.long, pytest.mark.heavy]  # a day of tens of seconds: started first

LEAD, LEAD2 = "lead-ann", "lead-ben"  # no terminal here: sessions by TASKPROTO_SESSION

COMMITS = """#!/bin/sh
echo "dev of $TASKPROTO_TASK on port $TASKPROTO_PORT"
echo 'def login(): return True' > login.py
git add login.py && git commit -q -m "dev: login" && echo committed
"""
CRASHES = "#!/bin/sh\necho 'crashing'\nexit 3\n"
ECHOES = """#!/bin/sh
echo "qa is listening"
while read line; do echo "got: $line"; done
exec sleep 600
"""


class Hook(http.server.BaseHTTPRequestHandler):
    bodies: list[dict[str, Any]]

    def do_POST(self) -> None:
        size = int(self.headers.get("content-length", "0"))
        self.bodies.append(json.loads(self.rfile.read(size)))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def webhook() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """A webhook on 127.0.0.1: its URL and the bodies it received."""
    bodies: list[dict[str, Any]] = []
    handler = type("Handler", (Hook,), {"bodies": bodies})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hook", bodies
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def day(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Day]:
    """A repository with some code and an ignored `.env`, as a user has it before taskproto; its
    supervisor, agents and tmux server are killed at the end, whatever happened."""
    monkeypatch.setenv("TASKPROTO_SUPERVISOR_IDLE", "3")
    monkeypatch.setenv("TASKPROTO_NOTIFY_DETACH", "0")  # the day flushes when it looks
    repo = tmp_path / "shop"
    repo.mkdir()
    git(repo, "init", "--quiet", "--initial-branch=main")
    (repo / "app.py").write_text("print('shop')\n")
    (repo / ".gitignore").write_text(".env\n.ready\n")
    git(repo, "add", ".")
    git(repo, "commit", "--quiet", "-m", "the shop's first code")
    (repo / "app.py").write_text("print('shop, v2')\n")
    git(repo, "commit", "--quiet", "-am", "v2")
    (repo / ".env").write_text("API_KEY=dev-only\n")
    d = Day(repo)
    try:
        yield d
    finally:
        d.pulse.close()
        _teardown(repo / ".taskproto")


def client(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / "clients" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return str(path)


def ps(day: Day) -> dict[str, dict[str, Any]]:
    return {r["agent"]: r for r in day.json("agent", "ps")}


def inbox(day: Day, *args: str, cwd: Path | None = None) -> list[dict[str, Any]]:
    result = day.tp("inbox", "--json", *args, cwd=cwd)
    return list(json.loads(result.out)["items"])


@contextmanager
def step(day: Day, name: str, doctor: bool = False) -> Iterator[None]:
    """A step of the day; `doctor`: afterwards doctor must find nothing (each run costs a second
    of a loaded machine, so the day asks where something could be left behind)."""
    day.step_name = name
    yield
    if doctor:
        day.healthy()


def tui_resumes(repo: Path) -> str:
    """`taskproto tui` (its Textual pilot) on the inbox's first item: `u`, resume; its status."""
    import asyncio

    from taskproto.config import load_config
    from taskproto.engine import Engine
    from taskproto.tui.app import TaskprotoApp

    app = TaskprotoApp(Engine(load_config(repo)), "tui:user")
    said: list[str] = []

    async def main() -> None:
        async with app.run_test(size=(160, 48)) as pilot:
            await pilot.pause()
            await pilot.press("u")
            await pilot.pause()
            said.append(str(app.query_one("#status").render()))

    asyncio.run(main())
    return said[0]


def flush(day: Day) -> None:
    assert day.json("notify", "flush")["failed"] == []


def test_a_new_users_day_with_agents(
    day: Day, tmp_path: Path, webhook: tuple[str, list[dict[str, Any]]]
) -> None:
    url, received = webhook
    heard = tmp_path / "heard.jsonl"
    with step(day, "the user sets taskproto up, as README says", doctor=True):
        day.tp("init", "--claude")
        day.tp("init", "--codex", "--gemini")
        assert day.git("status", "--porcelain") == ""
        (day.repo / ".taskproto.toml").write_text(
            "[worktree]\n"
            'include = [".env"]\n'
            'setup = "echo ready > .ready"\n'
            'ports = { base = 4300, per_worktree = 10, names = ["web"] }\n'
            "[notify]\n"
            f'command = "cat >> {heard}; echo >> {heard}"\n'
            f'webhook = "{url}"\n'
        )
        day.git("add", ".taskproto.toml")
        day.git("commit", "--quiet", "-m", "taskproto: prepared worktrees, notifications")

    with step(day, "a task with two agents, each worktree prepared"):
        day.tp("task", "create", "login", "--agents", "dev,qa", "-d", "the login page")
        ports = set()
        for agent in ("dev", "qa"):
            tree = day.agent_tree("login", agent)
            assert (tree / ".env").read_text() == "API_KEY=dev-only\n"
            assert (tree / ".ready").exists()
            assert day.git("status", "--porcelain", cwd=tree) == ""
            ports.add(json.loads((tree.parent / "worktree.json").read_text())["port"])
        assert len(ports) == 2

    with step(day, "the lead walks to the plan; the user hears of it and approves"):
        day.tp("claim", "login", session=LEAD)
        day.lead(LEAD, "login", "next", "login", "--to", "SYNTHESIS")
        (item,) = inbox(day)
        head = day.git("rev-parse", "--short=12", "login")
        assert (item["reason"], item["command"]) == (
            "plan-approval",
            f"taskproto approve login --plan --head {head}",
        )
        flush(day)
        assert [(b["task"], b["reason"]) for b in received] == [("login", "plan-approval")]
        assert received[0]["repository"] == str(day.repo)
        assert json.loads(heard.read_text().splitlines()[0])["reason"] == "plan-approval"
        day.tp(*shlex.split(item["command"])[1:])  # the command the inbox names
        day.lead(LEAD, "login", "next", "login")
        assert inbox(day) == []

    day.step_name = "agents run under the supervisor"
    dev = day.json(
        "agent", "start", "login", "dev", "--client", client(tmp_path, "dev", COMMITS),
        "--headless", "--prompt", "write the login",
    )  # fmt: skip
    assert dev["state"] in ("running", "exited") and dev["sandbox"] == "none"
    wait_until(lambda: ps(day)["dev"]["state"] == "exited", what="dev's end")
    assert day.git("log", "-1", "--format=%s", "login-dev") == "dev: login"
    assert "dev of login on port 43" in day.tp("agent", "logs", "login", "dev").out
    day.tp("agent", "start", "login", "qa", "--client", client(tmp_path, "qa", CRASHES),
           "--headless", "--prompt", "test it")  # fmt: skip
    wait_until(lambda: ps(day)["qa"]["state"] == "escalated", what="qa past its budget")
    # one thing to do, one item: the supervisor's escalation is the agent's own (`recover`)
    assert [(i["reason"], i["command"]) for i in inbox(day)] == [
        ("agent-retries", "taskproto recover login")
    ]
    flush(day)
    assert [b["reason"] for b in received[1:]] == ["agent-retries"]
    echoes = client(tmp_path, "echoes", ECHOES)
    qa = day.json("agent", "start", "login", "qa", "--client", echoes, "--headless",
                  "--prompt", "test it")  # fmt: skip
    assert qa["state"] == "running" and qa["restarts"] == 0  # the user's start: a new budget
    status = json.loads((day.agent_tree("login", "qa").parent / "status.json").read_text())
    assert status["retry_count"] == 0
    day.tp("agent", "pause", "login", "qa")
    assert ps(day)["qa"]["state"] == "paused"
    day.tp("agent", "resume", "login", "qa")
    assert ps(day)["qa"]["state"] == "running"
    assert "qa is listening" in day.tp("agent", "logs", "login", "qa").out
    day.tp("agent", "say", "login", "qa", "status?", code=1)  # headless: nothing to type into
    day.tp("agent", "stop", "login", "qa")
    if shutil.which("tmux"):  # interactive, in taskproto's own tmux server
        day.tp("agent", "start", "login", "qa", "--client", echoes)
        day.tp("agent", "say", "login", "qa", "what is the status?")
        wait_until(
            lambda: "got: what is the status?" in day.tp("agent", "logs", "login", "qa").out,
            what="qa's answer in its pane",
        )
        day.tp("agent", "stop", "login", "qa")
    # qa's budget is new (no agent-retries), and the user's start answered its escalation; what
    # the user said to it paused the task, as a question in a client's prompt does
    # (docs/interruptions.md)
    said = {"question"} if shutil.which("tmux") else set()
    assert {i["reason"] for i in inbox(day)} == said
    if said:
        assert tui_resumes(day.repo) == "login: resumed in IMPLEMENTATION"  # the question settled
    assert inbox(day) == []
    day.healthy()  # nothing left working in an agent's worktree

    with step(day, "qa's test, committed in its sandbox"):
        test = "from login import login\n\ndef test_login():\n    assert login()\n"
        commit = f"printf %s {shlex.quote(test)} > test_login.py && git add test_login.py && "
        commit += "git commit -q -m 'qa: test the login'"
        if bwrap_problem() is None:
            day.tp("agent", "exec", "login", "qa", "--", "sh", "-c", commit)
        else:  # no bubblewrap here: as the agent would, unsandboxed
            day.commit(day.agent_tree("login", "qa"), {"test_login.py": test}, "qa: test the login")
        assert day.git("log", "-1", "--format=%s", "login-qa") == "qa: test the login"

    board = start_board(day.repo)
    try:
        day.step_name = "the board's agent controls and inbox"
        base = "/api/tasks/login/agents/qa"
        body = {"client": echoes, "headless": True, "prompt": "again", "sandbox": "none"}
        started = board.post(f"{base}/start", body)
        assert started.status == 200, started.body
        agents = board.get("/api/agents").json()["agents"]
        assert [(a["agent"], a["state"]) for a in agents if a["agent"] == "qa"] == [
            ("qa", "running")
        ]
        assert board.post(f"{base}/stop").json()["state"] == "stopped"
        assert board.get("/api/inbox").json()["items"] == []
        day.healthy()
    finally:
        stop_board(board)

    with step(day, "the agents are done; the work waits for the user's approval"):
        for agent in ("dev", "qa"):
            day.lead(LEAD, "login", "agent", "set", "login", agent, "--status", "COMPLETE")
        day.lead(LEAD, "login", "merge", "login")
        day.lead(LEAD, "login", "next", "login", "--to", "AWAITING_USER_APPROVAL")
        head = day.git("rev-parse", "login")
        (item,) = inbox(day)
        assert item["reason"] == "commit-approval" and item["head"] == head

    with step(day, "export, and import into a clone"):
        exported = tmp_path / "tasks.jsonl"
        day.tp("export", "--output", str(exported))
        clone = tmp_path / "clone"
        git(tmp_path, "clone", "--quiet", str(day.repo), str(clone))
        day.tp("init", "--claude", cwd=clone)
        day.tp("import", str(exported), "--from", "taskproto", cwd=clone)
        (copy,) = json.loads(day.tp("task", "list", "--json", cwd=clone).out)
        assert (copy["name"], copy["state"]) == ("login", "AWAITING_USER_APPROVAL")
        assert not (clone / ".taskproto" / "tasks" / "login" / "code").exists()  # at its claim

    with step(day, "from the clone, the inbox of every repository acts on the first one"):
        there = [i for i in inbox(day, "--all", cwd=clone) if i["repository"] == str(day.repo)]
        (item,) = there
        assert item["command"].startswith(f"taskproto -C {shlex.quote(str(day.repo))} approve")
        day.tp(*shlex.split(item["command"])[1:], cwd=clone)
        assert inbox(day) == []

    with step(day, "the user lands it", doctor=True):
        day.lead(LEAD, "login", "next", "login")
        day.tp("land", "login")
        assert (day.repo / "login.py").exists() and (day.repo / "test_login.py").exists()
        assert day.json("task", "list") == [] and day.json("agent", "ps") == []


def test_time_passes_while_an_agent_works(day: Day, tmp_path: Path) -> None:
    """The lead's heartbeat lapses while its agent keeps working: another lead takes the task over
    once the lease ran out (refused before), and the agent runs on, untouched by the claim."""
    with step(day, "a short lease, a task, its lead and a working agent"):
        day.tp("init", "--claude")
        (day.repo / ".taskproto.toml").write_text("lease_minutes = 0.1\n")  # 6 seconds
        day.git("add", ".taskproto.toml")
        day.git("commit", "--quiet", "-m", "taskproto: a short lease")
        day.tp("task", "create", "login", "--agents", "dev")
        day.tp("claim", "login", session=LEAD)
        day.tp("agent", "start", "login", "dev", "--client", client(tmp_path, "dev", ECHOES),
               "--headless", "--prompt", "work")  # fmt: skip
    with step(day, "the lead stops renewing; the lease runs out", doctor=True):
        day.tp("heartbeat", "login", session=LEAD)  # its last
        first = day.tp("claim", "login", session=LEAD2, code=1)
        assert "owned by session lead-ann" in first.err
        wait_until(
            lambda: run_taskproto("claim", "login", cwd=day.repo, env=day.env(LEAD2)).code == 0,
            what="the lease to run out",
        )
        assert "takeover: lead-ben (from lead-ann" in day.tp("log", "login").out
        assert ps(day)["dev"]["state"] == "running"
        day.tp("agent", "stop", "login", "dev")
        day.tp("release", "login", session=LEAD2)  # its lease would lapse too

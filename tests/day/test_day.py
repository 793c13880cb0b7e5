"""A team's day on one repository, end to end, the way its people and agents walk it (issue #36).

A repository set up as a user sets theirs up (`git init`, some code, `taskproto init --git --claude
--codex --gemini`, a short lease in a committed `.taskproto.toml`) and the board open all day. Five
tasks with dependencies and priorities: schema -> api -> release and schema -> ui -> release, and
docs -> release (a fan-in). Lead sessions take the most urgent ready task; two agents per task
commit in their worktrees, schema's through the real Claude Code and Codex against stand-in
models. A question pauses docs and a "go on" through the real Claude Code lifts it, as a German
question and "mach weiter" do; a `resume` with nothing to resume is refused and writes nothing;
heartbeats are renewed while time passes, and a session whose heartbeat lapsed is shown gone and
taken over. api's agents conflict and the conflict is resolved the way the message says; ui's
landing meets a main that moved, and is updated the way that message says and approved on the
board. Every task lands in
dependency order. After every step `taskproto doctor` finds nothing; at the end main holds every
task's work and no task branch or worktree is left.

Everything runs as a user runs it: the `taskproto` command as a subprocess, real git, a real
`taskproto board` process, the real clients. Run it alone with `python -m pytest tests/day -q`.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from tests.board.conftest import start_board, stop_board, wait_for
from tests.clients.runners import CLIENTS
from tests.clients.standin import Text, Turn
from tests.conftest import git, run_taskproto

from .helpers import (
    LEASE_MINUTES,
    LEASE_SECONDS,
    Browser,
    Day,
    require_clients,
    run_client,
    tool_outputs,
)

pytestmark = [pytest.mark.clients, pytest.mark.long]  # long: started first

# The lead sessions: no terminal here (as in CI), so each sets TASKPROTO_SESSION (README). The
# user's own commands (approvals, rollback, land) carry no session.
ALICE, BOB, CAROL, DAVE = "alice", "bob", "carol", "dave"
# Claude Code sessions in agents' worktrees (the client's own ids)
SCHEMA_DEV = "5c4e1d2a-0000-4000-8000-00000000d001"
DOCS_WRITER = "5c4e1d2a-0000-4000-8000-00000000d002"
GO_ON = "Please continue with the task."

CORE = 'def greet(name: str) -> str:\n    return "hi " + name\n'
PAYLOADS = Path(__file__).resolve().parents[1] / "clients" / "payloads"


@pytest.fixture
def day(tmp_path: Path) -> Iterator[Day]:
    """A repository with some code, as a user has it before taskproto."""
    require_clients("claude", "codex")
    repo = tmp_path / "shop"
    repo.mkdir()
    git(repo, "init", "--quiet", "--initial-branch=main")
    git(repo, "config", "commit.gpgsign", "false")
    (repo / "app").mkdir()
    (repo / "app" / "__init__.py").write_text("")
    (repo / "app" / "core.py").write_text(CORE)
    (repo / "README.md").write_text("# shop\n")
    git(repo, "add", ".")
    git(repo, "commit", "--quiet", "-m", "the shop's first code")
    d = Day(repo)
    try:
        yield d
    finally:
        d.pulse.close()


def test_a_teams_day(day: Day, tmp_path: Path) -> None:
    with day.step("the user sets taskproto up"):
        day.tp("init", "--git", "--claude", "--codex", "--gemini")
        (day.repo / ".taskproto.toml").write_text(f"lease_minutes = {LEASE_MINUTES}\n")
        day.git("add", ".taskproto.toml")
        day.git("commit", "--quiet", "-m", "taskproto: a short lease")

    with ExitStack() as stack:
        with day.step("the user opens the board"):
            board = start_board(day.repo)
            stack.callback(stop_board, board)
            browser = Browser(board)
        homes = tmp_path / "client-homes"
        morning(day)
        schema_through_the_clients(day, browser, homes)
        docs_question_and_takeover(day, browser, homes)
        land_docs_and_schema(day)
        api_with_a_conflict(day)
        ui_after_main_moved(day, browser)
        release_last(day)
        with day.step("the board at the end of the day"):
            assert browser.get("/api/tasks")["tasks"] == []
            report = board_doctor(browser)
            assert report["healthy"] and report["findings"] == [], report
    evening(day)


def morning(day: Day) -> None:
    with day.step("the user plans the day"):
        create = ("task", "create")
        day.tp(*create, "schema", "--agents", "dev,qa", "--priority", "1")
        day.tp(*create, "docs", "--agents", "writer,editor", "--priority", "3")
        day.tp(*create, "api", "--agents", "dev,qa", "--after", "schema", "--priority", "1")
        day.tp(*create, "ui", "--agents", "dev,qa", "--after", "schema", "--priority", "2")
        day.tp(
            *create, "release", "--agents", "dev,qa", "--after", "api,ui,docs", "--priority", "0"
        )
        ready = day.json("ready", "--all")
        assert [t["name"] for t in ready["ready"]] == ["schema", "docs"]
        waiting = {t["name"]: [w["task"] for w in t["waits_for"]] for t in ready["not_ready"]}
        assert waiting == {"api": ["schema"], "ui": ["schema"], "release": ["api", "ui", "docs"]}

    with day.step("the leads take the most urgent ready tasks"):
        assert "task schema (INIT): claimed" in day.tp("claim", session=ALICE).out
        day.pulse.keep(ALICE, "schema")
        assert "task docs (INIT): claimed" in day.tp("claim", session=BOB).out
        day.pulse.keep(BOB, "docs")
        refused = day.tp("claim", "release", session=DAVE, code=1)
        assert "task 'release' waits for api (in INIT), ui (in INIT), docs (in INIT)" in refused.err

    with day.step("alice walks schema to its plan"):
        day.lead(ALICE, "schema", "next", "schema", "--to", "SYNTHESIS")
        stopped = day.lead(ALICE, "schema", "next", "schema", code=1)
        assert "the user approves the plan with `taskproto approve schema --plan`" in stopped.err

    with day.step("the user approves schema's plan"):
        day.tp("approve", "schema", "--plan")

    with day.step("alice starts schema's implementation"):
        assert "SYNTHESIS -> IMPLEMENTATION" in day.lead(ALICE, "schema", "next", "schema").out


def shell_commit(client: str, files: dict[str, str], message: str) -> list[Turn]:
    """The model's turns: one shell call that writes the files and commits them, then a word."""
    writes = [
        f"mkdir -p {shlex.quote(str(Path(name).parent))} && printf %s {shlex.quote(text)} > {name}"
        for name, text in files.items()
    ]
    command = " && ".join([*writes, f"git add {' '.join(files)}", f"git commit -q -m '{message}'"])
    return [CLIENTS[client].shell_call(command), Text("Committed.")]


def schema_through_the_clients(day: Day, browser: Browser, homes: Path) -> None:
    """schema's agents are the real Claude Code and Codex: each commits with its shell tool in its
    own worktree, through the client hooks `init` put there and the git hooks."""
    dev, qa = day.agent_tree("schema", "dev"), day.agent_tree("schema", "qa")
    with day.step("Claude Code commits schema-dev's work"):
        script = shell_commit("claude", {"app/schema.py": "FIELDS = ('id', 'name')\n"}, "schema")
        result, turns = run_client("claude", dev, homes / "claude", script, GO_ON, SCHEMA_DEV)
        assert result.json["permission_denials"] == [], tool_outputs(turns)
        context = json.dumps(turns[0].body)  # SessionStart told the model its task and state
        assert "schema" in context and "IMPLEMENTATION" in context, context[:2000]
        assert day.git("log", "-1", "--format=%s", "schema-dev") == "schema"

    with day.step("Codex commits schema-qa's work"):
        files = {"tests/test_schema.py": "from app.schema import FIELDS\n"}
        run_client("codex", qa, homes / "codex", shell_commit("codex", files, "schema test"), GO_ON)
        assert day.git("log", "-1", "--format=%s", "schema-qa") == "schema test"
        card = {c["name"]: c for c in browser.get("/api/tasks")["tasks"]}["schema"]
        seen = {(s["client"], s["agent"]) for s in card["sessions"]}
        assert {("claude", "dev"), ("codex", "qa")} <= seen, card["sessions"]


def docs_question_and_takeover(day: Day, browser: Browser, homes: Path) -> None:
    writer = day.agent_tree("docs", "writer")
    with day.step("bob walks docs to its implementation"):
        day.lead(BOB, "docs", "next", "docs", "--to", "SYNTHESIS")
        day.tp("approve", "docs", "--plan")
        day.lead(BOB, "docs", "next", "docs")
        bob_acted = time.monotonic()  # bob's last command: from here on only heartbeats

    with day.step("the user asks the writer a question: docs pauses"):
        question = "Wait, how does the retry in the client work?"
        code, _out, err = fire_hook(writer, "UserPromptSubmit", {"prompt": question})
        assert code == 0, err
        show = day.json("task", "show", "docs")
        assert show["state"] == "IMPLEMENTATION"
        assert show["interruptions"]["last"][-1]["type"] == "QUESTION", show["interruptions"]
        card = {c["name"]: c for c in browser.get("/api/tasks")["tasks"]}["docs"]
        assert card["interruption"]["type"] == "QUESTION", card
        write = {"file_path": str(writer / "docs" / "guide.md"), "content": "x"}
        code, out, err = fire_hook(
            writer, "PreToolUse", {"tool_name": "Write", "tool_input": write}
        )
        assert code == 2 and "they interrupted with a QUESTION" in err, (code, out, err)
        # the listing says so, on both of its paths (the quick front and the full command)
        mark = "PAUSED (QUESTION) until `taskproto resume docs`"
        assert mark in day.tp("task", "list").out
        full = run_taskproto("task", "list", cwd=day.repo, env={"TASKPROTO_QUICK": "0"})
        assert mark in full.out, full
        listed = {t["name"]: t for t in day.json("task", "list")}
        assert listed["docs"]["paused"] == "QUESTION", listed["docs"]

    with day.step("the user says go on: the writer (Claude Code) commits"):
        files = {"docs/guide.md": "# Guide\n\nRetries back off.\n"}
        script = shell_commit("claude", files, "docs: the guide")
        go_on = "Thanks, that answers it. Go on."
        result, turns = run_client("claude", writer, homes / "claude", script, go_on, DOCS_WRITER)
        assert result.json["permission_denials"] == [], tool_outputs(turns)
        assert day.git("log", "-1", "--format=%s", "docs-writer") == "docs: the guide"
        assert day.json("task", "show", "docs")["interruptions"]["last"][-1]["type"] == "RESUMPTION"
        assert "PAUSED" not in day.tp("task", "list").out

    with day.step("a German colleague asks the writer: docs pauses; 'mach weiter' resumes it"):
        german = "Moment, wie funktioniert der Retry im Client?"
        code, _out, err = fire_hook(writer, "UserPromptSubmit", {"prompt": german})
        assert code == 0, err
        show = day.json("task", "show", "docs")
        assert show["state"] == "IMPLEMENTATION"
        assert show["interruptions"]["last"][-1]["type"] == "QUESTION", show["interruptions"]
        code, _out, err = fire_hook(writer, "UserPromptSubmit", {"prompt": "mach weiter"})
        assert code == 0, err
        show = day.json("task", "show", "docs")
        assert show["state"] == "IMPLEMENTATION"
        assert show["interruptions"]["last"][-1]["type"] == "RESUMPTION", show["interruptions"]
        # the user, unsure, resumes it too: nothing waits, so it is refused and nothing written
        record = day.repo / ".taskproto" / "tasks" / "docs" / "task.json"
        before = (record.read_bytes(), day.git("rev-parse", "refs/taskproto/tasks/docs"))
        refused = day.tp("resume", "docs", code=1)
        assert refused.out == "" and refused.err.splitlines() == [
            "taskproto: task 'docs' has no open interruption or escalation to resume from: its "
            "work goes on as it is (`taskproto next docs` when the step is due)"
        ], refused
        assert (record.read_bytes(), day.git("rev-parse", "refs/taskproto/tasks/docs")) == before

    with day.step("time has passed since bob last acted: his heartbeats keep docs his"):
        day.sleep_past_lease(since=bob_acted)
        refused = day.tp("claim", "docs", session=CAROL, code=1)
        assert "task 'docs' is owned by session bob" in refused.err, refused.err

    with day.step("bob's session dies; once its lease has run out carol takes docs over"):
        day.pulse.stop("docs")
        day.sleep_past_lease()
        gone = day.json("task", "show", "docs")["owner_gone"]  # what the user sees first
        assert (gone["session"], gone["command"]) == ("bob", "taskproto claim docs"), gone
        assert re.fullmatch(r"its last heartbeat was [\d.]+ seconds ago .*", gone["reason"]), gone
        assert [t["name"] for t in day.json("ready", session=CAROL)["ready"]] == ["docs"]
        took = day.tp("claim", session=CAROL).out
        lease = re.escape(f"(lease {LEASE_SECONDS:g} seconds)")
        lapsed = rf"its last heartbeat was [\d.]+ seconds ago {lease}"
        assert re.search(rf"task docs \(IMPLEMENTATION\): taken over from bob \({lapsed}\)", took)
        day.pulse.keep(CAROL, "docs")
        takeover = day.json("log", "docs")["entries"][-1]
        assert (takeover["kind"], takeover["session"]) == ("takeover", CAROL), takeover
        assert re.fullmatch(f"from bob: {lapsed}", takeover["note"]), takeover

    with day.step("the editor commits docs-editor's work"):
        files = {"docs/style.md": "# Style\n\nShort sentences.\n"}
        day.commit(day.agent_tree("docs", "editor"), files, "docs: the style guide")


def finish(day: Day, task: str, lead: str, agents: tuple[str, ...] = ("dev", "qa")) -> None:
    """The lead marks the agents done, merges them and walks to the user's approval; the user
    reviews the diff and approves the head; the lead completes."""
    with day.step(f"{lead} merges {task}'s agents"):
        for agent in agents:
            day.lead(lead, task, "agent", "set", task, agent, "--status", "COMPLETE")
        waited = day.lead(lead, task, "agent", "wait", task, "--timeout", "30").out
        assert f"Summary: {len(agents)}/{len(agents)} complete, 0 error(s)" in waited, waited
        merged = day.lead(lead, task, "merge", task).out
        assert all(f"{task}: merged {agent} " in merged for agent in agents), merged
        day.lead(lead, task, "next", task, "--to", "AWAITING_USER_APPROVAL")
    with day.step(f"the user approves {task}'s head"):
        assert day.tp("diff", task, "--stat").out
        assert f"{task}: commit " in day.tp("approve", task, "--commit").out
    complete(day, task, lead)


def complete(day: Day, task: str, lead: str) -> None:
    with day.step(f"{lead} completes {task}"):
        assert "AWAITING_USER_APPROVAL -> COMPLETE" in day.lead(lead, task, "next", task).out
        stopped = day.lead(lead, task, "next", task, code=1)
        assert f"the next step is the user's: `taskproto land {task}`" in stopped.err


def land(day: Day, task: str) -> None:
    day.pulse.stop(task)  # its lead is done with it
    with day.step(f"the user lands {task}"):
        out = day.tp("land", task).out
        assert f"{task}: landed" in out and "worktrees and branches removed" in out, out


def land_docs_and_schema(day: Day) -> None:
    finish(day, "docs", CAROL, ("writer", "editor"))
    land(day, "docs")
    finish(day, "schema", ALICE)
    with day.step("schema is approved, not landed: api and ui still wait"):
        waits = {t["name"]: t["waits_for"] for t in day.json("ready", "--all")["not_ready"]}
        assert waits["api"] == [{"task": "schema", "state": "COMPLETE", "why": "in COMPLETE"}]
    land(day, "schema")
    for path in ("app/schema.py", "tests/test_schema.py", "docs/guide.md", "docs/style.md"):
        assert (day.repo / path).is_file(), path


def api_with_a_conflict(day: Day) -> None:
    """api and ui start from schema's code; api's two agents change the same line of greet()."""
    with day.step("schema has landed: api and ui are ready and start from its code"):
        assert [t["name"] for t in day.json("ready")["ready"]] == ["api", "ui"]
        assert "task api (INIT): claimed" in day.tp("claim", session=ALICE).out
        day.pulse.keep(ALICE, "api")
        assert "task ui (INIT): claimed" in day.tp("claim", session=DAVE).out
        day.pulse.keep(DAVE, "ui")
        main = day.git("rev-parse", "main")
        for task in ("api", "ui"):
            notes = [n["note"] or "" for e in day.json("log", task)["entries"] for n in e["log"]]
            assert any(n.startswith(f"starts from main at {main[:12]}") for n in notes), notes
            assert (day.task_tree(task) / "app" / "schema.py").is_file()

    for task, lead in (("api", ALICE), ("ui", DAVE)):
        with day.step(f"{lead} walks {task} to its implementation"):
            day.lead(lead, task, "next", task, "--to", "SYNTHESIS")
            day.tp("approve", task, "--plan")
            day.lead(lead, task, "next", task)

    with day.step("ui's agents commit"):
        files = {"ui/page.py": "TITLE = 'shop'\n", "README.md": "# shop\n\nOpen `ui/page.py`.\n"}
        day.commit(day.agent_tree("ui", "dev"), files, "ui: the page, documented")
        day.commit(day.agent_tree("ui", "qa"), {"tests/test_page.py": "import ui\n"}, "ui: test")

    with day.step("api's agents both change greet()"):
        polite = CORE.replace('"hi "', '"hello "')
        files = {"app/core.py": polite, "README.md": "# shop\n\nCall `greet(name)`.\n"}
        day.commit(day.agent_tree("api", "dev"), files, "api: polite greeting, documented")
        loud = CORE.replace('"hi " + name', '"HI " + name.upper()')
        day.commit(day.agent_tree("api", "qa"), {"app/core.py": loud}, "api: loud greeting")
        for agent in ("dev", "qa"):
            day.lead(ALICE, "api", "agent", "set", "api", agent, "--status", "COMPLETE")

    with day.step("merging api's agents stops at the conflict"):
        refused = day.lead(ALICE, "api", "merge", "api", code=1).err
        told = (
            "merging agent qa into task api conflicts in app/core.py: nothing of it was merged, "
            "the task worktree is as it was; merged before it and kept: dev; resolve it on the "
            "agent's branch (merge api into api-qa in the agent's worktree) and run `taskproto "
            "merge api` again"
        )
        assert told in refused, refused

    qa = day.agent_tree("api", "qa")
    resolved = CORE.replace('"hi " + name', '"HELLO " + name.upper()')
    with day.step("qa merges api into api-qa and resolves the conflict"):
        assert "CONFLICT (content): Merge conflict in app/core.py" in git_output(qa, "merge", "api")
        (qa / "app" / "core.py").write_text(resolved)
        day.git("add", "app/core.py", cwd=qa)
        day.git("commit", "--quiet", "--no-edit", cwd=qa)

    with day.step("alice merges api again"):
        assert "api: merged qa " in day.lead(ALICE, "api", "merge", "api").out
        day.lead(ALICE, "api", "next", "api", "--to", "AWAITING_USER_APPROVAL")

    with day.step("the user approves api's head"):
        day.tp("approve", "api", "--commit")
    complete(day, "api", ALICE)
    land(day, "api")
    assert (day.repo / "app" / "core.py").read_text() == resolved


def ui_after_main_moved(day: Day, browser: Browser) -> None:
    """ui's agents worked from schema's code; api landed since with its own line where ui wrote
    one in the README: landing ui is refused and says how to update the task, the user does that,
    and approves the new head on the board."""
    finish(day, "ui", DAVE)
    with day.step("landing ui is refused: main moved and conflicts"):
        refused = day.tp("land", "ui", code=1).err
        told = (
            "conflicts with task ui in README.md; update the task: `taskproto update ui` (then "
            "approve it again), or `taskproto land ui --update` in one step"
        )
        assert told in refused, refused

    with day.step("the user rolls ui back to its implementation"):
        assert (
            "rolled back COMPLETE -> IMPLEMENTATION"
            in day.tp("rollback", "ui", "--to", "IMPLEMENTATION").out
        )

    tree = day.task_tree("ui")
    with day.step("main is merged into ui in its worktree, the conflict resolved"):
        assert "CONFLICT (content): Merge conflict in README.md" in git_output(
            tree, "merge", "main"
        )
        (tree / "README.md").write_text("# shop\n\nCall `greet(name)`; open `ui/page.py`.\n")
        day.git("add", "README.md", cwd=tree)
        day.git("commit", "--quiet", "--no-edit", cwd=tree)
        day.lead(DAVE, "ui", "next", "ui", "--to", "AWAITING_USER_APPROVAL")

    with day.step("the user approves ui's new head on the board"):
        detail = browser.get("/api/tasks/ui")
        head = detail["diff"]["head"]
        assert head == day.git("rev-parse", "ui")
        changed = {f["path"] for f in detail["diff"]["files"]}
        assert {"ui/page.py", "tests/test_page.py", "README.md"} <= changed, changed
        status, reply = browser.post("/api/tasks/ui/approve", {"kind": "commit", "sha": head})
        assert status == 200, reply
        approval = day.json("task", "show", "ui")["checkpoint"]["commit_approval"]
        assert approval["sha"] == head and not approval["stale"], approval
    complete(day, "ui", DAVE)
    land(day, "ui")
    assert "open `ui/page.py`" in (day.repo / "README.md").read_text()


def release_last(day: Day) -> None:
    with day.step("everything release waited for has landed: carol takes it"):
        assert [t["name"] for t in day.json("ready")["ready"]] == ["release"]
        assert "task release (INIT): claimed" in day.tp("claim", session=CAROL).out
        day.pulse.keep(CAROL, "release")
        for path in ("app/schema.py", "ui/page.py", "docs/guide.md"):
            assert (day.task_tree("release") / path).is_file(), path
        day.lead(CAROL, "release", "next", "release", "--to", "SYNTHESIS")
        day.tp("approve", "release", "--plan")
        day.lead(CAROL, "release", "next", "release")

    with day.step("release's agents commit"):
        dev, qa = day.agent_tree("release", "dev"), day.agent_tree("release", "qa")
        day.commit(dev, {"CHANGELOG.md": "# 1.0\n\nThe shop.\n"}, "release: changelog")
        day.commit(qa, {"VERSION": "1.0\n"}, "release: version")
    finish(day, "release", CAROL)
    land(day, "release")


def evening(day: Day) -> None:
    """main holds every task's work; no task or agent branch, no worktree but main's is left."""
    for path in (
        "app/schema.py",
        "tests/test_schema.py",
        "docs/guide.md",
        "docs/style.md",
        "ui/page.py",
        "tests/test_page.py",
        "CHANGELOG.md",
        "VERSION",
    ):
        assert day.git("ls-files", "--error-unmatch", path) == path
    assert day.git("branch", "--format=%(refname:short)").splitlines() == ["main"]
    listed = day.git("worktree", "list", "--porcelain").splitlines()
    assert [w for w in listed if w.startswith("worktree ")] == [f"worktree {day.repo}"], listed
    assert day.json("task", "list") == []
    # each task's record outlives it: its journal, archived, read back
    for task in ("schema", "docs", "api", "ui", "release"):
        entries = [n for e in day.json("log", task)["entries"] for n in e["log"]]
        assert [e["kind"] for e in entries].count("land") == 1, entries
        assert entries[-1]["to"] == "CLEANUP", entries[-1]
    docs_log = [n for e in day.json("log", "docs")["entries"] for n in e["log"]]
    assert [e["session"] for e in docs_log if e["kind"] == "takeover"] == [CAROL], docs_log
    # Nothing uncommitted in main: the client settings `init` wrote there name this machine's paths
    # and are kept out of git (docs/agents.md).
    status = day.git("status", "--porcelain", "--untracked-files=all")
    assert status == "", status


def board_doctor(browser: Browser) -> Any:
    """The report of a doctor run the user starts on the board (after any run already going)."""
    wait_for(lambda: not browser.get("/api/doctor")["running"], what="the board's doctor run")
    started = time.time()
    assert browser.post("/api/doctor", {})[0] == 202

    def finished() -> Any:
        doctor = browser.get("/api/doctor")
        done = not doctor["running"] and (doctor["finished"] or 0) >= started
        return doctor["report"] if done else None

    return wait_for(finished, what="the board's doctor run")


def fire_hook(cwd: Path, event: str, fields: dict[str, object]) -> tuple[int, str, str]:
    """The Claude Code hook `init` installed in this agent worktree, run as the client runs it, on
    a captured real payload of Claude Code's, for the writer's session."""
    settings = json.loads((cwd / ".claude" / "settings.local.json").read_text())
    command = settings["hooks"][event][0]["hooks"][0]["command"]
    payload = json.loads((PAYLOADS / "claude" / f"{event}.json").read_text())
    payload |= {"cwd": str(cwd), "session_id": DOCS_WRITER, **fields}
    proc = subprocess.run(
        shlex.split(command),
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
    )
    return proc.returncode, proc.stdout, proc.stderr


def git_output(cwd: Path, *args: str) -> str:
    """What git said, for a command expected to stop (a merge that conflicts)."""
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    assert proc.returncode != 0, proc.stdout
    return proc.stdout + proc.stderr

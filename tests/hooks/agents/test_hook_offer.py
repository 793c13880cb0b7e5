"""SessionStart of a session that owns no task, answered in `sh` from the offer Python left
(offer_cache.py): the same answer, CLAUDE_ENV_FILE and activity as Python's, and Python again
whenever anything the offer was made from has changed or may have.

Every run goes through the installed hook script twice (fastpath.Fast.both): as installed, and with
Python deciding; a recording interpreter shows which runs started Python.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest

from taskproto.clients.settings import SCRIPT
from taskproto.hooks.agents import offer, offer_cache, quiet
from taskproto.hooks.flags import warm
from taskproto.state import beat
from tests.conftest import run_taskproto

from .conftest import payload
from .fastpath import NOBODY, OWNER, Fast, programs

EVENTS = [("claude", "SessionStart"), ("codex", "SessionStart"), ("gemini", "SessionStart")]


def start(client: str, cwd: Path, session: str = NOBODY, source: str = "startup") -> bytes:
    return payload(client, "SessionStart", session_id=session, cwd=str(cwd), source=source)


def later() -> None:
    """Past the file system's clock tick: a change lands after the last copy's time."""
    time.sleep(0.05)


def cache(fast: Fast, client: str = "claude") -> Path:
    return Path(offer_cache.path(fast.engine.config.layout, client))


@pytest.mark.parametrize(("client", "event"), EVENTS)
def test_the_second_start_is_answered_in_sh_with_pythons_offer(
    fast: Fast, client: str, event: str
) -> None:
    repo = fast.engine.config.repo
    data = start(client, repo)
    first = fast.both(client, event, data, NOBODY)
    assert first.started, "no offer left yet: Python answers and leaves one"
    assert cache(fast, client).is_file()
    run = fast.both(client, event, data, NOBODY)
    assert not run.started
    assert "owns no task" in run.answer[1] and "Free tasks: t2 (INIT)." in run.answer[1]
    assert f"is taken by live session {OWNER}" in run.answer[1]
    if client == "gemini":
        text = json.loads(run.answer[1])["hookSpecificOutput"]["additionalContext"]
        assert text.splitlines()[1].startswith("To work on a free task, claim it first: ")
    # another session, from a subfolder: the lines that name it are written by sh
    (repo / "sub").mkdir()
    other = fast.both(client, event, start(client, repo / "sub", "other-9"), "other-9")
    assert not other.started and "this session (other-9) owns no task" in other.answer[1]


def test_claude_env_file_is_written_alike(fast: Fast, tmp_path: Path) -> None:
    repo = fast.engine.config.repo
    data = start("claude", repo)
    fast.run("claude", "SessionStart", data)
    files = {}
    for way, extra in (("sh", {}), ("python", {"TASKPROTO_HOOK_FASTPATH": "0"})):
        path = tmp_path / f"env-{way}"
        path.write_text("export KEEP=1\n")
        env = {"CLAUDE_ENV_FILE": str(path), "CLAUDE_PID": str(os.getpid()), **extra}
        run = fast.run("claude", "SessionStart", data, env)
        assert run.started == (way == "python")
        assert "`taskproto claim NAME` (this session's id is already in" in run.answer[1]
        files[way] = (path.read_text(), run.answer)
    assert files["sh"] == files["python"]
    assert f"export TASKPROTO_SESSION_PID={os.getpid()}\n" in files["sh"][0]
    # a file that cannot be written: Python answers, with its warning
    env = {"CLAUDE_ENV_FILE": str(tmp_path / "no" / "such" / "folder")}
    run = fast.run("claude", "SessionStart", data, env)
    assert run.started and "could not write CLAUDE_ENV_FILE" in run.answer[2]


def test_every_change_of_what_the_offer_says_goes_to_python(fast: Fast) -> None:
    engine, repo = fast.engine, fast.engine.config.repo
    # changes the offer is not renewed after (as another machine's, or a hand edit): sh must see
    # each one itself
    engine.offer.every = None
    data = start("claude", repo)

    def settled() -> str:
        """Python answers (the change), then sh again (nothing changed since)."""
        run = fast.both("claude", "SessionStart", data, NOBODY)
        assert run.started
        again = fast.both("claude", "SessionStart", data, NOBODY)
        assert not again.started and again.answer == run.answer
        return run.answer[1]

    settled()
    later()
    engine.create_task("t3", description="a new one")
    assert "t3 (INIT): a new one" in settled()
    later()
    engine.claim("t3", "someone", os.getpid())
    assert "t3 (INIT) is taken by live session someone" in settled()
    later()
    engine.fire("t3", target="CLASSIFIED", session="someone")
    assert "t3 (CLASSIFIED) is taken" in settled()
    later()
    engine.release("t3", "someone")
    assert "t3 (CLASSIFIED): a new one" in settled()
    later()
    engine.create_task("t4", after=["t3"])
    assert "t4 waits for t3" in settled()
    later()
    shutil.rmtree(engine.config.task_dir("t4"))
    assert "t4" not in settled()
    # the settings (a lease), a workflow of the repository's own
    later()
    (repo / ".taskproto.toml").write_text("lease_minutes = 45\n")
    settled()
    later()
    (engine.config.root / "workflows").mkdir(exist_ok=True)
    settled()
    # task.json edited in place by hand: no door of taskproto wrote it, so the tasks' index did
    # not move and `sh` answers from the offer as it was (docs/agents.md, the limits), where Python
    # refuses the task (its journal no longer vouches for it). The next change through taskproto,
    # of any task, moves the index: `sh` then looks at each task, and the edit goes to Python.
    shown = fast.both("claude", "SessionStart", data, NOBODY).answer[1]
    later()
    t2 = engine.config.task_file("t2")
    kept = t2.read_bytes()
    t2.write_bytes(kept.replace(b'"priority": 2', b'"priority": 0'))
    run = fast.run("claude", "SessionStart", data)
    assert not run.started and run.answer[1] == shown
    slow = fast.run("claude", "SessionStart", data, {"TASKPROTO_HOOK_FASTPATH": "0"})
    assert slow.answer != run.answer and "t2 (INIT)" not in slow.answer[1]
    later()
    engine.create_task("t5")
    assert "t2 (INIT)" not in settled()
    # put back as it was, by hand too: seen at the next change through taskproto
    t2.write_bytes(kept)
    later()
    engine.remove_task("t5")
    assert "t2 (INIT)" in settled()
    # a heartbeat of the owner changes its task's folder, not the offer: sh still answers
    beat.write(str(engine.config.task_dir("t1")), OWNER, os.getpid(), "2026-01-01T00:00:00+00:00")
    assert not fast.both("claude", "SessionStart", data, NOBODY).started
    # nor does anything else in a task's folder that no door of taskproto wrote (the index did not
    # move): the same answer as Python's
    later()
    (engine.config.task_dir("t1") / "stray").write_text("x")
    assert not fast.both("claude", "SessionStart", data, NOBODY).started


def test_where_sh_leaves_the_start_to_python(fast: Fast, tmp_path: Path) -> None:
    engine, repo = fast.engine, fast.engine.config.repo
    data = start("claude", repo)
    fast.run("claude", "SessionStart", data)
    assert not fast.both("claude", "SessionStart", data, NOBODY).started
    # the owner, TASKPROTO_QUICK=0
    owner = fast.both("claude", "SessionStart", start("claude", repo, OWNER), OWNER)
    assert owner.started and "owns task t1" in owner.answer[1]
    run = fast.both("claude", "SessionStart", data, NOBODY, env={"TASKPROTO_QUICK": "0"})
    assert run.started
    # in a task's worktree Python names the task
    worktree = engine.config.agent_worktree("t1", "a")
    run = fast.both("claude", "SessionStart", start("claude", worktree), NOBODY)
    assert run.started and "agent a's worktree of task t1" in run.answer[1]
    # a link planted at the copy, a copy of another format: Python (and the link stays unread)
    path = cache(fast)
    path.unlink()
    path.symlink_to(tmp_path / "planted")
    (tmp_path / "planted").write_text("taskproto-offer-1 plain 0 - - - - -\n\nplanted\n")
    run = fast.both("claude", "SessionStart", data, NOBODY)
    assert run.started and "planted" not in run.answer[1]
    path.write_text("taskproto-offer-0 plain 0 - - - - -\n\nolder\n")
    os.utime(path, (time.time() + 60, time.time() + 60))
    run = fast.both("claude", "SessionStart", data, NOBODY)
    assert run.started and "older" not in run.answer[1]
    # a /clear hands the session's task over: Python (last: it hands t1 over to NOBODY)
    assert fast.run("claude", "SessionStart", start("claude", repo, source="clear")).started


def test_a_script_between_the_client_and_the_hook_is_not_the_client(
    fast: Fast, tmp_path: Path
) -> None:
    """A process named after its script runs a shell: Python walks past it (common.client_pid),
    and so the hint's pid is the client's."""
    data = start("claude", fast.engine.config.repo)
    fast.run("claude", "SessionStart", data)
    client = tmp_path / "client-wrapper"
    client.write_text(f'#!/bin/sh\n/bin/sh {SCRIPT} {fast.python} claude SessionStart\necho "$?"\n')
    client.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "CLAUDE_PID"}
    proc = subprocess.run(
        [str(client)], input=data, capture_output=True, env=env, cwd=fast.base, check=True
    )
    assert (fast.base / "python-started").exists()
    assert f"--pid {os.getpid()}`" in proc.stdout.decode()


def tamper(path: Path, field: int, value: str) -> None:
    """Change one field of the copy's first line, keeping its time."""
    st = path.stat()
    head, rest = path.read_bytes().split(b"\n", 1)
    fields = head.decode().split(" ")
    fields[field] = value
    path.write_bytes(" ".join(fields).encode() + b"\n" + rest)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_each_fact_the_offer_rests_on_is_checked(fast: Fast) -> None:
    """UNTIL, ALIVE, DEAD, BEATS, LAPSED: a copy whose fact no longer holds is not used."""
    data = start("claude", fast.engine.config.repo)
    fast.run("claude", "SessionStart", data)
    path = cache(fast)
    head = path.read_text().split("\n", 1)[0].split(" ")
    assert head[4] == str(os.getpid()), "t1's owner is this process, alive"
    assert head[3] != "-"
    original = path.read_bytes()
    st = path.stat()
    with open("/proc/uptime") as fh:
        up = int(float(fh.read().split()[0]))
    gone = subprocess.Popen(["true"])
    gone.wait()
    for field, value in (
        (3, str(up)),  # the lease has run out
        (4, f"{os.getpid()},{gone.pid}"),  # an owner's process is gone
        (5, str(os.getpid())),  # a process said gone exists
        (6, "t1"),  # t1's heartbeat file was counted, and there is none
        (3, "x1"),
    ):
        tamper(path, field, value)
        assert fast.both("claude", "SessionStart", data, NOBODY).started, (field, value)
        path.write_bytes(original)
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
        assert not fast.run("claude", "SessionStart", data).started
    beat.write(str(fast.engine.config.task_dir("t2")), "x", None, "2026-01-01T00:00:00+00:00")
    st = path.stat()
    tamper(path, 7, "t2")  # t2 is free as its owner's lease ran out; a heartbeat came since
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns - 10**9))
    assert fast.both("claude", "SessionStart", data, NOBODY).started


def test_a_lease_that_runs_out_frees_the_task_in_the_offer(fast: Fast) -> None:
    engine, repo = fast.engine, fast.engine.config.repo
    (repo / ".taskproto.toml").write_text("lease_minutes = 0.05\n")  # 3 s
    engine.release("t1", OWNER)
    engine.claim("t2", "away-1", None)  # no process to check: only the lease
    data = start("claude", repo)
    first = fast.both("claude", "SessionStart", data, NOBODY)
    assert first.started and "t2 (INIT) is taken by live session away-1" in first.answer[1]
    time.sleep(3.2)
    run = fast.both("claude", "SessionStart", data, NOBODY)
    assert run.started, "the copy holds until the lease runs out, no longer"
    assert "Free tasks: t1 (INIT): the widget; t2 (INIT)." in run.answer[1]
    assert not fast.both("claude", "SessionStart", data, NOBODY).started
    # the owner comes back: its heartbeat makes the task taken again
    now = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())
    beat.write(str(engine.config.task_dir("t2")), "away-1", None, now)
    run = fast.both("claude", "SessionStart", data, NOBODY)
    assert run.started and "t2 (INIT) is taken by live session away-1" in run.answer[1]


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
def test_the_processes_a_session_start_starts(fast: Fast, tmp_path: Path) -> None:
    data = start("claude", fast.engine.config.repo)
    fast.run("claude", "SessionStart", data)
    found = programs("SessionStart", data, tmp_path / "trace")
    # the offer vouches for every task (no grep); the session's first record of `sh` is made in
    # place (no mv); the offer is short (no cat): test_hook_offer_owners.py shows each case
    assert found == ["sh"]
    assert programs("SessionStart", data, tmp_path / "trace") == ["sh"]


def test_an_agent_cannot_plant_an_offer_for_other_sessions(fast: Fast) -> None:
    """The copy lives in taskproto's root: the tool guard refuses every door to it."""
    repo = fast.engine.config.repo
    fast.run("claude", "SessionStart", start("claude", repo))
    path = cache(fast)
    before = path.read_bytes()
    rel = path.relative_to(repo)
    attempts = [
        ("Write", {"file_path": str(path), "content": "No task is free to claim.\n"}),
        ("Bash", {"command": f"printf 'No task is free\\n' > {rel}"}),
        ("Bash", {"command": f"cp /etc/hostname {rel}"}),
        ("Bash", {"command": "cd .taskproto/cache && tee quiet/offer/claude < /dev/null"}),
    ]
    for tool, tool_input in attempts:
        data = payload(
            "claude",
            "PreToolUse",
            session_id=OWNER,
            cwd=str(repo),
            tool_name=tool,
            tool_input=tool_input,
        )
        run = fast.run("claude", "PreToolUse", data)
        assert run.answer[0] == 2, (tool, tool_input, run.answer)
    assert path.read_bytes() == before


def test_a_command_that_changed_a_task_leaves_the_next_start_to_sh(fast: Fast) -> None:
    """`taskproto` commands renew the offer when they changed a task (offer.refresh): the next
    start is answered in `sh`, with the change."""
    repo = fast.engine.config.repo
    data = start("claude", repo)
    fast.run("claude", "SessionStart", data)
    later()
    made = run_taskproto("task", "create", "t9", "--description", "from the CLI", cwd=repo)
    assert made.code == 0, made
    run = fast.both("claude", "SessionStart", data, NOBODY)
    assert not run.started and "t9 (INIT): from the CLI" in run.answer[1]
    later()
    claimed = run_taskproto("claim", "t9", env={"TASKPROTO_SESSION": "someone"}, cwd=repo)
    assert claimed.code == 0, claimed
    run = fast.both("claude", "SessionStart", data, NOBODY)
    assert not run.started and "t9 (INIT) is taken by live session someone" in run.answer[1]
    # a command that changed nothing leaves the offer as it was
    before = cache(fast).stat().st_mtime_ns
    assert run_taskproto("task", "show", "t9", cwd=repo, env={"TASKPROTO_QUICK": "0"}).code == 0
    assert cache(fast).stat().st_mtime_ns == before


def test_a_change_through_the_python_api_renews_the_offer(fast: Fast) -> None:
    """The engine renews the offer once its locks are released (Core.changed): a task made,
    moved or removed through the Python API is in the next start's answer from `sh`."""
    engine, repo = fast.engine, fast.engine.config.repo
    engine.offer.every = 0  # after every change (the fixture's changes were just now)
    data = start("claude", repo)
    fast.run("claude", "SessionStart", data)
    later()
    engine.create_task("t10", description="from the API")
    run = fast.both("claude", "SessionStart", data, NOBODY)
    assert not run.started and "t10 (INIT): from the API" in run.answer[1]
    later()
    engine.claim("t10", "api-session")
    run = fast.both("claude", "SessionStart", data, NOBODY)
    assert not run.started and "t10 (INIT) is taken by live session api-session" in run.answer[1]
    later()
    engine.remove_task("t10", session="api-session")
    run = fast.both("claude", "SessionStart", data, NOBODY)
    assert not run.started and "t10" not in run.answer[1]


def test_a_script_that_keeps_changing_tasks_renews_the_offer_at_exit(fast: Fast) -> None:
    """A burst of changes renews the offer at once, then at most every OFFER_EVERY seconds, and
    once more when the process exits: the last change is in the next start's answer."""
    repo = fast.engine.config.repo
    data = start("claude", repo)
    fast.run("claude", "SessionStart", data)
    later()
    script = (
        "from pathlib import Path\n"
        "from taskproto.config import load_config\n"
        "from taskproto.engine import Engine\n"
        "e = Engine(load_config(Path('.')))\n"
        "for i in range(5):\n"
        "    e.create_task(f'burst{i}')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=repo, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    run = fast.both("claude", "SessionStart", data, NOBODY)
    assert not run.started
    assert all(f"burst{i} (INIT)" in run.answer[1] for i in range(5)), run.answer[1]


def test_a_change_through_the_mcp_server_renews_the_offer(fast: Fast) -> None:
    """The MCP server's tools go through the engine, which renews the offer."""
    from tests.mcpserver.conftest import connect, ok

    repo = fast.engine.config.repo
    data = start("claude", repo)
    fast.run("claude", "SessionStart", data)
    later()

    async def main() -> None:
        async with connect(repo, session="mcp-session") as client:
            await ok(client, "claim", task="t2")

    anyio.run(main)
    run = fast.both("claude", "SessionStart", data, NOBODY)
    assert not run.started
    assert "t2 (INIT) is taken by live session mcp-session" in run.answer[1], run.answer[1]


def test_refresh_reads_only_a_few_tasks(fast: Fast) -> None:
    layout = fast.engine.config.layout
    warm(layout, {"task-protocol"})  # as any full command leaves it
    assert offer.gather(layout, most=1) is None  # t1 and t2
    found = offer.gather(layout, most=2)
    assert found is not None and found[1] == ["t1", "t2"]
    # no copy yet: nothing to renew, nothing written
    offer.refresh(layout)
    assert not cache(fast).exists()


def test_a_change_among_many_tasks_leaves_the_offer_to_the_next_start_at_once(
    fast: Fast,
) -> None:
    """With more tasks than a command's renewal reads (REFRESH_MOST), `task create` and every
    other change leave the copy to the next start without stamping the cache's folder or waiting
    out the file clock's tick for a reading that will not happen (docs/performance.md)."""
    repo = fast.engine.config.repo
    data = start("claude", repo)
    fast.run("claude", "SessionStart", data)
    tasks = fast.root / "tasks"
    for i in range(offer.REFRESH_MOST):  # copies of t1's record, as scripts/scale_repo.py makes
        (tasks / f"many{i}").mkdir()
        shutil.copy(tasks / "t1" / "task.json", tasks / f"many{i}" / "task.json")
    later()
    folder = cache(fast).parent.parent
    before = folder.stat().st_mtime_ns, cache(fast).read_bytes()
    made = run_taskproto("task", "create", "t9", cwd=repo)
    assert made.code == 0, made
    assert (folder.stat().st_mtime_ns, cache(fast).read_bytes()) == before
    run = fast.both("claude", "SessionStart", data, NOBODY)
    assert run.started  # the copy is stale: the next start reads the tasks


def test_a_file_written_after_the_reading_began_is_newer_than_the_copy(fast: Fast) -> None:
    """quiet.started takes the file system's own clock, so `sh`'s `-nt` sees every file
    written after it, however coarse that clock (many tries: some fall in one tick)."""
    layout = fast.engine.config.layout
    probe = fast.base / "probe"
    for _ in range(300):
        made = quiet.started(layout)
        probe.write_text("x")
        assert probe.stat().st_mtime_ns > made
    assert [n for n in os.listdir(fast.root / "cache" / "quiet") if n.startswith(".tmp")] == []


def test_a_long_offer_shows_the_most_urgent_and_counts_the_rest(fast: Fast) -> None:
    """Among many free tasks the offer names the 20 most urgent and counts the others (a
    repository of a thousand tasks does not fill the agent's context), from Python and from sh
    alike."""
    engine = fast.engine
    for n in range(24):
        engine.create_task(f"many{n:02d}", priority=4 if n else 0)
    data = start("claude", engine.config.repo)
    first = fast.both("claude", "SessionStart", data, NOBODY)
    again = fast.both("claude", "SessionStart", data, NOBODY)
    assert first.started and not again.started
    for run in (first, again):
        text = run.answer[1]
        free = next(line for line in text.splitlines() if line.startswith("Free tasks: "))
        assert free.startswith("Free tasks: many00 (INIT, priority 0); t2 (INIT); many01")
        assert free.count("(INIT") == offer.SHOWN
        assert free.endswith("; and 5 more (`taskproto task list` lists them).")

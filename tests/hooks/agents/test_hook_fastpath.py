"""The installed agent hook script (hook.sh) decides "nothing to do" in `sh`, without Python.

The shell must never answer where Python would act: every case runs the script twice on the same
real repository, payload and environment, once as installed and once with
TASKPROTO_HOOK_FASTPATH=0 (Python decides every run). Both must answer alike (exit status,
stdout, stderr) and leave the same state behind (the session's activity record for the board,
every task.json and heartbeat.json). A recording interpreter shows whether Python started, and
what it was given on stdin: the exact payload.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from taskproto.board.snapshot import board
from taskproto.clients import protocols
from taskproto.clients.settings import hook_command
from taskproto.hooks.agents import activity, quiet

from .conftest import payload
from .fastpath import NOBODY, OWNER, Fast, line, programs, stop

QUIET = [
    ("claude", "Stop"),
    ("claude", "PreCompact"),
    ("claude", "SessionEnd"),
    ("claude", "UserPromptSubmit"),
    ("claude", "Notification"),
    ("codex", "Stop"),
    ("codex", "UserPromptSubmit"),
    ("codex", "PermissionRequest"),
    ("gemini", "AfterAgent"),
    ("gemini", "BeforeAgent"),
    ("gemini", "SessionEnd"),
    ("gemini", "Notification"),
]


@pytest.mark.parametrize(("client", "event"), QUIET)
def test_a_session_that_owns_no_task_starts_no_python(fast: Fast, client: str, event: str) -> None:
    repo = fast.engine.config.repo
    (repo / "sub").mkdir()
    fast.engine.release("t1", OWNER)  # t1's log names OWNER, not NOBODY
    captured = Path(__file__).resolve().parents[2] / "clients" / "payloads" / client
    name = (
        event
        if (captured / f"{event}.json").exists()
        else sorted(p.stem for p in captured.glob("*.json") if p.stem in ("Stop", "AfterAgent"))[0]
    )
    for cwd in (repo, repo / "sub", fast.engine.config.agent_worktree("t1", "a")):
        data = json.loads(payload(client, name, session_id=NOBODY, cwd=str(cwd)))
        data["hook_event_name"] = event
        if event in ("Notification", "PermissionRequest"):
            data["message"] = "Claude needs your permission to use Bash"
        raw = json.dumps(data, separators=(",", ":")).encode() + b"\n"
        run = fast.both(client, event, raw, NOBODY)
        in_worktree = cwd != repo and cwd != repo / "sub"
        if protocols.kind(client, event) == "prompt" and in_worktree:
            assert run.started, "a prompt in a task's worktree is recorded on that task"
            continue
        assert not run.started, (event, cwd)
        assert run.answer == (0, "", "")
        record = activity.read_all(str(fast.root))[NOBODY]
        assert (record["client"], record["event"], record["cwd"]) == (client, event, str(cwd))
        assert abs(record["time"] - time.time()) < 60


def test_the_owners_heartbeat_is_answered_in_sh_until_it_is_due(fast: Fast) -> None:
    worktree = fast.engine.config.task_worktree("t1")
    data = stop(OWNER, worktree)
    first = fast.both("claude", "Stop", data, OWNER)
    assert first.started, "no stamp yet: Python answers and leaves one"
    for client in ("claude", "codex", "gemini"):
        event = "Stop" if client != "gemini" else "AfterAgent"
        run = fast.both(client, event, stop(OWNER, worktree, client), OWNER)
        assert not run.started and run.answer == (0, "", ""), client
    # a minute passes: the last beat is 61 s old, every task file older than the stamp
    owner, due = quiet.paths(fast.engine.config.layout, OWNER)
    beat = fast.engine.config.task_dir("t1") / "heartbeat.json"
    now = time.time()
    then = datetime.now(UTC) - timedelta(seconds=61)
    beat.write_text(json.dumps({"session": OWNER, "pid": os.getpid(), "at": then.isoformat()}))
    tasks = fast.root / "tasks"
    for path in [tasks, *tasks.glob("*"), *tasks.glob("*/*.json")]:
        os.utime(path, (now - 120, now - 120))
    os.utime(owner, (now - 90, now - 90))
    assert not fast.run("claude", "Stop", data).started, "not due yet"
    os.utime(due, (now - 1, now - 1))
    assert fast.run("claude", "Stop", data).started, "the heartbeat is due: Python writes it"
    renewed = datetime.fromisoformat(json.loads(beat.read_text())["at"])
    assert (datetime.now(UTC) - renewed).total_seconds() < 30
    assert fast.run("claude", "Stop", data).started  # the beat is newer than the stamp
    assert not fast.both("claude", "Stop", data, OWNER).started
    # heartbeat.json rewritten in place (its folder unchanged): Python reads it
    with open(beat, "r+b") as fh:
        fh.write(
            json.dumps({"session": OWNER, "pid": os.getpid(), "at": then.isoformat()}).encode()
        )
        fh.truncate()
    os.utime(beat.parent, (now - 120, now - 120))
    run = fast.both("claude", "Stop", data, OWNER)
    assert run.started
    assert datetime.fromisoformat(json.loads(beat.read_text())["at"]) > then


def test_a_change_of_the_task_or_the_beat_sends_the_owner_to_python(fast: Fast) -> None:
    engine = fast.engine
    worktree = engine.config.task_worktree("t1")
    data = stop(OWNER, worktree)
    fast.run("claude", "Stop", data)  # leaves the stamps
    assert not fast.both("claude", "Stop", data, OWNER).started
    time.sleep(0.05)
    engine.claim("t1", OWNER, os.getpid())  # task.json rewritten (the same owner)
    assert fast.both("claude", "Stop", data, OWNER).started
    assert not fast.both("claude", "Stop", data, OWNER).started
    time.sleep(0.05)
    (engine.config.task_dir("t1") / "heartbeat.json").unlink(missing_ok=True)
    assert fast.both("claude", "Stop", data, OWNER).started
    # the hook started by another client process (a resumed session): Python records its pid
    other = subprocess.Popen(["sleep", "30"])
    try:
        run = fast.both("claude", "Stop", data, OWNER, env={"CLAUDE_PID": str(other.pid)})
        assert run.started
        assert engine.load("t1").owner.pid == other.pid  # type: ignore[union-attr]
    finally:
        other.kill()
        other.wait()
    engine.claim("t1", OWNER, os.getpid())
    fast.run("claude", "Stop", data)
    assert not fast.both("claude", "Stop", data, OWNER).started
    # another owner pid: Python records the client's through the engine
    time.sleep(0.05)
    engine.claim("t1", OWNER, 1)
    assert fast.both("claude", "Stop", data, OWNER).started
    # released: the stamp is stale, Python says there is nothing to do
    time.sleep(0.05)
    engine.release("t1", OWNER)
    run = fast.both("claude", "Stop", data, OWNER)
    assert run.started and run.answer == (0, "", "")
    # t1's log still names the session: Python's stamp says it owns nothing, until a task changes
    assert not fast.both("claude", "Stop", data, OWNER).started
    # a prompt trusts no stamp: t1 names the session, so Python finds it owns nothing
    prompt = payload("claude", "UserPromptSubmit", session_id=OWNER, cwd=str(engine.config.repo))
    run = fast.both("claude", "UserPromptSubmit", prompt, OWNER)
    assert run.started and run.answer == (0, "", "")
    prompt = payload("claude", "UserPromptSubmit", session_id=OWNER, cwd=str(worktree))
    assert fast.both("claude", "UserPromptSubmit", prompt, OWNER).started  # recorded on t1
    time.sleep(0.05)
    engine.create_task("t3")
    assert fast.both("claude", "Stop", data, OWNER).started
    # a second task that names the session sends it to Python too
    time.sleep(0.05)
    engine.claim("t1", OWNER, os.getpid())
    fast.run("claude", "Stop", data)
    assert not fast.both("claude", "Stop", data, OWNER).started
    engine.claim("t2", "someone", os.getpid())
    engine.release("t2", "someone")
    t2 = engine.config.task_file("t2")
    t2.write_bytes(t2.read_bytes().replace(b'"someone"', json.dumps(OWNER).encode(), 1))
    assert fast.both("claude", "Stop", data, OWNER).started


def test_the_owners_prompt_and_session_end_go_to_python(fast: Fast) -> None:
    worktree = fast.engine.config.task_worktree("t1")
    fast.run("claude", "Stop", stop(OWNER, worktree))
    prompt = payload("claude", "UserPromptSubmit", session_id=OWNER, cwd=str(worktree))
    run = fast.run("claude", "UserPromptSubmit", prompt)
    assert run.started and "interruption" in run.answer[1]
    end = payload("claude", "SessionEnd", session_id=OWNER, cwd=str(worktree))
    assert fast.run("claude", "SessionEnd", end).started
    assert not os.path.exists(quiet.paths(fast.engine.config.layout, OWNER)[0])


def test_where_the_shell_is_not_sure(fast: Fast, tmp_path: Path) -> None:
    repo = fast.engine.config.repo
    data = stop(NOBODY, repo)
    # GIT_DIR, a `root` setting in either settings file
    assert fast.both("claude", "Stop", data, NOBODY, env={"GIT_DIR": str(repo / ".git")}).started
    (repo / ".taskproto.toml").write_text('remote = "x"\n')
    assert not fast.both("claude", "Stop", data, NOBODY).started
    (repo / ".taskproto.toml").write_text('root = ".taskproto"\n')
    assert fast.both("claude", "Stop", data, NOBODY).started
    (repo / ".taskproto.toml").unlink()
    (repo / "pyproject.toml").write_text('[tool.pytest.ini_options]\nrootdir = "."\n')
    assert not fast.both("claude", "Stop", data, NOBODY).started
    (repo / "pyproject.toml").write_text('[tool.taskproto]\nroot = ".taskproto"\n')
    assert fast.both("claude", "Stop", data, NOBODY).started
    (repo / "pyproject.toml").write_text('[tool.taskproto]\nroot = ".taskproto"')  # no newline
    assert fast.both("claude", "Stop", data, NOBODY).started
    (repo / "pyproject.toml").unlink()
    # core.bare in any spelling git reads, or a config that includes another: Python
    config = repo / ".git" / "config"
    good = config.read_text()
    worktree = fast.engine.config.task_worktree("t1")
    for extra in ("[core]\n\tbare\n", "[core]\n\tBARE = Yes\n", "[include]\n\tpath = x\n"):
        config.write_text(good + extra)
        for cwd in (repo, worktree):  # the main checkout, and a linked worktree of the same repo
            assert fast.run("claude", "Stop", stop(NOBODY, cwd)).started, (extra, cwd)
    config.write_text(good + "[core]\n\tbare = false\n")
    assert not fast.both("claude", "Stop", data, NOBODY).started
    config.write_text(good)
    # the activity folder not made yet, or a planted link: Python
    (fast.root / "activity").rename(tmp_path / "moved")
    assert fast.both("claude", "Stop", data, NOBODY).started
    for name in os.listdir(fast.root / "activity"):
        os.unlink(fast.root / "activity" / name)
    # a link planted at the session's first record: never followed; `sh` makes the next one, and
    # Python's run (fast path off) renames that over the link
    base = fast.root / "activity" / f"{NOBODY}{activity.SH}"
    os.symlink(tmp_path / "elsewhere", base)
    assert not fast.both("claude", "Stop", data, NOBODY).started
    assert not (tmp_path / "elsewhere").exists()
    assert base.is_file() and not base.is_symlink()
    assert sorted(os.listdir(fast.root / "activity")) == [f"{NOBODY}.json", f"{NOBODY}.sh"]


def test_a_planted_hard_link_is_never_written(fast: Fast, tmp_path: Path) -> None:
    """`sh` writes each record to a new file: a hard link at its records' names is left as it is
    (its file is never opened for writing), and Python's next run of the session puts the newest
    record over it."""
    victim = tmp_path / "victim"
    victim.write_text("keep me\n")
    folder = fast.root / "activity"
    for name in (f"{NOBODY}.json", f"{NOBODY}{activity.SH}", f"{NOBODY}+2{activity.SH}"):
        os.link(victim, folder / name)  # Python's record, and sh's first and second numbered
    data = stop(NOBODY, fast.engine.config.repo)
    for _ in range(3):
        assert not fast.run("claude", "Stop", data).started
    assert victim.read_text() == "keep me\n"
    names = sorted(n for n in os.listdir(folder) if not os.path.samefile(victim, folder / n))
    assert names == [f"{NOBODY}+{n}{activity.SH}" for n in (3, 4, 5)]  # found by halving: past +2
    assert activity.read_all(str(fast.root))[NOBODY]["event"] == "Stop"
    assert fast.run("claude", "Stop", data, {"TASKPROTO_HOOK_FASTPATH": "0"}).started
    assert victim.read_text() == "keep me\n"
    assert sorted(os.listdir(folder)) == [f"{NOBODY}.json", f"{NOBODY}.sh"]
    assert not any(os.path.samefile(victim, folder / n) for n in os.listdir(folder))
    assert activity.read_all(str(fast.root))[NOBODY]["event"] == "Stop"


def test_other_roots_links_and_places_outside_any_repository(fast: Fast, tmp_path: Path) -> None:
    repo = fast.engine.config.repo
    link = tmp_path / "link"
    link.symlink_to(repo)
    run = fast.both("claude", "Stop", stop(NOBODY, link), NOBODY)
    assert not run.started
    assert activity.read_all(str(fast.root))[NOBODY]["cwd"] == str(repo)
    # outside any repository: the registry names the owner's task (Python), no one else's
    outside = tmp_path / "outside"
    outside.mkdir()
    assert not fast.both("claude", "Stop", stop(NOBODY, outside), NOBODY).started
    assert fast.both("claude", "Stop", stop(OWNER, outside), OWNER).started
    # a repository where taskproto is not set up: no trace
    plain = tmp_path / "plain"
    subprocess.run(["git", "init", "-q", str(plain)], check=True)
    assert not fast.both("claude", "Stop", stop(NOBODY, plain), NOBODY).started
    assert not (plain / ".taskproto").exists()
    # TASKPROTO_ROOT elsewhere is followed in sh
    other = tmp_path / "other-root"
    (other / "activity").mkdir(parents=True)
    (other / "tasks").mkdir()
    env = {"TASKPROTO_ROOT": str(other)}
    assert not fast.both("claude", "Stop", stop(NOBODY, repo), NOBODY, env=env).started
    assert activity.read_all(str(other))[NOBODY]["event"] == "Stop"
    # cwd from the environment when the payload has none
    data = line(session_id=NOBODY)
    env = {"CLAUDE_PROJECT_DIR": str(repo)}
    assert not fast.both("claude", "Stop", data, NOBODY, env=env).started


def test_the_table_of_events_is_the_clients(fast: Fast) -> None:
    for client, events in protocols.KINDS.items():
        for event, kind in events.items():
            run = fast.run(client, event, b"", env={"TASKPROTO_HOOK_FASTPATH": "print-kind"})
            expected = {"tool": "python", "session_start": "start"}.get(kind, kind)
            assert run.answer == (0, expected + "\n", ""), (client, event)
            command = hook_command(client, event)
            assert ("hook.sh" in command) == (expected != "python"), command
    odd = fast.run("claude", "Nonsense", b"", env={"TASKPROTO_HOOK_FASTPATH": "print-kind"})
    assert odd.answer[1] == "python\n"


def test_the_board_shows_what_sh_recorded(fast: Fast) -> None:
    worktree = fast.engine.config.agent_worktree("t1", "a")
    assert not fast.run("claude", "Stop", stop(NOBODY, worktree)).started
    card = next(c for c in board(fast.engine)["tasks"] if c["name"] == "t1")
    seen = {s["session"]: s for s in card["sessions"]}
    assert seen[NOBODY]["status"] == "idle" and seen[NOBODY]["agent"] == "a"
    data = line(session_id=NOBODY, cwd=str(worktree), message="needs you")
    assert not fast.run("claude", "Notification", data).started
    card = next(c for c in board(fast.engine)["tasks"] if c["name"] == "t1")
    seen = {s["session"]: s for s in card["sessions"]}
    assert (seen[NOBODY]["status"], seen[NOBODY]["detail"]) == ("waiting", "needs you")


def test_other_tasks_changing_keep_the_owner_in_sh(fast: Fast) -> None:
    """A busy repository: other sessions' claims, transitions and new tasks cost one grep, not
    Python, while none of those tasks names the session."""
    engine = fast.engine
    data = stop(OWNER, engine.config.task_worktree("t1"))
    assert fast.run("claude", "Stop", data).started  # leaves the stamp
    time.sleep(0.05)
    engine.claim("t2", "someone", os.getpid())
    engine.fire("t2", target="CLASSIFIED", session="someone")
    engine.create_task("t3")
    assert not fast.both("claude", "Stop", data, OWNER).started
    nobody = stop(NOBODY, engine.config.repo)
    assert not fast.both("claude", "Stop", nobody, NOBODY).started


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
def test_the_processes_a_quiet_turn_starts(fast: Fast, tmp_path: Path) -> None:
    """Counted with strace: a quiet turn is `sh`, and at most one grep (each activity record is
    a new file: no `mv`)."""

    worktree = fast.engine.config.task_worktree("t1")
    trace = tmp_path / "trace"
    assert programs("Stop", stop(NOBODY, fast.engine.config.repo), trace) == ["sh", "grep"]
    assert programs("Stop", stop(NOBODY, fast.engine.config.repo), trace) == ["sh"]
    assert "python" in "".join(programs("Stop", stop(OWNER, worktree), trace))  # no stamp yet
    # nothing changed since: no grep
    assert programs("Stop", stop(OWNER, worktree), trace) == ["sh"]
    assert programs("Stop", stop(OWNER, worktree), trace) == ["sh"]
